// A definition's refinements run at every depth it is reached, also through a union with null
// (compiled as a nullable wrapper) and through `.nullable()` on a ref, and a refined object in
// such a union keeps its refinement; the union's own refinement runs once, at the union. The
// oracle is Zod 4.6.7 running tests/unit/validate/nullable_ref_refinements.mjs: each test names
// its case there and holds the verdict, the issues and the predicates' call counts Zod printed.

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "accord/schema.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using nlohmann::json;

constexpr std::size_t kLevels = 20;
constexpr const char* kBadLevel = "bad level";

// `schema` refined as the .mjs's `counted`: fails where `bad` is true, each call counted.
Schema counted_level(const Schema& schema, const std::shared_ptr<std::size_t>& calls) {
  return schema.refine(
      [calls](const json& v) {
        ++*calls;
        return v.value("bad", false) != true;
      },
      kBadLevel);
}

// The recursive level `{bad?, next}` named "Node", `next` made by `link` from ref("Node").
Schema refined_chain(const std::function<Schema(Schema)>& link,
                     const std::shared_ptr<std::size_t>& calls) {
  return counted_level(object({{"bad", boolean().optional()}, {"next", link(ref("Node"))}}), calls)
      .named("Node");
}

// The .mjs's `chain`: `levels` nested `{next}` ending in null, the level at `bad` (0 the top)
// marked bad.
std::string nested_levels(std::size_t levels, std::size_t bad) {
  std::string text = "null";
  for (std::size_t i = levels; i-- > 0;) {
    text = std::string(i == bad ? R"({"bad":true,"next":)" : R"({"next":)") + text + "}";
  }
  return text;
}

const Path kThirdNext = Path{} / "next" / "next" / "next";

void expect_one_bad_level_at(const Issues& issues, const Path& where) {
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].code, IssueCode::custom);
  EXPECT_EQ(issues[0].path, where);
  EXPECT_EQ(issues[0].message, kBadLevel);
}

Schema null_last(Schema inner) {
  return union_({std::move(inner), null_()});
}
Schema null_first(Schema inner) {
  return union_({null_(), std::move(inner)});
}

// How often the chain's predicate runs on a valid chain `kLevels` deep (Zod: once a level).
std::size_t predicate_calls_through(const std::function<Schema(Schema)>& link) {
  const auto calls = std::make_shared<std::size_t>(0);
  const Issues issues = Validator(refined_chain(link, calls))
                            .parse_and_validate(nested_levels(kLevels, kLevels))
                            .issues;
  EXPECT_TRUE(issues.empty()) << prettify(issues);
  return *calls;
}

// The issues of a chain `kLevels` deep whose fourth level fails its refinement.
Issues issues_of_a_bad_fourth_level_through(const std::function<Schema(Schema)>& link) {
  const auto calls = std::make_shared<std::size_t>(0);
  return Validator(refined_chain(link, calls)).parse_and_validate(nested_levels(kLevels, 3)).issues;
}

Schema nullable_union(Schema inner) {
  return null_last(std::move(inner)).nullable();
}

// Case `nullLastDepth20`.
TEST(NullableRefRefinements, ARefUnionedWithNullRefinesAtEveryLevel) {
  EXPECT_EQ(predicate_calls_through(null_last), kLevels);
}

// Case `nullLastBadAt3`.
TEST(NullableRefRefinements, ADeepLevelFailingItsRefinementUnderAUnionWithNullIsReported) {
  expect_one_bad_level_at(issues_of_a_bad_fourth_level_through(null_last), kThirdNext);
}

// Cases `nullFirstDepth20` and `nullFirstBadAt3`.
TEST(NullableRefRefinements, NullFirstInTheUnionRefinesAtEveryLevelToo) {
  EXPECT_EQ(predicate_calls_through(null_first), kLevels);
  expect_one_bad_level_at(issues_of_a_bad_fourth_level_through(null_first), kThirdNext);
}

// Cases `nullableUnionDepth20` and `nullableUnionBadAt3`: a .nullable() around the union with
// null.
TEST(NullableRefRefinements, ANullableUnionOfARefAndNullRefinesAtEveryLevel) {
  EXPECT_EQ(predicate_calls_through(nullable_union), kLevels);
  expect_one_bad_level_at(issues_of_a_bad_fourth_level_through(nullable_union), kThirdNext);
}

// A part below a union with null, validated alone, is judged as the whole value judges it there
// (the oracle: Validator::validate of the whole; Zod's case `nullLastBadAt3` words it the same).
TEST(NullableRefRefinements, APartBelowAUnionWithNullRefinesAsTheWholeDoes) {
  const auto calls = std::make_shared<std::size_t>(0);
  const Validator validator(refined_chain(null_last, calls));
  const json whole = json::parse(nested_levels(4, 3));
  const auto part = validator.validate_part(kThirdNext, whole["next"]["next"]["next"]);
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(prettify(*part), prettify(validator.validate(whole)));
  expect_one_bad_level_at(*part, kThirdNext);
}

// Cases `plainObjectBad` and `plainObjectNull`.
TEST(NullableRefRefinements, ARefinedObjectUnionedWithNullKeepsItsRefinement) {
  const auto calls = std::make_shared<std::size_t>(0);
  const Validator validator(object(
      {{"inner", null_last(counted_level(object({{"bad", boolean().optional()}}), calls))}}));
  expect_one_bad_level_at(validator.parse_and_validate(R"({"inner":{"bad":true}})").issues,
                          Path{} / "inner");
  EXPECT_EQ(*calls, 1U);
  *calls = 0;
  EXPECT_TRUE(validator.parse_and_validate(R"({"inner":null})").issues.empty());
  EXPECT_EQ(*calls, 0U);
}

// Case `unionRefined`: the option's refinement, then the union's own, once, at the union's path.
TEST(NullableRefRefinements, TheUnionsOwnRefinementRunsOnceAtTheUnion) {
  const auto calls = std::make_shared<std::size_t>(0);
  const auto union_calls = std::make_shared<std::size_t>(0);
  const Schema leaf = counted_level(object({{"bad", boolean().optional()}}), calls);
  const Validator validator(object({{"inner", null_last(leaf).refine(
                                                  [union_calls](const json&) {
                                                    ++*union_calls;
                                                    return false;
                                                  },
                                                  "union refinement")}}));
  const Issues issues = validator.parse_and_validate(R"({"inner":{"bad":true}})").issues;
  ASSERT_EQ(issues.size(), 2U) << prettify(issues);
  EXPECT_EQ(issues[0].path, Path{} / "inner");
  EXPECT_EQ(issues[0].message, kBadLevel);
  EXPECT_EQ(issues[1].code, IssueCode::custom);
  EXPECT_EQ(issues[1].path, Path{} / "inner");
  EXPECT_EQ(issues[1].message, "union refinement");
  EXPECT_EQ(*calls, 1U);
  EXPECT_EQ(*union_calls, 1U);
}

}  // namespace
}  // namespace accord
