// import_json_schema: a JSON Schema document as an EmittedSchema (checked, $refs inlined, a Report
// entry per rule keyword), and extraction against it through a Contract.

#include "accord/json_schema_file.hpp"

#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"

namespace accord {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

const char* const kInvoice = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "description": "An invoice.",
  "properties": {
    "id": {"type": "string", "pattern": "^INV-[0-9]{4}$"},
    "total": {"type": "number", "exclusiveMinimum": 0},
    "lines": {"type": "array", "items": {"$ref": "#/$defs/line"}, "minItems": 1},
    "note": {"type": "string", "maxLength": 200}
  },
  "required": ["id", "total", "lines"],
  "additionalProperties": false,
  "$defs": {
    "line": {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
             "required": ["sku", "qty"], "additionalProperties": false}
  }
})";

TEST(ImportJsonSchema, EveryRuleKeywordGetsAFileEntry) {
  const auto imported = import_json_schema(ojson::parse(kInvoice));
  std::vector<std::string> rules;
  for (const auto& e : imported.report.entries()) {
    EXPECT_EQ(e.stage, "file");
    rules.push_back(e.path.to_string() + " " + e.rule + " [" + e.keyword + "]");
  }
  EXPECT_EQ(rules, (std::vector<std::string>{
                       " description \"An invoice.\" [description]",
                       " no unknown keys [additionalProperties]",
                       "note optional [required]",
                       "id pattern /^INV-[0-9]{4}$/ [pattern]",
                       "total exclusiveMinimum 0 [exclusiveMinimum]",
                       "lines minItems 1 [minItems]",
                       "lines[] no unknown keys [additionalProperties]",
                       "lines[].qty type \"integer\" [type]",
                       "note maxLength 200 [maxLength]",
                   }));
}

TEST(ImportJsonSchema, LocalRefsAreInlinedAndDefsRemoved) {
  const auto imported = import_json_schema(ojson::parse(kInvoice));
  EXPECT_FALSE(imported.json.contains("$defs"));
  EXPECT_EQ(imported.json["properties"]["lines"]["items"]["properties"]["qty"]["type"], "integer");
}

TEST(ImportJsonSchema, KeywordsBesideARefWinOverItsTarget) {
  const auto imported = import_json_schema(ojson::parse(R"({
    "type": "object",
    "properties": {"a": {"$ref": "#/$defs/s", "description": "the a"}},
    "$defs": {"s": {"type": "string", "description": "any s"}}
  })"));
  EXPECT_EQ(imported.json["properties"]["a"].dump(), R"({"type":"string","description":"the a"})");
}

TEST(ImportJsonSchema, RecursiveSchemaKeepsItsReferencesIntoDefs) {
  const auto imported = import_json_schema(ojson::parse(R"({
    "type": "object", "properties": {"root": {"$ref": "#/definitions/node"}},
    "definitions": {"node": {"type": "object", "properties": {
      "name": {"type": "string"},
      "children": {"type": "array", "items": {"$ref": "#/definitions/node"}}}}}})"));
  // `node` is used twice (at `root` and in itself): one definition, both uses references.
  EXPECT_EQ(imported.json.dump(),
            R"({"type":"object","properties":{"root":{"$ref":"#/$defs/node"}},"$defs":{"node":)"
            R"({"type":"object","properties":{"name":{"type":"string"},)"
            R"("children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}})");
  const auto validator = Validator::from_json_schema(imported.json);
  EXPECT_TRUE(validator
                  .validate(json::parse(
                      R"({"root": {"name": "a", "children": [{"name": "b", "children": []}]}})"))
                  .empty());
  EXPECT_FALSE(validator.validate(json::parse(R"({"root": {"children": [{"name": 7}]}})")).empty());
}

TEST(ImportJsonSchema, BadKeywordValueIsNamedByItsPath) {
  try {
    (void)import_json_schema(ojson::parse(R"({
      "type": "object", "properties": {"n": {"type": "number", "maximum": "10"}}})"));
    FAIL();
  } catch (const SchemaError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].path.to_pointer(), "/properties/n/maximum");
  }
}

TEST(ImportJsonSchema, ProviderLoweringRecordsItsFateOnTheFileEntry) {
  const auto imported = import_json_schema(ojson::parse(kInvoice));
  const auto wire = make_provider("anthropic")->lower(imported.json, imported.report);
  bool found = false;
  for (const auto& e : wire.report.entries()) {
    if (e.path != Path{"total"} || e.rule != "exclusiveMinimum 0") continue;
    found = true;
    EXPECT_EQ(e.fate, Fate::description);
    EXPECT_EQ(e.stage, "anthropic");
  }
  EXPECT_TRUE(found);
}

TEST(ImportJsonSchema, RulesAreStatedInTheObjectsDescription) {
  const auto imported = import_json_schema(ojson::parse(R"({
    "type": "object", "description": "Dates.",
    "properties": {"from": {"type": "string"}, "to": {"type": "string"}},
    "x-accord-rules": [{"rule": "to >= from", "message": "to is before from"}]})"));
  EXPECT_EQ(imported.json["description"], "Dates. Rule: to >= from.");
  EXPECT_EQ(imported.report.with_fate(Fate::description).size(), 1u);
}

// ---- extraction against an imported schema ----

const ojson kCapped = ojson::parse(R"({
  "type": "object",
  "properties": {"currency": {"type": "string", "enum": ["usd", "eur"]}, "amount": {"type": "number"}},
  "required": ["currency", "amount"],
  "additionalProperties": false,
  "x-accord-rules": [{"if": "currency == \"eur\"", "then": "amount <= 500",
                      "message": "eur transfers are capped at 500"}]
})");

Result<json> extract_capped(const std::string& provider, const std::vector<json>& replies,
                            std::unique_ptr<MockProcess>& mock) {
  mock = std::make_unique<MockProcess>(json{{"replies", replies}}.dump());
  const Client client({.provider = provider, .base_url = mock->base_url()});
  const auto imported = import_json_schema(kCapped);
  auto contract = std::make_shared<const Contract>(
      imported, Validator::from_json_schema(imported.json), "transfer", client.provider());
  return client.extract({.schema = contract, .prompt = "Send 900 euros."});
}

TEST(ExtractWithContract, RuleFromAFileIsCorrectedThroughTheLoop) {
  std::unique_ptr<MockProcess> mock;
  const auto result = extract_capped("anthropic",
                                     {{{"json", {{"currency", "eur"}, {"amount", 900}}}},
                                      {{"json", {{"currency", "eur"}, {"amount", 500}}}}},
                                     mock);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), (json{{"currency", "eur"}, {"amount", 500}}));
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_EQ(result.trace().attempts[0].issues.at(0).message, "eur transfers are capped at 500");
}

TEST(ExtractWithContract, OpenAIReplyInsideTheWrappedRootIsUnwrapped) {
  std::unique_ptr<MockProcess> mock;
  const auto result = extract_capped(
      "openai-chat", {{{"json", {{"value", {{"currency", "usd"}, {"amount", 900}}}}}}}, mock);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), (json{{"currency", "usd"}, {"amount", 900}}));
  const auto sent = json::parse(result.trace().attempts[0].request_body);
  EXPECT_EQ(sent["response_format"]["json_schema"]["name"], "transfer");
}

TEST(ExtractWithContract, ContractForAnotherProviderIsRefused) {
  const Client client({.provider = "anthropic", .base_url = "http://127.0.0.1:9"});
  const auto imported = import_json_schema(kCapped);
  const auto openai = make_provider("openai-chat");
  auto contract = std::make_shared<const Contract>(
      imported, Validator::from_json_schema(imported.json), "transfer", *openai);
  EXPECT_THROW((void)client.extract({.schema = contract, .prompt = "x"}), std::invalid_argument);
}

}  // namespace
}  // namespace accord

namespace accord {
namespace {

TEST(ImportJsonSchema, RequiredKeyThatNoKeyMayBeIsRefusedWithItsPath) {
  try {
    (void)import_json_schema(nlohmann::ordered_json::parse(R"({"type": "object",
      "properties": {"a": {"type": "string"}}, "required": ["a", "id"],
      "additionalProperties": false})"));
    FAIL();
  } catch (const SchemaError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].path.to_pointer(), "/required/1");
    EXPECT_NE(e.problems()[0].message.find("no value can satisfy"), std::string::npos);
  }
}

}  // namespace
}  // namespace accord
