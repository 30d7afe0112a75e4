// import_json_schema with a SchemaRegistry: a `$ref` to another document is inlined from the
// registry (or the bundled meta-schemas), its own local references resolved in that document,
// and recursion through it kept as a reference into the root's `$defs`.
#include <gtest/gtest.h>

#include "accord/json_schema_file.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

TEST(ImportRegistry, ARefToAnotherDocumentIsInlinedFromTheRegistry) {
  SchemaRegistry registry;
  registry.documents["https://example.com/money.json"] = ojson::parse(R"({
    "$defs": {"currency": {"enum": ["EUR", "USD"]}},
    "type": "object",
    "properties": {"amount": {"type": "number"}, "currency": {"$ref": "#/$defs/currency"}}})");
  const auto document = ojson::parse(R"({
    "type": "object",
    "properties": {"price": {"$ref": "https://example.com/money.json"}}})");
  const auto imported = import_json_schema(document, registry);
  EXPECT_EQ(imported.json["properties"]["price"]["properties"]["currency"],
            ojson::parse(R"({"enum": ["EUR", "USD"]})"));
  EXPECT_THROW((void)import_json_schema(document), SchemaError);
}

TEST(ImportRegistry, ADocumentWhoseIdDiffersFromItsUriIsFoundByItsUri) {
  SchemaRegistry registry;
  registry.documents["https://example.com/money.json"] = ojson::parse(R"({
    "$id": "urn:example:money",
    "type": "object",
    "properties": {"amount": {"type": "number"}}})");
  const auto imported = import_json_schema(ojson::parse(R"({"type": "object",
                       "properties": {"price": {"$ref": "https://example.com/money.json"}}})"),
                                           registry);
  EXPECT_EQ(imported.json["properties"]["price"]["properties"]["amount"],
            ojson::parse(R"({"type": "number"})"));
}

TEST(ImportRegistry, RecursionThroughAnotherDocumentStaysAReference) {
  SchemaRegistry registry;
  registry.documents["https://example.com/node.json"] = ojson::parse(R"({
    "type": "object",
    "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}})");
  const auto imported =
      import_json_schema(ojson::parse(R"({"$ref": "https://example.com/node.json"})"), registry);
  EXPECT_EQ(imported.json["properties"]["children"]["items"],
            ojson::parse(R"({"$ref": "#/$defs/root"})"));
  EXPECT_EQ(imported.json["$defs"]["root"]["properties"]["children"]["items"],
            ojson::parse(R"({"$ref": "#/$defs/root"})"));
}

TEST(ImportRegistry, AReferenceByAnchorIsInlined) {
  const auto document = ojson::parse(R"({
    "$defs": {"a": {"$anchor": "here", "type": "string"}},
    "properties": {"p": {"$ref": "#here"}}})");
  const auto imported = import_json_schema(document);
  EXPECT_EQ(imported.json["properties"]["p"]["type"], "string") << imported.json.dump();
}

}  // namespace
}  // namespace accord
