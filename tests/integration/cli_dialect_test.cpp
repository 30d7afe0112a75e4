// `accord validate --dialect` and `--apply-ref-siblings`: a schema without `$schema` read in the
// dialect given, and the keywords beside a draft-07 `$ref` named on stderr, ignored or applied.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixtures/cli_run.hpp"

namespace accord {
namespace {

using CliDialect = cli_testing::CliTest;

// `maxLength` beside a `$ref`: ignored by draft-07, applied by 2019-09 and 2020-12.
constexpr const char* kRefWithSibling = R"({
  "definitions": {"s": {"type": "string"}},
  "$ref": "#/definitions/s", "maxLength": 2
})";

TEST_F(CliDialect, Draft7IgnoresKeywordsBesideRefAndSaysWhich) {
  const auto schema = write("schema.json", kRefWithSibling);
  const auto doc = write("doc.json", "\"long\"");
  const auto outcome = run({"validate", schema, doc, "--dialect", "draft7"});
  EXPECT_EQ(outcome.code, 0) << outcome.out << outcome.err;
  EXPECT_NE(outcome.err.find("/maxLength"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("--apply-ref-siblings"), std::string::npos) << outcome.err;
}

TEST_F(CliDialect, ApplyRefSiblingsChecksThem) {
  const auto schema = write("schema.json", kRefWithSibling);
  const auto doc = write("doc.json", "\"long\"");
  const auto outcome =
      run({"validate", schema, doc, "--dialect", "draft7", "--apply-ref-siblings"});
  EXPECT_EQ(outcome.code, 1) << outcome.out << outcome.err;
  EXPECT_NE(outcome.err.find("applied"), std::string::npos) << outcome.err;
}

TEST_F(CliDialect, WithoutDialectASchemaIsRead2020_12) {
  const auto schema = write("schema.json", kRefWithSibling);
  const auto doc = write("doc.json", "\"long\"");
  const auto outcome = run({"validate", schema, doc});
  EXPECT_EQ(outcome.code, 1) << outcome.out << outcome.err;
  EXPECT_EQ(outcome.err.find("$ref"), std::string::npos) << outcome.err;
}

TEST_F(CliDialect, Draft4ReadsBooleanExclusiveBounds) {
  const auto schema = write("schema.json", R"({"minimum": 5, "exclusiveMinimum": true})");
  const auto doc = write("doc.json", "5");
  EXPECT_EQ(run({"validate", schema, doc, "--dialect", "draft4"}).code, 1);
  EXPECT_EQ(run({"validate", schema, doc}).code, 2);  // a boolean bound is no 2020-12 schema
}

TEST_F(CliDialect, AnUnknownDialectNameIsAUsageError) {
  const auto schema = write("schema.json", "{}");
  const auto doc = write("doc.json", "1");
  const auto outcome = run({"validate", schema, doc, "--dialect", "draft-07"});
  EXPECT_EQ(outcome.code, 2) << outcome.out << outcome.err;
  EXPECT_NE(outcome.err.find("draft7"), std::string::npos) << outcome.err;
}

TEST_F(CliDialect, SchemaRefMapInlinesAnotherDocument) {
  const auto money = write("money.json", R"({"type": "object",
      "properties": {"amount": {"type": "number"}}, "required": ["amount"]})");
  const auto schema = write("schema.json", R"({"type": "object",
      "properties": {"price": {"$ref": "https://example.com/money.json"}}, "required": ["price"]})");
  const auto without = run({"schema", schema, "--provider", "openai-chat", "--json"});
  EXPECT_EQ(without.code, 2) << without.out << without.err;
  EXPECT_NE(without.err.find("https://example.com/money.json"), std::string::npos) << without.err;
  const auto outcome = run({"schema", schema, "--provider", "openai-chat", "--json", "--ref-map",
                            "https://example.com/money.json=" + money});
  ASSERT_EQ(outcome.code, 0) << outcome.out << outcome.err;
  const auto wire = nlohmann::json::parse(outcome.out)["wire"];
  EXPECT_EQ(wire["properties"]["price"]["properties"]["amount"]["type"], "number") << outcome.out;
}

// `accord schema` on schemas that share definitions (issue 30, lowering at scale): the wire's size
// after it (and as "wire_bytes"), `--max-wire-bytes` for providers that inline, a refusal that
// names the fan-out, references by anchor and embedded `$id`, and a Report row for each keyword
// beside a draft-07 `$ref`.
using CliLoweringScale = cli_testing::CliTest;

// d0 .. d<links-1>, each holding the next twice; the last a string.
std::string fan_out_chain(int links) {
  nlohmann::ordered_json defs = nlohmann::ordered_json::object();
  for (int i = 0; i < links; ++i) {
    const std::string next = "#/definitions/d" + std::to_string(i + 1);
    defs["d" + std::to_string(i)] = {
        {"type", "object"},
        {"properties", {{"a", {{"$ref", next}}}, {"b", {{"$ref", next}}}}},
        {"required", {"a", "b"}}};
  }
  defs["d" + std::to_string(links)] = {{"type", "string"}};
  return nlohmann::ordered_json{{"type", "object"},
                                {"properties", {{"top", {{"$ref", "#/definitions/d0"}}}}},
                                {"required", {"top"}},
                                {"definitions", defs}}
      .dump();
}

TEST_F(CliLoweringScale, SchemaPrintsTheWireSize) {
  const auto schema = write("schema.json", fan_out_chain(3));
  const auto text = run({"schema", schema, "--provider", "anthropic"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("}\nWire size: "), std::string::npos) << text.out;
  const auto json = run({"schema", schema, "--provider", "anthropic", "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto out = nlohmann::json::parse(json.out);
  EXPECT_EQ(out["wire_bytes"], out["wire"].dump().size());
}

TEST_F(CliLoweringScale, AFanOutPastTheBoundIsRefusedNamingIt) {
  const auto schema = write("schema.json", fan_out_chain(24));
  const auto outcome = run({"schema", schema, "--provider", "mistral"});
  EXPECT_EQ(outcome.code, 2) << outcome.out;
  EXPECT_NE(outcome.err.find("$defs/d24 fans out most"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("--max-wire-bytes"), std::string::npos) << outcome.err;
  const auto kept = run({"schema", schema, "--provider", "openai-chat", "--json"});
  ASSERT_EQ(kept.code, 0) << kept.err;
  EXPECT_LT(nlohmann::json::parse(kept.out)["wire_bytes"].get<std::size_t>(), 10'000U);
}

TEST_F(CliLoweringScale, MaxWireBytesMovesTheBound) {
  const auto schema = write("schema.json", fan_out_chain(6));
  EXPECT_EQ(run({"schema", schema, "--provider", "mistral"}).code, 0);
  const auto outcome = run({"schema", schema, "--provider", "mistral", "--max-wire-bytes", "500"});
  EXPECT_EQ(outcome.code, 2) << outcome.out;
  EXPECT_NE(outcome.err.find("bound of 500"), std::string::npos) << outcome.err;
}

TEST_F(CliLoweringScale, AnchorAndIdReferencesAreResolvedForTheWire) {
  const auto schema = write("schema.json", R"({
    "$id": "https://example.com/order.json",
    "type": "object",
    "properties": {"code": {"$ref": "#code"}, "count": {"$ref": "count.json"}},
    "required": ["code", "count"],
    "$defs": {
      "code": {"$anchor": "code", "type": "string", "pattern": "^[A-Z]{3}$"},
      "count": {"$id": "count.json", "type": "integer", "minimum": 1}
    }
  })");
  const auto outcome = run({"schema", schema, "--provider", "openai-chat", "--json"});
  ASSERT_EQ(outcome.code, 0) << outcome.err;
  const auto wire = nlohmann::json::parse(outcome.out)["wire"]["properties"];
  EXPECT_EQ(wire["code"]["pattern"], "^[A-Z]{3}$");
  EXPECT_EQ(wire["count"]["minimum"], 1);
}

TEST_F(CliLoweringScale, ADraft7FragmentIdIsAnAnchorForTheWire) {
  const auto schema = write("schema.json", R"({
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"old": {"$ref": "#legacy"}, "again": {"$ref": "#legacy"}},
    "required": ["old", "again"],
    "definitions": {"legacy": {"$id": "#legacy", "type": "boolean"}}
  })");
  const auto outcome = run({"schema", schema, "--provider", "anthropic", "--json"});
  ASSERT_EQ(outcome.code, 0) << outcome.err;
  const auto wire = nlohmann::json::parse(outcome.out)["wire"];
  EXPECT_EQ(wire["properties"]["old"], (nlohmann::json{{"$ref", "#/$defs/legacy"}}));
  EXPECT_EQ(wire["$defs"]["legacy"]["type"], "boolean");
}

TEST_F(CliLoweringScale, AReportRowNamesEachKeywordBesideADraft7Ref) {
  const auto schema = write("schema.json", R"({
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"who": {"$ref": "#/definitions/person", "required": ["name"]}},
    "required": ["who"],
    "definitions": {"person": {"type": "object", "properties": {"name": {"type": "string"}}}}
  })");
  const auto outcome = run({"schema", schema, "--provider", "anthropic", "--json"});
  ASSERT_EQ(outcome.code, 0) << outcome.err;
  bool named = false;
  const auto printed = nlohmann::json::parse(outcome.out);
  for (const auto& row : printed["report"]) {
    named =
        named || (row["path"] == "who" && row["rule"] == "required beside $ref" &&
                  row["why"].get<std::string>().find("draft-04/06/07 ignore") != std::string::npos);
  }
  EXPECT_TRUE(named) << outcome.out;
}

}  // namespace
}  // namespace accord
