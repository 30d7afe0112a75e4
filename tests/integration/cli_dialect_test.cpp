// `accord validate --dialect` and `--apply-ref-siblings`: a schema without `$schema` read in the
// dialect given, and the keywords beside a draft-07 `$ref` named on stderr, ignored or applied.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace accord
