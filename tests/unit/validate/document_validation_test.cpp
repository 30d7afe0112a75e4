// The engine reads a parsed document (a tape) through JsonView, and a verdict costs no tree:
// ValidationResult keeps the document, and a refinement that reads a view gets one in place.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "accord/json_schema.hpp"
#include "accord/json_view.hpp"
#include "accord/validate.hpp"
#include "validate/validator_impl.hpp"

namespace accord {
namespace {

using nlohmann::json;

Validator from_text(const char* schema) {
  return Validator::from_json_schema(nlohmann::ordered_json::parse(schema));
}

TEST(ValidationResult, KeepsTheDocumentAndBuildsATreeOnlyWhenAsked) {
  const auto result =
      from_text(R"({"type":"object"})").parse_and_validate(R"({"b":[1,2.5],"a":-3})");
  ASSERT_TRUE(result.parsed());
  EXPECT_TRUE(result.ok());
  const auto view = result.view();
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(view->find("a")->get_integer(), -3);
  EXPECT_EQ(*result.value(), json::parse(R"({"b":[1,2.5],"a":-3})"));
  EXPECT_GT(result.document->bytes(), 0U);
}

TEST(ValidationResult, TextThatDoesNotParseHasNoDocument) {
  const auto result = from_text(R"({"type":"object"})").parse_and_validate("{\"a\":");
  EXPECT_FALSE(result.parsed());
  EXPECT_FALSE(result.view().has_value());
  EXPECT_FALSE(result.value().has_value());
  ASSERT_EQ(result.issues.size(), 1U);
  EXPECT_EQ(result.issues[0].code, IssueCode::invalid_json);
}

// A caller may raise the parser's depth limit; a value deeper than the engine walks is then an
// issue and is not kept, as value() and dump() would recurse through every level of it.
TEST(ValidationResult, AValueDeeperThanTheEngineWalksIsNotKept) {
  const std::string deep = std::string(5000, '[') + std::string(5000, ']');
  const auto result =
      from_text(R"({"type":"array"})").parse_and_validate(deep, ParseLimits{.max_depth = 100000});
  EXPECT_FALSE(result.parsed());
  EXPECT_FALSE(result.value().has_value());
  ASSERT_EQ(result.issues.size(), 1U);
  EXPECT_EQ(result.issues[0].code, IssueCode::invalid_json);
  EXPECT_NE(result.issues[0].message.find("nested deeper than 1000"), std::string::npos);
}

// The same value as text (read to a tape) and as a tree (made a tape by from_json): the same
// issues, word for word and in the same order, for the cases where a tape could differ.
TEST(DocumentValidation, TextAndTreeGiveTheSameIssues) {
  struct Case {
    const char* schema;
    const char* value;
  };
  const std::vector<Case> cases = {
      {R"({"enum":[1.0,"x"]})", "1"},
      {R"({"const":{"a":[1,2]}})", R"({"a":[1.0,2]})"},
      {R"({"uniqueItems":true})", "[1,1.0]"},
      {R"({"uniqueItems":true})", R"([{"a":1,"b":2},{"b":2,"a":1.0}])"},
      {R"({"type":"integer","maximum":18446744073709551615})", "18446744073709551616"},
      {R"({"type":"integer"})", "-0"},
      {R"({"properties":{"a":{"type":"string"}}})", R"({"a":1,"a":"x"})"},  // the last wins
      {R"({"properties":{"z":{"type":"string"},"a":{"type":"string"}},"required":["q","b"]})",
       R"({"z":1,"a":2})"},
      {R"({"additionalProperties":false,"properties":{"m":{}}})", R"({"z":1,"m":0,"a":2})"},
      {R"({"properties":{"a":{}},"unevaluatedProperties":false})", R"({"c":1,"a":1,"b":1})"},
      {R"({"prefixItems":[{}],"unevaluatedItems":{"type":"string"}})", R"([0,"x",2])"},
      {R"({"propertyNames":{"maxLength":2}})", R"({"abc":1,"ab":2,"abcd":3})"},
      {R"({"dependentRequired":{"a":["b"]}})", R"({"a":1})"},
      {R"({"oneOf":[{"properties":{"k":{"const":"x"}}},{"properties":{"k":{"const":"y"}}}],
          "discriminator":{"propertyName":"k"}})",
       R"({"k":"z"})"},
      {R"({"minLength":2})", "\"\xc3\xa9\""},
      {R"({"patternProperties":{"^x":{"type":"number"}}})", R"({"xb":"1","xa":"2","y":3})"},
  };
  for (const auto& c : cases) {
    const Validator validator = from_text(c.schema);
    const auto tree = json::parse(c.value);
    EXPECT_EQ(validator.parse_and_validate(c.value).issues, validator.validate(tree))
        << c.schema << " " << c.value;
  }
}

TEST(DocumentValidation, IssuesOfAnObjectComeInKeyOrderWhateverTheTextOrder) {
  const auto issues = from_text(R"({"additionalProperties":{"type":"string"}})")
                          .parse_and_validate(R"({"c":1,"a":2,"b":3})")
                          .issues;
  ASSERT_EQ(issues.size(), 3U);
  EXPECT_EQ(issues[0].path, Path{"a"});
  EXPECT_EQ(issues[1].path, Path{"b"});
  EXPECT_EQ(issues[2].path, Path{"c"});
}

// A DSL node with refinements, checked by the engine directly (as Validator(Schema) does).
struct Refined {
  SchemaNode node;

  explicit Refined(std::vector<Refinement> refinements) {
    node.kind = Kind::object;
    node.closed = false;
    node.refinements = std::move(refinements);
  }
  [[nodiscard]] Issues issues(JsonView value) const {
    return detail::Engine(nlohmann::ordered_json::parse(R"({"type":"object"})"), &node, {})
        .issues(value);
  }
};

TEST(ViewRefinement, ReadsTheValueInPlace) {
  const auto parsed = parse_document(R"({"from":3,"to":2})");
  std::optional<std::uint32_t> seen;
  Refinement later;
  later.message = "to is before from";
  later.view_predicate = [&](JsonView value) {
    seen = value.index();
    return value.find("to")->get_unsigned() >= value.find("from")->get_unsigned();
  };
  const Refined refined({later});
  const Issues issues = refined.issues(parsed.document->root());
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].message, "to is before from");
  EXPECT_EQ(issues[0].code, IssueCode::custom);
  EXPECT_EQ(seen, parsed.document->root().index());  // the document's own root, no copy
}

TEST(ViewRefinement, ATreePredicateBesideItStillGetsTheTree) {
  const auto parsed = parse_document(R"({"n":1})");
  std::optional<json> tree;
  Refinement by_tree;
  by_tree.predicate = [&](const json& value) {
    tree = value;
    return true;
  };
  Refinement by_view;
  by_view.view_predicate = [](JsonView value) { return value.size() == 1; };
  const Refined refined({by_tree, by_view});
  EXPECT_TRUE(refined.issues(parsed.document->root()).empty());
  EXPECT_EQ(tree, json::parse(R"({"n":1})"));
}

}  // namespace
}  // namespace accord
