// The validation engine on what JSON Schema and hostile input demand beyond Zod parity: exact
// numbers at any size, recursive and remote references, formats as annotations, and bounded
// work on deep schemas, deep values, reference fan-out and floods of issues.

#include <gtest/gtest.h>

#include <string>

#include "accord/validate.hpp"

namespace accord {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

Validator plain(const char* schema, const ValidatorOptions& options = {}) {
  return Validator::from_json_schema(ordered_json::parse(schema), options);
}

bool valid(const Validator& validator, const char* value) {
  return validator.validate(json::parse(value)).empty();
}

TEST(EnginePatterns, LookaheadPatternIsCheckedNotRefused) {
  const auto v = plain(R"({"type": "string", "pattern": "^(?=.*[A-Z])(?=.*\\d).{8,}$"})");
  EXPECT_TRUE(valid(v, R"("abcdefG1")"));
  EXPECT_FALSE(valid(v, R"("abcdefg1")"));
}

TEST(EngineNumbers, MinimumOf1e19RejectsFive) {
  const auto v = plain(R"({"minimum": 1e19})");
  EXPECT_FALSE(valid(v, "5"));
  EXPECT_TRUE(valid(v, "10000000000000000000"));
  EXPECT_FALSE(valid(v, "9999999999999999999"));
}

TEST(EngineNumbers, MaximumOfUint64MaxAcceptsFive) {
  const auto v = plain(R"({"maximum": 18446744073709551615})");
  EXPECT_TRUE(valid(v, "5"));
  EXPECT_TRUE(valid(v, "-5"));
  EXPECT_TRUE(valid(v, "18446744073709551615"));
  EXPECT_FALSE(valid(v, "18446744073709551616"));  // past 2^64: read as a double, still exact
  EXPECT_FALSE(valid(v, "1.8446744073709552e19"));
}

TEST(EngineNumbers, IntegersPast2To63CompareExactlyWithNegativeBounds) {
  const auto v =
      plain(R"({"exclusiveMinimum": -9223372036854775808, "maximum": 9223372036854775808})");
  EXPECT_TRUE(valid(v, "9223372036854775808"));
  EXPECT_FALSE(valid(v, "9223372036854775809"));
  EXPECT_FALSE(valid(v, "-9223372036854775808"));
  EXPECT_TRUE(valid(v, "-9223372036854775807"));
}

TEST(EngineNumbers, LargeEnumAndConstValuesAreExact) {
  const auto e = plain(R"({"enum": [18446744073709551615, 9223372036854775807]})");
  EXPECT_TRUE(valid(e, "18446744073709551615"));
  EXPECT_FALSE(valid(e, "18446744073709551614"));
  EXPECT_TRUE(valid(e, "9223372036854775807"));
  EXPECT_FALSE(valid(e, "9223372036854775806"));
  const auto c = plain(R"({"const": 1})");
  EXPECT_TRUE(valid(c, "1.0"));
}

TEST(EngineNumbers, UniqueItemsTreatsOneAndOnePointZeroAsEqual) {
  const auto v = plain(R"({"uniqueItems": true})");
  EXPECT_FALSE(valid(v, "[1, 1.0]"));
  EXPECT_FALSE(valid(v, R"([{"a": [1]}, {"a": [1.0]}])"));
  EXPECT_TRUE(valid(v, "[18446744073709551615, 18446744073709551614]"));
  std::string many = "[";
  for (int i = 0; i < 1000; ++i) many += std::to_string(i) + ",";
  EXPECT_TRUE(valid(v, (many + "1000.5]").c_str()));
  EXPECT_FALSE(valid(v, (many + "999.0]").c_str()));
}

TEST(EngineNumbers, MultipleOfIsDecidedOnDecimalDigitsAndExactIntegers) {
  EXPECT_TRUE(valid(plain(R"({"multipleOf": 0.01})"), "4.35"));
  EXPECT_FALSE(valid(plain(R"({"multipleOf": 0.01})"), "4.355"));
  EXPECT_TRUE(valid(plain(R"({"multipleOf": 3})"), "18446744073709551615"));
  EXPECT_FALSE(valid(plain(R"({"multipleOf": 2})"), "18446744073709551615"));
  EXPECT_TRUE(valid(plain(R"({"multipleOf": 2})"), "-9223372036854775808"));
}

TEST(EngineRefs, RecursiveSchemasValidateWithoutExpansion) {
  const auto tree = plain(R"({
    "$defs": {"node": {"type": "object", "properties": {
      "value": {"type": "integer"},
      "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
    "$ref": "#/$defs/node"})");
  EXPECT_TRUE(valid(tree, R"({"value": 1, "children": [{"value": 2, "children": []}]})"));
  const auto issues = tree.validate(json::parse(R"({"value": 1, "children": [{"value": "x"}]})"));
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].path, (Path{"children", std::size_t{0}, "value"}));
  EXPECT_EQ(issues[0].message, "Invalid input: expected number, received string");
}

TEST(EngineRefs, FanOutIsSharedNotExpanded) {
  // 16 levels, each referring twice to the next: 65,536 paths if expanded.
  ordered_json defs = ordered_json::object();
  for (int i = 0; i < 16; ++i) {
    const std::string next = "#/$defs/d" + std::to_string(i + 1);
    defs["d" + std::to_string(i)] = {{"allOf", {{{"$ref", next}}, {{"$ref", next}}}}};
  }
  defs["d16"] = {{"type", "integer"}};
  const auto v = Validator::from_json_schema({{"$defs", defs}, {"$ref", "#/$defs/d0"}});
  // Compiling is linear; validating a scalar walks the shared nodes (2^16 visits, milliseconds).
  EXPECT_TRUE(valid(v, "1"));
  EXPECT_FALSE(valid(v, "\"x\""));
}

TEST(EngineRefs, RemoteDocumentsComeFromTheRegistry) {
  ValidatorOptions options;
  options.registry.documents["https://example.com/money.json"] =
      ordered_json::parse(R"({"$defs": {"cents": {"type": "integer", "minimum": 0}}})");
  const auto v = plain(R"({"$id": "https://example.com/order.json",
                           "properties": {"total": {"$ref": "money.json#/$defs/cents"}}})",
                       options);
  EXPECT_TRUE(valid(v, R"({"total": 5})"));
  EXPECT_FALSE(valid(v, R"({"total": -5})"));
  EXPECT_THROW((void)plain(R"({"$ref": "https://example.com/elsewhere.json"})"), SchemaError);
}

TEST(EngineFormats, AnnotationModeDoesNotCheckFormats) {
  const char* schema = R"({"type": "string", "format": "date"})";
  EXPECT_FALSE(valid(plain(schema), R"("2023-02-29")"));
  ValidatorOptions annotation;
  annotation.formats = FormatMode::annotation;
  EXPECT_TRUE(valid(plain(schema, annotation), R"("2023-02-29")"));
}

TEST(EngineFormats, UnknownFormatsPass) {
  EXPECT_TRUE(valid(plain(R"({"format": "x-unheard-of"})"), R"("anything")"));
}

TEST(EngineBounds, SchemaNested10000DeepIsASchemaError) {
  for (const char* keyword : {"not", "properties"}) {
    ordered_json schema = {{"type", "string"}};
    for (int i = 0; i < 10000; ++i) {
      schema = std::string(keyword) == "not"
                   ? ordered_json{{"not", std::move(schema)}}
                   : ordered_json{{"properties", {{"a", std::move(schema)}}}};
    }
    try {
      (void)Validator::from_json_schema(schema);
      ADD_FAILURE() << keyword << ": no SchemaError";
    } catch (const SchemaError& e) {
      EXPECT_NE(std::string(e.what()).find("nests deeper than 256 levels"), std::string::npos)
          << e.what();
    }
  }
}

TEST(EngineBounds, ValueNested10000DeepIsOneIssue) {
  const auto v = plain(R"({"items": {"$ref": "#"}})");
  json deep = json::array();
  for (int i = 0; i < 10000; ++i) deep = json::array({std::move(deep)});
  const auto issues = v.validate(deep);
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].code, IssueCode::invalid_json);
}

TEST(EngineBounds, SelfReferenceWithoutProgressEndsWithAnIssue) {
  const auto v = plain(
      R"({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})");
  EXPECT_FALSE(v.validate(json(1)).empty());
}

TEST(EngineBounds, IssuesForOneValueAreCappedWithACount) {
  const auto v = plain(R"({"type": "array", "items": {"type": "string"}})");
  json items = json::array();
  for (int i = 0; i < 500000; ++i) items.push_back(i);
  const auto issues = v.validate(items);
  ASSERT_EQ(issues.size(), 101U);
  EXPECT_EQ(issues[0].path, (Path{std::size_t{0}}));
  EXPECT_EQ(issues.back().message, "and 499900 more issues");
}

}  // namespace
}  // namespace accord
