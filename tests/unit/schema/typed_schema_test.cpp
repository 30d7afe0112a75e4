// schema_of<T>(): the JSON Schema each supported C++ type gives, through the DSL's own emitter.
#include "accord/typed_schema.hpp"

#include <gtest/gtest.h>

#include "accord/json_schema.hpp"
#include "accord/validate.hpp"
#include "fixtures/typed_fixtures.hpp"

namespace accord {
namespace {

using nlohmann::ordered_json;
using namespace typed_fixtures;

const ordered_json& emitted_everything() {
  static const ordered_json json = emit(schema_of<Everything>()).json;
  return json;
}

// The emitted schema of one member of Everything.
const ordered_json& member(const std::string& name) {
  return emitted_everything()["properties"][name];
}

bool required(const std::string& name) {
  const auto& list = emitted_everything()["required"];
  return std::find(list.begin(), list.end(), name) != list.end();
}

TEST(TypedSchema, ScalarsBecomeTheirJsonTypes) {
  EXPECT_EQ(member("flag"), ordered_json({{"type", "boolean"}}));
  EXPECT_EQ(member("count"), ordered_json({{"type", "integer"}}));
  EXPECT_EQ(member("small"), ordered_json({{"type", "integer"}}));
  EXPECT_EQ(member("ratio"), ordered_json({{"type", "number"}}));
  EXPECT_EQ(member("weight"), ordered_json({{"type", "number"}}));
  EXPECT_EQ(member("name"), ordered_json({{"type", "string"}}));
}

TEST(TypedSchema, MembersAreFieldsInDeclarationOrderAndTheObjectIsClosed) {
  std::vector<std::string> names;
  for (const auto& [name, _] : emitted_everything()["properties"].items()) names.push_back(name);
  EXPECT_EQ(names.front(), "flag");
  EXPECT_EQ(names.back(), "gaps");
  EXPECT_EQ(emitted_everything()["additionalProperties"], false);
}

TEST(TypedSchema, OptionalMemberIsAnOptionalField) {
  EXPECT_EQ(member("nickname"), ordered_json({{"type", "string"}}));
  EXPECT_FALSE(required("nickname"));
  EXPECT_TRUE(required("name"));
}

TEST(TypedSchema, OptionalOutsideAStructIsNullable) {
  EXPECT_EQ(member("gaps")["items"],
            ordered_json({{"anyOf", {{{"type", "integer"}}, {{"type", "null"}}}}}));
}

TEST(TypedSchema, VectorIsAnArrayOfItsItems) {
  EXPECT_EQ(member("tags"), ordered_json({{"type", "array"}, {"items", {{"type", "string"}}}}));
}

TEST(TypedSchema, StdArrayIsAnArrayOfExactlyItsSize) {
  EXPECT_EQ(
      member("point"),
      ordered_json(
          {{"type", "array"}, {"items", {{"type", "integer"}}}, {"minItems", 2}, {"maxItems", 2}}));
}

TEST(TypedSchema, StringMapIsARecordWhoseValuesHaveTheMappedSchema) {
  EXPECT_EQ(member("scores"), ordered_json({{"type", "object"},
                                            {"properties", ordered_json::object()},
                                            {"additionalProperties", {{"type", "number"}}}}));
}

TEST(TypedSchema, VariantIsAUnionAndMonostateIsNull) {
  EXPECT_EQ(
      member("label"),
      ordered_json({{"anyOf", {{{"type", "null"}}, {{"type", "string"}}, {{"type", "number"}}}}}));
}

TEST(TypedSchema, VariantOfStructsSharingATagIsDiscriminatedOnIt) {
  const auto& payment = member("payment");
  ASSERT_TRUE(payment.contains("oneOf"));
  EXPECT_EQ(payment["oneOf"][0]["properties"]["kind"],
            ordered_json({{"type", "string"}, {"const", "card"}}));
  EXPECT_EQ(payment["oneOf"][1]["properties"]["kind"],
            ordered_json({{"type", "string"}, {"const", "bank"}}));
  EXPECT_EQ(schema_of<Everything>().node().fields[11].schema.node().discriminator, "kind");
}

TEST(TypedSchema, EnumIsItsEnumeratorNames) {
  EXPECT_EQ(member("currency"), ordered_json({{"type", "string"}, {"enum", {"EUR", "USD"}}}));
}

TEST(TypedSchema, NestedStructIsANestedClosedObject) {
  EXPECT_EQ(member("address"),
            ordered_json({{"type", "object"},
                          {"properties",
                           {{"city", {{"type", "string"}}}, {"country", {{"type", "string"}}}}},
                          {"required", {"city", "country"}},
                          {"additionalProperties", false}}));
}

TEST(TypedSchema, RecordValuesAreValidatedWithThePath) {
  const Validator validator(record(number().positive()));
  const auto issues = validator.validate({{"a", 1}, {"b", -2}});
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].path, (Path{"b"}));
}

TEST(TypedSchema, RecordIsReportedUnderItsValuesPosition) {
  const auto report = emit(record(number().positive())).report;
  ASSERT_EQ(report.entries().size(), 2U);
  EXPECT_EQ(report.entries()[0].rule, "record");
  EXPECT_EQ(report.entries()[0].keyword, "additionalProperties");
  EXPECT_EQ(report.entries()[1].path.to_string(), "{}");
}

}  // namespace
}  // namespace accord
