// The five JSON Schema dialects the engine reads: chosen by `$schema`, else by
// ValidatorOptions::dialect; what changes meaning between them (identifiers, exclusive bounds,
// keywords beside `$ref`, keywords that came later); the bundled meta-schemas; and an unknown
// `$schema` refused by name.

#include <gtest/gtest.h>

#include <string>

#include "accord/validate.hpp"

namespace accord {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

bool accepts(const char* schema, const json& value, ValidatorOptions options = {}) {
  return Validator::from_json_schema(ojson::parse(schema), options).validate(value).empty();
}

ValidatorOptions in(Dialect dialect) {
  ValidatorOptions options;
  options.dialect = dialect;
  return options;
}

std::string refusal(const char* schema, ValidatorOptions options = {}) {
  try {
    (void)Validator::from_json_schema(ojson::parse(schema), options);
  } catch (const SchemaError& e) {
    return e.what();
  }
  return "";
}

TEST(Dialects, Draft4BooleanExclusiveMinimumMakesMinimumExclusive) {
  const char* schema = R"({"$schema": "http://json-schema.org/draft-04/schema#",
                           "minimum": 5, "exclusiveMinimum": true})";
  EXPECT_FALSE(accepts(schema, 5));
  EXPECT_TRUE(accepts(schema, 6));
  EXPECT_TRUE(accepts(R"({"minimum": 5, "exclusiveMinimum": false})", 5, in(Dialect::draft04)));
}

TEST(Dialects, Draft4BooleanExclusiveMaximumMakesMaximumExclusive) {
  const char* schema = R"({"maximum": 5, "exclusiveMaximum": true})";
  EXPECT_FALSE(accepts(schema, 5, in(Dialect::draft04)));
  EXPECT_TRUE(accepts(schema, 4, in(Dialect::draft04)));
}

TEST(Dialects, ABooleanExclusiveBoundAfterDraft4IsASchemaError) {
  EXPECT_NE(refusal(R"({"minimum": 5, "exclusiveMinimum": true})", in(Dialect::draft06))
                .find("exclusiveMinimum must be a number"),
            std::string::npos);
}

TEST(Dialects, Draft4IdSetsTheBaseUriOfItsReferences) {
  const char* schema = R"({
    "id": "http://example.com/root.json",
    "definitions": {"a": {"id": "item.json", "type": "integer"}},
    "properties": {"p": {"$ref": "item.json"}}})";
  EXPECT_TRUE(accepts(schema, {{"p", 1}}, in(Dialect::draft04)));
  EXPECT_FALSE(accepts(schema, {{"p", "one"}}, in(Dialect::draft04)));
  // Draft-06 on reads `$id`: `id` is no identifier there, so the reference points nowhere.
  EXPECT_NE(refusal(schema, in(Dialect::draft06)).find("item.json"), std::string::npos);
}

TEST(Dialects, KeywordsThatCameLaterAreNotReadByAnEarlierDraft) {
  EXPECT_TRUE(accepts(R"({"const": 1})", 2, in(Dialect::draft04)));
  EXPECT_FALSE(accepts(R"({"const": 1})", 2, in(Dialect::draft06)));
  EXPECT_TRUE(accepts(R"({"if": true, "then": false})", 2, in(Dialect::draft06)));
  EXPECT_FALSE(accepts(R"({"if": true, "then": false})", 2, in(Dialect::draft07)));
}

TEST(Dialects, TheDollarSchemaWinsOverTheDialectOption) {
  const char* schema = R"({"$schema": "http://json-schema.org/draft-04/schema#", "const": 1})";
  EXPECT_TRUE(accepts(schema, 2, in(Dialect::draft2020_12)));
}

TEST(Dialects, KeywordsBesideRefAreIgnoredBeforeDraft2019AndListed) {
  const char* schema = R"({"definitions": {"s": {"type": "string"}},
                           "properties": {"p": {"$ref": "#/definitions/s", "maxLength": 2}}})";
  const auto validator = Validator::from_json_schema(ojson::parse(schema), in(Dialect::draft07));
  EXPECT_TRUE(validator.validate({{"p", "long"}}).empty());
  ASSERT_EQ(validator.keywords_beside_ref().size(), 1U);
  EXPECT_EQ(validator.keywords_beside_ref()[0].to_pointer(), "/properties/p/maxLength");
  EXPECT_FALSE(accepts(schema, {{"p", "long"}}, in(Dialect::draft2019_09)));
}

TEST(Dialects, KeywordsBesideRefAreAppliedWhenAsked) {
  const char* schema = R"({"definitions": {"s": {"type": "string"}},
                           "properties": {"p": {"$ref": "#/definitions/s", "maxLength": 2}}})";
  auto options = in(Dialect::draft07);
  options.apply_ref_siblings = true;
  EXPECT_FALSE(accepts(schema, {{"p", "long"}}, options));
  EXPECT_TRUE(accepts(schema, {{"p", "ok"}}, options));
}

TEST(Dialects, DefinitionsBesideRefAreNotListedAsIgnored) {
  const auto validator = Validator::from_json_schema(
      ojson::parse(R"({"$ref": "#/definitions/s", "definitions": {"s": {"type": "string"}}})"),
      in(Dialect::draft07));
  EXPECT_TRUE(validator.keywords_beside_ref().empty());
}

TEST(Dialects, RecursiveRefFollowsTheOutermostRecursiveAnchor) {
  // The tree allows integer and string leaves; the extension, whose root the tree's
  // `$recursiveRef` lands on at every depth, refuses strings.
  const char* schema = R"({
    "$schema": "https://json-schema.org/draft/2019-09/schema",
    "$id": "https://example.com/strict-tree",
    "$recursiveAnchor": true,
    "$ref": "tree",
    "$defs": {"tree": {
      "$id": "https://example.com/tree", "$recursiveAnchor": true,
      "anyOf": [{"type": ["integer", "string"]},
                {"type": "array", "items": {"$recursiveRef": "#"}}]}},
    "not": {"type": "string"}})";
  EXPECT_TRUE(accepts(schema, json::parse("[1, [2, 3]]")));
  EXPECT_FALSE(accepts(schema, json::parse("[1, [2, \"x\"]]")));
}

TEST(Dialects, TheWellKnownMetaSchemasAreBundled) {
  for (const char* uri :
       {"http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-06/schema#",
        "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2019-09/schema",
        "https://json-schema.org/draft/2020-12/schema"}) {
    const std::string schema = std::string(R"({"$ref": ")") + uri + "\"}";
    EXPECT_TRUE(accepts(schema.c_str(), json::parse(R"({"minLength": 1})"))) << uri;
    EXPECT_FALSE(accepts(schema.c_str(), json::parse(R"({"minLength": -1})"))) << uri;
  }
}

TEST(Dialects, AnUnknownDollarSchemaIsAnErrorNamingIt) {
  const auto message = refusal(R"({"$schema": "http://example.com/my-dialect", "type": "string"})");
  EXPECT_NE(message.find("http://example.com/my-dialect"), std::string::npos) << message;
  EXPECT_NE(refusal(R"({"$schema": "http://json-schema.org/draft-03/schema#"})"), "");
}

TEST(Dialects, ACustomMetaSchemaIsReadInTheDialectItDeclares) {
  ValidatorOptions options;
  options.registry.documents["http://example.com/meta"] =
      ojson::parse(R"({"$schema": "http://json-schema.org/draft-04/schema#"})");
  const char* schema =
      R"({"$schema": "http://example.com/meta", "minimum": 5, "exclusiveMinimum": true})";
  EXPECT_FALSE(accepts(schema, 5, options));
  EXPECT_TRUE(accepts(schema, 6, options));
}

}  // namespace
}  // namespace accord
