// A union of an option and null (`union_({X, null_()})`, compiled as a nullable wrapper) judged as
// Zod judges `z.union([X, z.null()])`, beside `X.nullable()`: the union's own refinements run on
// null too, a value no option fits is one invalid_union at the union, and a failing part below
// it is not judged alone. The oracle is Zod 4.6.7 running
// tests/unit/validate/union_with_null.mjs: each test names its case there and holds the verdict,
// the issues and the prettified text Zod printed.

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "accord/schema.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using nlohmann::json;

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

// Cases `siblingFits`, `siblingWrong` and `siblingMissing`: whether the whole reports v's
// too_small or the union's invalid_union depends on w, so a failing v below a union with null is
// not judged alone (the oracle: Validator::validate of the whole); a fitting one is.
TEST(UnionWithNull, AFailingPartBelowAUnionWithNullIsNotJudgedAlone) {
  const Validator validator(
      object({{"u", union_({object({{"v", string().min(3)}, {"w", number()}}), null_()})}}));
  const Issues sibling_fits = validator.validate(json::parse(R"({"u":{"v":"x","w":1}})"));
  ASSERT_EQ(sibling_fits.size(), 1U) << prettify(sibling_fits);
  EXPECT_EQ(sibling_fits[0].code, IssueCode::too_small);
  EXPECT_EQ(sibling_fits[0].path, (Path{"u", "v"}));
  for (const char* text : {R"({"u":{"v":"x","w":"s"}})", R"({"u":{"v":"x"}})"}) {
    expect_one_issue_at_u(validator.validate(json::parse(text)), IssueCode::invalid_union,
                          "Invalid input");
  }
  EXPECT_FALSE(validator.validate_part(Path{"u", "v"}, json("x")).has_value());
  const auto fitting = validator.validate_part(Path{"u", "v"}, json("abc"));
  ASSERT_TRUE(fitting.has_value());
  EXPECT_TRUE(fitting->empty());
}

}  // namespace
}  // namespace accord
