// A union of an option and null (`union_({X, null_()})`, compiled as a nullable wrapper) judged as
// Zod judges `z.union([X, z.null()])`, beside `X.nullable()`: the union's own refinements run on
// null too, a value no option fits is one invalid_union at the union, and the options'
// refinements hold at any depth below it. The oracle is Zod 4.6.7 running
// tests/unit/validate/union_with_null.mjs: each test names its case there and holds the verdict,
// the issues and the prettified text Zod printed.

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "accord/schema.hpp"
#include "accord/typed_schema.hpp"
#include "accord/typed_types.hpp"
#include "accord/validate.hpp"

namespace union_with_null_fixtures {

// The .mjs's Knot: a label and children that are null or knots.
struct Knot {
  std::string label;
  std::vector<std::variant<std::monostate, Knot>> children;
};
BOOST_DESCRIBE_STRUCT(Knot, (), (label, children))

}  // namespace union_with_null_fixtures

namespace accord {
namespace {

using nlohmann::json;
using union_with_null_fixtures::Knot;

constexpr const char* kNotNull = "not null";

// The .mjs's X: {a: string, at least 3 characters}.
Schema short_object() {
  return object({{"a", string().min(3)}});
}

// The .mjs's `notNull`, counting its calls.
Schema refined_not_null(const Schema& schema, const std::shared_ptr<std::size_t>& calls) {
  return schema.refine(
      [calls](const json& v) {
        ++*calls;
        return !v.is_null();
      },
      kNotNull);
}

// The .mjs's `field`: the schema as the field `u`.
Issues issues_of_field(const Schema& schema, const std::string& text) {
  return Validator(object({{"u", schema}})).parse_and_validate(text).issues;
}

void expect_one_issue_at_u(const Issues& issues, IssueCode code, const std::string& message) {
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].code, code);
  EXPECT_EQ(issues[0].path, Path{"u"});
  EXPECT_EQ(issues[0].message, message);
}

// Zod's prettified invalid_union, as the correction sent back to the model words it.
constexpr const char* kInvalidUnionAtU = "\xE2\x9C\x96 Invalid input\n  \xE2\x86\x92 at u";

// Cases `unionRefineNull` and `unionNullFirstRefineNull`.
TEST(UnionWithNull, TheUnionsOwnRefinementRunsOnNull) {
  for (const bool null_first : {false, true}) {
    const auto calls = std::make_shared<std::size_t>(0);
    const Schema either =
        null_first ? union_({null_(), short_object()}) : union_({short_object(), null_()});
    expect_one_issue_at_u(issues_of_field(refined_not_null(either, calls), R"({"u":null})"),
                          IssueCode::custom, kNotNull);
    EXPECT_EQ(*calls, 1U);
  }
}

// Cases `refineNullable` and `unionRefineNullable`: `.nullable()` lets null through before any
// refinement of the node it is on, as Zod's `.refine(p).nullable()` does (calls chain in any
// order in the DSL, so the node's refinements sit inside its `.nullable()`).
TEST(UnionWithNull, ANullableNodesRefinementsDoNotSeeNull) {
  const auto calls = std::make_shared<std::size_t>(0);
  EXPECT_TRUE(
      issues_of_field(refined_not_null(short_object(), calls).nullable(), R"({"u":null})").empty());
  EXPECT_TRUE(issues_of_field(refined_not_null(union_({short_object(), null_()}), calls).nullable(),
                              R"({"u":null})")
                  .empty());
  EXPECT_EQ(*calls, 0U);
}

// Cases `unionNumber`, `unionNullFirstWrongField`, `unionMissing` and `nullableUnionWrongField`.
TEST(UnionWithNull, AValueNoOptionFitsIsOneInvalidUnionAtTheUnion) {
  const Schema null_last = union_({short_object(), null_()});
  const Schema null_first = union_({null_(), short_object()});
  for (const auto& [schema, text] :
       std::vector<std::pair<Schema, std::string>>{{null_last, R"({"u":5})"},
                                                   {null_first, R"({"u":{"a":5}})"},
                                                   {null_last, R"({})"},
                                                   {null_last.nullable(), R"({"u":{"a":5}})"}}) {
    const Issues issues = issues_of_field(schema, text);
    expect_one_issue_at_u(issues, IssueCode::invalid_union, "Invalid input");
    EXPECT_EQ(prettify(issues), kInvalidUnionAtU) << text;
  }
}

// Case `nullableWrongField`: a .nullable() reports its node's own issues.
TEST(UnionWithNull, ANullableNodeThatDoesNotFitReportsItsOwnIssues) {
  const Issues issues = issues_of_field(short_object().nullable(), R"({"u":{"a":5}})");
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].code, IssueCode::invalid_type);
  EXPECT_EQ(issues[0].path, (Path{"u", "a"}));
  EXPECT_EQ(issues[0].message, "Invalid input: expected string, received number");
}

// Case `unionTooShort`: an option whose issues do not abort (a too_small) is reported as it is,
// as for any union.
TEST(UnionWithNull, AnOptionFailingOnlyItsChecksIsReportedAsItIs) {
  const Issues issues = issues_of_field(union_({short_object(), null_()}), R"({"u":{"a":"x"}})");
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].code, IssueCode::too_small);
  EXPECT_EQ(issues[0].path, (Path{"u", "a"}));
  EXPECT_EQ(issues[0].message, "Too small: expected string to have >=3 characters");
}

// Case `unionRefineNumber`: the union's refinement does not run after its invalid_union.
TEST(UnionWithNull, TheUnionsRefinementDoesNotRunWhenNoOptionFits) {
  const auto calls = std::make_shared<std::size_t>(0);
  expect_one_issue_at_u(
      issues_of_field(refined_not_null(union_({short_object(), null_()}), calls), R"({"u":5})"),
      IssueCode::invalid_union, "Invalid input");
  EXPECT_EQ(*calls, 0U);
}

// Case `partBelow`: the whole reports an aborting issue below a union with null as the union's
// invalid_union, so a part there cannot be judged alone (the oracle: Validator::validate).
TEST(UnionWithNull, APartWhoseIssueTheUnionRewordsIsNotJudgedAlone) {
  const Validator validator(object({{"u", union_({object({{"v", short_object()}}), null_()})}}));
  const json whole = json::parse(R"({"u":{"v":{"a":5}}})");
  expect_one_issue_at_u(validator.validate(whole), IssueCode::invalid_union, "Invalid input");
  EXPECT_FALSE(validator.validate_part(Path{"u", "v"}, whole["u"]["v"]).has_value());
  const auto fitting = validator.validate_part(Path{"u", "v"}, json::parse(R"({"a":"abc"})"));
  ASSERT_TRUE(fitting.has_value());
  EXPECT_TRUE(fitting->empty());
}

// Cases `nestedBadLeaf` and `nestedBadLevel`: a union inside a union with null, 4 levels deep.
TEST(UnionWithNull, TheOptionsOfAUnionInsideAUnionWithNullRefineAtDepth) {
  const auto calls = std::make_shared<std::size_t>(0);
  const auto counted = [calls](const Schema& schema, const char* message) {
    return schema.refine(
        [calls](const json& v) {
          ++*calls;
          return v.value("bad", false) != true;
        },
        message);
  };
  const Schema leaf =
      counted(object({{"leaf", string()}, {"bad", boolean().optional()}}), "bad leaf");
  const Validator validator(
      counted(object({{"bad", boolean().optional()},
                      {"next", union_({union_({ref("Nested"), leaf}), null_()})}}),
              "bad level")
          .named("Nested"));
  const Path fourth = Path{} / "next" / "next" / "next" / "next";
  const Issues bad_leaf =
      validator.parse_and_validate(R"({"next":{"next":{"next":{"next":{"leaf":"x","bad":true}}}}})")
          .issues;
  ASSERT_EQ(bad_leaf.size(), 1U) << prettify(bad_leaf);
  EXPECT_EQ(bad_leaf[0].path, fourth);
  EXPECT_EQ(bad_leaf[0].message, "bad leaf");
  EXPECT_EQ(*calls, 5U);
  *calls = 0;
  const Issues bad_level =
      validator.parse_and_validate(R"({"next":{"next":{"bad":true,"next":{"next":{"leaf":"x"}}}}})")
          .issues;
  ASSERT_EQ(bad_level.size(), 1U) << prettify(bad_level);
  EXPECT_EQ(bad_level[0].path, (Path{"next", "next"}));
  EXPECT_EQ(bad_level[0].message, "bad level");
  EXPECT_EQ(*calls, 5U);
}

// Case `knotBad`: typed<Knot>()'s rule holds on a knot reached through
// std::variant<std::monostate, Knot>, at depth.
TEST(UnionWithNull, ATypedRuleRunsOnTheAlternativeBesideMonostate) {
  const auto calls = std::make_shared<std::size_t>(0);
  const Validator validator(typed<Knot>().refine(
      [calls](const Knot& knot) {
        ++*calls;
        return knot.label != "bad";
      },
      "no knot is labelled bad"));
  const Issues issues =
      validator
          .parse_and_validate(
              R"({"label":"a","children":[null,{"label":"b","children":[{"label":"bad","children":[]}]}]})")
          .issues;
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].code, IssueCode::custom);
  EXPECT_EQ(issues[0].path, (Path{"children", std::size_t{1}, "children", std::size_t{0}}));
  EXPECT_EQ(issues[0].message, "no knot is labelled bad");
  EXPECT_EQ(*calls, 3U);
}

}  // namespace
}  // namespace accord
