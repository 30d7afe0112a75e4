// Wires that stay small when a file schema shares its definitions: a definition used in many
// places stays a reference (`$defs`) in the import and on the wire of every provider that takes
// references; where each use is inlined, the inlining is bounded (LoweringBound) and a schema past
// the bound fails before expanding, naming the definition that fans out most.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "accord/json_schema_file.hpp"
#include "accord/providers/lowering_bound.hpp"
#include "accord/providers/provider.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

// d0 .. d<links-1>, each an object whose `left` and `right` both refer to the next (the last a
// string): inlined, the root holds 2^links strings.
ojson fan_out_chain(int links) {
  ojson defs = ojson::object();
  for (int i = 0; i < links; ++i) {
    const std::string next = "#/$defs/d" + std::to_string(i + 1);
    defs["d" + std::to_string(i)] = {
        {"type", "object"},
        {"description", "link " + std::to_string(i)},
        {"properties", {{"left", {{"$ref", next}}}, {"right", {{"$ref", next}}}}},
        {"required", {"left", "right"}}};
  }
  defs["d" + std::to_string(links)] = {{"type", "string"}, {"minLength", 1}};
  return {{"type", "object"},
          {"properties", {{"top", {{"$ref", "#/$defs/d0"}}}}},
          {"required", {"top"}},
          {"$defs", defs}};
}

// A value of fan_out_chain(links): every leaf "x".
nlohmann::json chain_value(int links, const std::string& leaf = "x") {
  nlohmann::json value = leaf;
  for (int i = 0; i < links; ++i) value = {{"left", value}, {"right", value}};
  return {{"top", value}};
}

WireSchema lowered(const std::string& provider, const EmittedSchema& imported,
                   const LoweringBound& bound = {}) {
  return lower_within(*make_provider(provider), imported.json, imported.report, bound);
}

TEST(BoundedWire, ImportKeepsADefinitionUsedTwiceAsAReference) {
  const auto imported = import_json_schema(fan_out_chain(20));
  ASSERT_TRUE(imported.json.contains("$defs"));
  EXPECT_EQ(imported.json["$defs"].size(), 20U);  // d0 is used once: inlined
  EXPECT_LT(imported.json.dump().size(), 10'000U);
}

TEST(BoundedWire, ImportedSharedDefinitionsValidateAsTheOriginal) {
  const auto imported = import_json_schema(fan_out_chain(6));
  const auto validator = Validator::from_json_schema(imported.json);
  EXPECT_TRUE(validator.validate(chain_value(6)).empty());
  EXPECT_FALSE(validator.validate(chain_value(6, "")).empty());  // minLength 1 at every leaf
}

TEST(BoundedWire, ProvidersTakingReferencesGetEachDefinitionOnce) {
  const auto imported = import_json_schema(fan_out_chain(20));
  for (const char* provider : {"openai-chat", "anthropic", "gemini", "bedrock", "azure-openai"}) {
    SCOPED_TRACE(provider);
    const auto wire = lowered(provider, imported);
    ASSERT_TRUE(wire.schema.contains("$defs"));
    EXPECT_EQ(wire.schema["$defs"].size(), 20U);
    EXPECT_LT(wire.schema.dump().size(), 20'000U);
  }
}

TEST(BoundedWire, InliningPastTheBoundNamesTheDefinitionThatFansOutMost) {
  const auto imported = import_json_schema(fan_out_chain(20));
  try {
    (void)lowered("mistral", imported);
    FAIL() << "a 2^20 expansion was lowered";
  } catch (const SchemaError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("$defs/d20 fans out most"), std::string::npos) << what;
    EXPECT_NE(what.find("1048576"), std::string::npos) << what;
    EXPECT_NE(what.find("MB"), std::string::npos) << what;  // the estimated whole
  }
}

TEST(BoundedWire, TheBoundIsAnOption) {
  const auto imported = import_json_schema(fan_out_chain(6));  // 64 leaves: a few KB inlined
  const auto wire = lowered("mistral", imported);
  EXPECT_FALSE(wire.schema.contains("$defs"));
  EXPECT_THROW((void)lowered("mistral", imported, {.max_inlined_bytes = 1000}), SchemaError);
}

TEST(BoundedWire, OptionalsInsideASharedDefinitionAreFilledAndUndoneAtEachUse) {
  const auto imported = import_json_schema(ojson::parse(R"({
    "type": "object",
    "properties": {"from": {"$ref": "#/$defs/place"}, "to": {"$ref": "#/$defs/place"}},
    "required": ["from", "to"],
    "$defs": {"place": {"type": "object", "properties": {
      "city": {"type": "string"}, "zip": {"type": "string"}}, "required": ["city"]}}
  })"));
  const auto wire = lowered("openai-chat", imported);
  ASSERT_TRUE(wire.schema["$defs"].contains("place"));
  const nlohmann::json value = {{"from", {{"city", "Oslo"}}}, {"to", {{"city", "Rome"}}}};
  const auto sent = lower_value(value, wire.lowering);
  EXPECT_TRUE(sent["from"]["zip"].is_null());
  EXPECT_TRUE(sent["to"]["zip"].is_null());
  EXPECT_EQ(unlower(sent, wire.lowering), value);
}

TEST(BoundedWire, GeminiGetsNoDescriptionBesideAReference) {
  const auto imported = import_json_schema(ojson::parse(R"({
    "type": "object",
    "properties": {
      "from": {"$ref": "#/$defs/place", "description": "where it starts"},
      "to": {"$ref": "#/$defs/place", "description": "where it ends"}},
    "required": ["from", "to"],
    "$defs": {"place": {"type": "string", "description": "a city"}}
  })"));
  const auto gemini = lowered("gemini", imported);
  EXPECT_EQ(gemini.schema["properties"]["from"], (ojson{{"$ref", "#/$defs/place"}}));
  const auto& entries = gemini.report.entries();
  EXPECT_TRUE(std::any_of(entries.begin(), entries.end(), [](const ReportEntry& e) {
    return e.path == Path{"from"} && e.keyword == "description" && e.fate == Fate::dropped;
  }));
  const auto openai = lowered("openai-chat", imported);
  EXPECT_EQ(openai.schema["properties"]["to"]["description"], "where it ends");
}

TEST(BoundedWire, ARecursiveDefinitionIsStillUnrolledWhereRecursionIsNotTaken) {
  const auto imported = import_json_schema(ojson::parse(R"({
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/node"}},
    "required": ["root"],
    "$defs": {"node": {"type": "object", "properties": {
      "name": {"type": "string"},
      "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}, "required": ["name"]}}
  })"));
  const auto anthropic = lowered("anthropic", imported);
  EXPECT_FALSE(anthropic.schema.contains("$defs"));
  EXPECT_EQ(anthropic.schema["properties"]["root"]["type"], "object");
  const auto openai = lowered("openai-chat", imported);
  EXPECT_TRUE(openai.schema.contains("$defs"));
}

// Shapes the providers' SDK transforms refuse or rewrite, lowered into ones they take: an anyOf
// beside keywords of its own (openai's strict transform throws "Object anyOf schema ... cannot be
// represented"), and a nullable object written as a type list (Anthropic's transform moves its
// properties into the description). tests/corpus/lowering-scale.json holds the same cases
// against the SDKs themselves (sdk_transforms_keep_corpus_wires).
WireSchema lowered(const std::string& provider, const ojson& document) {
  return lowered(provider, import_json_schema(document));
}

const ojson kContact = ojson::parse(R"({
  "type": "object",
  "properties": {"contact": {
    "type": "object",
    "description": "how to reach them",
    "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
    "anyOf": [{"required": ["email"]}, {"required": ["phone"]}]}},
  "required": ["contact"]
})");

TEST(LoweringShapes, AnAnyOfBesideKeywordsIsMergedIntoEachOption) {
  for (const char* provider : {"openai-chat", "anthropic"}) {
    SCOPED_TRACE(provider);
    const auto contact = lowered(provider, kContact).schema["properties"]["contact"];
    EXPECT_FALSE(contact.contains("type")) << contact.dump();
    EXPECT_EQ(contact["description"], "how to reach them");
    ASSERT_EQ(contact["anyOf"].size(), 2U) << contact.dump();
    for (const auto& option : contact["anyOf"]) {
      EXPECT_EQ(option["type"], "object");
      EXPECT_TRUE(option["properties"].contains("email")) << option.dump();
      EXPECT_TRUE(option["properties"].contains("phone")) << option.dump();
    }
  }
}

TEST(LoweringShapes, AValueWithEveryKeyOfAnAnyOfObjectFitsTheWire) {
  const auto wire = lowered("anthropic", kContact);
  const auto accepts = Validator::from_json_schema(wire.schema);
  const nlohmann::json both = {{"contact", {{"email", "a@b.c"}, {"phone", "+1"}}}};
  EXPECT_TRUE(accepts.validate(lower_value(both, wire.lowering)).empty());
  const nlohmann::json neither = {{"contact", nlohmann::json::object()}};
  EXPECT_FALSE(accepts.validate(lower_value(neither, wire.lowering)).empty());
}

TEST(LoweringShapes, ANullableObjectTypeListIsSentAsANullableWrapper) {
  const auto wire = lowered("anthropic", ojson::parse(R"({
    "type": "object",
    "properties": {"filter": {"type": ["object", "null"], "description": "what to match",
                              "properties": {"query": {"type": "string"}}, "required": ["query"]}},
    "required": ["filter"]
  })"));
  const auto filter = wire.schema["properties"]["filter"];
  ASSERT_TRUE(filter.contains("anyOf")) << filter.dump();
  EXPECT_FALSE(filter.contains("type")) << filter.dump();
  EXPECT_EQ(filter["anyOf"][0]["type"], "object");
  EXPECT_EQ(filter["anyOf"][0]["required"], ojson::array({"query"}));
  EXPECT_EQ(filter["anyOf"][1], (ojson{{"type", "null"}}));
  EXPECT_EQ(filter["description"], "what to match");
}

}  // namespace
}  // namespace accord
