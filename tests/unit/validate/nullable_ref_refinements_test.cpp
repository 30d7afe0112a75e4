// A definition's refinements run at every depth it is reached, also through a union with null
// (compiled as a nullable wrapper) and through `.nullable()` on a ref, and a refined object in
// such a union keeps its refinement, as do the options of a union inside one and a typed rule
// reached through std::variant<std::monostate, T>; the union's own refinement runs once, at the
// union. The
// oracle is Zod 4.6.7 running tests/unit/validate/nullable_ref_refinements.mjs: each test names
// its case there and holds the verdict, the issues and the predicates' call counts Zod printed.

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "accord/schema.hpp"
#include "accord/typed_rules.hpp"
#include "accord/typed_schema.hpp"
#include "accord/typed_types.hpp"
#include "accord/validate.hpp"

namespace nullable_ref_refinements_fixtures {

// The .mjs's Knot: a label and children that are null or knots.
struct Knot {
  std::string label;
  std::vector<std::variant<std::monostate, Knot>> children;
};
BOOST_DESCRIBE_STRUCT(Knot, (), (label, children))

}  // namespace nullable_ref_refinements_fixtures

namespace accord {
namespace {

using nlohmann::json;
using nullable_ref_refinements_fixtures::Knot;

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

// A part below a union with null, validated alone, runs the definition's refinement as the whole
// does (case `nullLastBadAt3`): failing it, the part is not passed (it gives nullopt: the whole
// may word a failure there as the union's invalid_union, UnionWithNull.*); fitting, no issues.
TEST(NullableRefRefinements, APartBelowAUnionWithNullRunsItsRefinement) {
  const auto calls = std::make_shared<std::size_t>(0);
  const Validator validator(refined_chain(null_last, calls));
  const json whole = json::parse(nested_levels(4, 3));
  EXPECT_FALSE(validator.validate_part(kThirdNext, whole["next"]["next"]["next"]).has_value());
  EXPECT_EQ(*calls, 1U);
  const auto fitting = validator.validate_part(kThirdNext, json::parse(nested_levels(1, 1)));
  ASSERT_TRUE(fitting.has_value());
  EXPECT_TRUE(fitting->empty());
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

// Cases `nestedBadLeaf` and `nestedBadLevel`: a union inside a union with null, 4 levels deep.
// Fails before nullref10, whose wrapper handed the outer union's DSL node to the inner union: its
// options got the outer union's options (a union, null) and ran neither their refinements.
TEST(NullableRefRefinements, TheOptionsOfAUnionInsideAUnionWithNullRefineAtDepth) {
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
              kBadLevel)
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
  expect_one_bad_level_at(bad_level, Path{} / "next" / "next");
  EXPECT_EQ(*calls, 5U);
}

// Case `knotBad`: typed<Knot>()'s rule holds on a knot reached through
// std::variant<std::monostate, Knot> (a union with null), at depth. Fails before nullref10, whose
// wrapper judged the knot with the union's DSL node, which carries no rule.
TEST(NullableRefRefinements, ATypedRuleRunsOnTheAlternativeBesideMonostate) {
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
