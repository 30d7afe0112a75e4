// An outer refinement sees the value as Zod's parse hands it over: the defaults of absent fields
// filled in at every depth below it (nested objects, array items, record values, tuple positions,
// a ref's definition, nullable and optional members), and a default itself taken as given. The
// oracle is Zod 4.6.7 running tests/unit/validate/refinement_defaults.mjs: each test names its
// case there and holds the value Zod's refinement saw (and the issue of the three that fail).
// Below a union, Zod fills the option it parsed with: z.union's first option that passes (its
// refinements included), or when none passes the only one whose issues do not abort; a
// discriminated union's tagged one, passing or not.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accord/schema.hpp"
#include "accord/typed_rules.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using nlohmann::json;

// The object `{mode}` whose mode defaults to "auto" (the .mjs's `mode()`).
Schema auto_mode() {
  return object({{"mode", string().default_("auto")}});
}

struct RefinedRun {
  Issues issues;
  json seen;  // what the refinement on the schema saw
};

// The issues of `text` under `schema` with a refinement on it that notes what it saw.
RefinedRun validate_refined(const Schema& schema, const std::string& text) {
  const auto seen = std::make_shared<json>();
  const Validator validator(schema.refine(
      [seen](const json& value) {
        *seen = value;
        return true;
      },
      "never"));
  Issues issues = validator.parse_and_validate(text).issues;
  return {std::move(issues), *seen};
}

// What a refinement on `schema` saw when `text` was validated, after checking that the value
// passes with no issue (as it does in Zod).
json value_the_refinement_saw(const Schema& schema, const std::string& text) {
  const RefinedRun refined = validate_refined(schema, text);
  EXPECT_TRUE(refined.issues.empty()) << prettify(refined.issues);
  return refined.seen;
}

// The one too_small issue Zod reports at `path` for a string shorter than 3 (the failing cases),
// its message as the .mjs prints it.
void expect_only_too_small_at(const Issues& issues, const Path& path) {
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].code, IssueCode::too_small);
  EXPECT_EQ(issues[0].path, path);
  EXPECT_EQ(issues[0].message, "Too small: expected string to have >=3 characters");
}

// Case `nested`.
TEST(ZodDefaultsBelowARefinement, ANestedObjectsDefaultIsFilledIn) {
  EXPECT_EQ(value_the_refinement_saw(object({{"inner", auto_mode()}}), R"({"inner":{}})"),
            json::parse(R"({"inner":{"mode":"auto"}})"));
}

// Case `array`.
TEST(ZodDefaultsBelowARefinement, EachArrayItemsDefaultIsFilledIn) {
  EXPECT_EQ(value_the_refinement_saw(object({{"list", array(auto_mode())}}),
                                     R"({"list":[{},{"mode":"manual"}]})"),
            json::parse(R"({"list":[{"mode":"auto"},{"mode":"manual"}]})"));
}

// Case `record`.
TEST(ZodDefaultsBelowARefinement, EachRecordValuesDefaultIsFilledIn) {
  EXPECT_EQ(
      value_the_refinement_saw(object({{"byName", record(auto_mode())}}), R"({"byName":{"a":{}}})"),
      json::parse(R"({"byName":{"a":{"mode":"auto"}}})"));
}

// Case `tuple`.
TEST(ZodDefaultsBelowARefinement, ATuplePositionsDefaultIsFilledIn) {
  EXPECT_EQ(value_the_refinement_saw(object({{"pair", tuple({auto_mode(), number()})}}),
                                     R"({"pair":[{},1]})"),
            json::parse(R"({"pair":[{"mode":"auto"},1]})"));
}

// Case `ref` (`z.lazy(() => Settings)`). The absent optional `first`, which the .mjs lacks, is
// where the definition is named (a ref needs it somewhere in the schema).
TEST(ZodDefaultsBelowARefinement, ARefsDefinitionsDefaultIsFilledIn) {
  const Schema settings = auto_mode().named("Settings");
  EXPECT_EQ(value_the_refinement_saw(
                object({{"first", settings.optional()}, {"settings", ref("Settings")}}),
                R"({"settings":{}})"),
            json::parse(R"({"settings":{"mode":"auto"}})"));
}

// Case `nullable`.
TEST(ZodDefaultsBelowARefinement, ANullableMembersDefaultIsFilledIn) {
  EXPECT_EQ(
      value_the_refinement_saw(object({{"maybe", auto_mode().nullable()}}), R"({"maybe":{}})"),
      json::parse(R"({"maybe":{"mode":"auto"}})"));
}

// Case `optional`.
TEST(ZodDefaultsBelowARefinement, AnOptionalMembersDefaultIsFilledIn) {
  EXPECT_EQ(
      value_the_refinement_saw(object({{"maybe", auto_mode().optional()}}), R"({"maybe":{}})"),
      json::parse(R"({"maybe":{"mode":"auto"}})"));
}

// Case `unionFirst`.
TEST(ZodDefaultsBelowARefinement, TheAcceptedUnionOptionsDefaultIsFilledIn) {
  EXPECT_EQ(value_the_refinement_saw(object({{"either", union_({auto_mode(), number()})}}),
                                     R"({"either":{}})"),
            json::parse(R"({"either":{"mode":"auto"}})"));
}

// Case `discriminated`.
TEST(ZodDefaultsBelowARefinement, TheTaggedOptionsDefaultIsFilledIn) {
  const Schema pick = discriminated_union(
      "kind", {object({{"kind", literal("a")}, {"x", number().default_(1)}}),
               object({{"kind", literal("b")}, {"y", string().default_("b")}})});
  EXPECT_EQ(value_the_refinement_saw(object({{"pick", pick}}), R"({"pick":{"kind":"b"}})"),
            json::parse(R"({"pick":{"kind":"b","y":"b"}})"));
}

// Case `unionInArray`: each item's own accepted option.
TEST(ZodDefaultsBelowARefinement, EachArrayItemsAcceptedOptionIsFilledIn) {
  EXPECT_EQ(value_the_refinement_saw(object({{"list", array(union_({number(), auto_mode()}))}}),
                                     R"({"list":[1,{},{"mode":"manual"}]})"),
            json::parse(R"({"list":[1,{"mode":"auto"},{"mode":"manual"}]})"));
}

// Case `twoOptionsPass`: both options take `{}`; the first one's default is filled in.
TEST(ZodDefaultsBelowARefinement, TheFirstOfTwoPassingOptionsIsFilledIn) {
  const Schema either =
      union_({object({{"a", number().default_(1)}}), object({{"b", number().default_(2)}})});
  EXPECT_EQ(value_the_refinement_saw(object({{"either", either}}), R"({"either":{}})"),
            json::parse(R"({"either":{"a":1}})"));
}

// Case `firstOptionsRefinementFails`: an option whose refinement fails is not the one parsed with.
TEST(ZodDefaultsBelowARefinement, AnOptionFailingItsRefinementIsNotTheOneFilledIn) {
  const Schema either =
      union_({object({{"a", number().default_(1)}}).refine([](const json&) { return false; }, "no"),
              object({{"b", number().default_(2)}})});
  EXPECT_EQ(value_the_refinement_saw(object({{"either", either}}), R"({"either":{}})"),
            json::parse(R"({"either":{"b":2}})"));
}

// Case `unionWithNull`.
TEST(ZodDefaultsBelowARefinement, AUnionWithNullsOptionDefaultIsFilledIn) {
  EXPECT_EQ(value_the_refinement_saw(object({{"maybe", union_({auto_mode(), null_()})}}),
                                     R"({"maybe":{}})"),
            json::parse(R"({"maybe":{"mode":"auto"}})"));
}

// Case `onlyNonAbortedOption`: no option passes, and the one whose issues do not abort is the
// union's result (its issue the union's), its default in.
TEST(ZodDefaultsBelowARefinement, TheOnlyOptionFailingWithoutAbortingIsFilledIn) {
  const Schema either =
      union_({object({{"a", number().default_(1)}, {"b", string().min(3)}}), number()});
  const RefinedRun refined =
      validate_refined(object({{"either", either}}), R"({"either":{"b":"x"}})");
  expect_only_too_small_at(refined.issues, Path{"either", "b"});
  EXPECT_EQ(refined.seen, json::parse(R"({"either":{"a":1,"b":"x"}})"));
}

// Case `taggedOptionFails`: the tagged option is the union's result though it fails.
TEST(ZodDefaultsBelowARefinement, AFailingTaggedOptionsDefaultIsFilledIn) {
  const Schema pick = discriminated_union(
      "kind",
      {object({{"kind", literal("a")}, {"x", number().default_(1)}, {"s", string().min(3)}}),
       object({{"kind", literal("b")}})});
  const RefinedRun refined =
      validate_refined(object({{"pick", pick}}), R"({"pick":{"kind":"a","s":"x"}})");
  expect_only_too_small_at(refined.issues, Path{"pick", "s"});
  EXPECT_EQ(refined.seen, json::parse(R"({"pick":{"kind":"a","x":1,"s":"x"}})"));
}

// Case `unionWithNullFails`: beside null, the failing option is the union's result.
TEST(ZodDefaultsBelowARefinement, AFailingOptionBesideNullIsFilledIn) {
  const Schema maybe =
      union_({object({{"a", number().default_(1)}, {"b", string().min(3)}}), null_()});
  const RefinedRun refined = validate_refined(object({{"maybe", maybe}}), R"({"maybe":{"b":"x"}})");
  expect_only_too_small_at(refined.issues, Path{"maybe", "b"});
  EXPECT_EQ(refined.seen, json::parse(R"({"maybe":{"a":1,"b":"x"}})"));
}

// Case `refinedUnion`: a refinement on the union itself.
TEST(ZodDefaultsBelowARefinement, ARefinementOnAUnionSeesItsAcceptedOptionsDefault) {
  EXPECT_EQ(value_the_refinement_saw(union_({auto_mode(), number()}), "{}"),
            json::parse(R"({"mode":"auto"})"));
}

// The object `{a, b}` whose a defaults to 1 and whose b fails as "x" (the .mjs's `failsShort()`).
Schema fails_short() {
  return object({{"a", number().default_(1)}, {"b", string().min(3)}});
}

// Case `refinedUnionFails`: a refinement on the union itself when no option passes sees the
// option failing without aborting, its default in.
TEST(ZodDefaultsBelowARefinement, ARefinementOnAFailingUnionSeesTheNonAbortedOptionsDefault) {
  const RefinedRun refined = validate_refined(union_({fails_short(), number()}), R"({"b":"x"})");
  expect_only_too_small_at(refined.issues, Path{"b"});
  EXPECT_EQ(refined.seen, json::parse(R"({"a":1,"b":"x"})"));
}

// Case `refinedUnionWithNullFails`: the same beside null.
TEST(ZodDefaultsBelowARefinement, ARefinementOnAFailingUnionWithNullSeesTheOptionsDefault) {
  const RefinedRun refined = validate_refined(union_({fails_short(), null_()}), R"({"b":"x"})");
  expect_only_too_small_at(refined.issues, Path{"b"});
  EXPECT_EQ(refined.seen, json::parse(R"({"a":1,"b":"x"})"));
}

// The .mjs's `recordOfUnions` schema: each record value an auto_mode() or a number.
Schema record_of_unions() {
  return object({{"byName", record(union_({auto_mode(), number()}))}});
}

// Case `recordOfUnions`: each value's accepted option is filled in, the keys written out of order
// (the record's values are matched with the walked ones by key).
TEST(ZodDefaultsBelowARefinement, EachRecordValuesAcceptedOptionIsFilledIn) {
  EXPECT_EQ(value_the_refinement_saw(record_of_unions(), R"({"byName":{"c":{},"a":1,"b":{}}})"),
            json::parse(R"({"byName":{"c":{"mode":"auto"},"a":1,"b":{"mode":"auto"}}})"));
}

// Case `recordOfUnionsManyKeys`: the same with 20 keys written in reverse order (more than 16,
// which the parser puts in key order by sorting the keys' text).
TEST(ZodDefaultsBelowARefinement, EachOfManyReversedRecordValuesAcceptedOptionIsFilledIn) {
  std::string text = R"({"byName":{)";
  for (int i = 19; i >= 0; --i) {
    text += (i < 10 ? R"("k0)" : R"("k)") + std::to_string(i) + R"(":)";
    text += i % 2 == 0 ? "{}" : std::to_string(i);
    text += i == 0 ? "}}" : ",";
  }
  EXPECT_EQ(value_the_refinement_saw(record_of_unions(), text), json::parse(R"({"byName":{
      "k19":19,"k18":{"mode":"auto"},"k17":17,"k16":{"mode":"auto"},"k15":15,
      "k14":{"mode":"auto"},"k13":13,"k12":{"mode":"auto"},"k11":11,"k10":{"mode":"auto"},
      "k09":9,"k08":{"mode":"auto"},"k07":7,"k06":{"mode":"auto"},"k05":5,"k04":{"mode":"auto"},
      "k03":3,"k02":{"mode":"auto"},"k01":1,"k00":{"mode":"auto"}}})"));
}

// Case `rejectedOuterOption`: the inner union noted under the outer union's rejected option is
// filled in as the accepted option walked it.
TEST(ZodDefaultsBelowARefinement, AnInnerUnionUnderARejectedOuterOptionIsFilledAsAccepted) {
  const Schema inner = union_({auto_mode(), number()});
  const Schema either = union_({object({{"inner", inner}, {"kind", literal("a")}}),
                                object({{"inner", inner}, {"other", number().default_(5)}})});
  EXPECT_EQ(value_the_refinement_saw(object({{"either", either}}), R"({"either":{"inner":{}}})"),
            json::parse(R"({"either":{"inner":{"mode":"auto"},"other":5}})"));
}

// A record of 20,000 keys beside a union: every value gets its default, as with_defaults fills
// them (the union holds a number, which both leave alone). A guard on size, not on the order of
// the keys or on unions in a record (those are the two cases above).
TEST(ZodDefaultsBelowARefinement, EachOfTwentyThousandRecordValuesDefaultIsFilledIn) {
  constexpr std::size_t kKeys = 20000;
  const Schema schema =
      object({{"byName", record(auto_mode())}, {"either", union_({auto_mode(), number()})}});
  json input = {{"byName", json::object()}, {"either", 1}};
  for (std::size_t i = 0; i < kKeys; ++i) {
    std::string key = std::to_string(i);
    input["byName"][std::string(6 - key.size(), '0') + key] =
        i % 2 == 0 ? json::object() : json{{"mode", "manual"}};
  }
  EXPECT_EQ(value_the_refinement_saw(schema, input.dump()), with_defaults(schema, input));
}

// with_defaults judges nothing, so a union's options keep their defaults (docs/schema-dsl.md).
TEST(ZodDefaultsBelowARefinement, WithDefaultsLeavesAUnionsOptionsAlone) {
  const json input = json::parse(R"({"either":{}})");
  EXPECT_EQ(with_defaults(object({{"either", union_({auto_mode(), number()})}}), input), input);
}

// Case `deep`.
TEST(ZodDefaultsBelowARefinement, ADefaultThreeLevelsDownIsFilledIn) {
  const Schema deep = object({{"a", object({{"b", array(object({{"c", auto_mode()}}))}})}});
  EXPECT_EQ(value_the_refinement_saw(deep, R"({"a":{"b":[{"c":{}}]}})"),
            json::parse(R"({"a":{"b":[{"c":{"mode":"auto"}}]}})"));
}

// Case `wholeDefault`: Zod 4's .default() returns its value without parsing it.
TEST(ZodDefaultsBelowARefinement, AnAbsentObjectsDefaultIsTakenAsGivenWithoutItsFieldsDefaults) {
  const Schema inner = object({{"mode", string().default_("auto")}, {"k", number().default_(1)}})
                           .default_({{"k", 2}});
  EXPECT_EQ(
      value_the_refinement_saw(object({{"outer", object({{"inner", inner}})}}), R"({"outer":{}})"),
      json::parse(R"({"outer":{"inner":{"k":2}}})"));
}

// Case `presentNull`: the null stays where its sibling's default is filled in.
TEST(ZodDefaultsBelowARefinement, APresentNullKeepsItsPlaceOverTheDefault) {
  const Schema outer =
      object({{"m", string().nullable().default_("x")}, {"n", string().default_("y")}});
  EXPECT_EQ(value_the_refinement_saw(object({{"outer", outer}}), R"({"outer":{"m":null}})"),
            json::parse(R"({"outer":{"m":null,"n":"y"}})"));
}

// Case `rootArray`.
TEST(ZodDefaultsBelowARefinement, ARootArraysItemDefaultIsFilledIn) {
  EXPECT_EQ(value_the_refinement_saw(array(object({{"qty", number().default_(1)}})), "[{}]"),
            json::parse(R"([{"qty":1}])"));
}

struct LineWithoutDefault {
  std::optional<std::int32_t> qty;
};
BOOST_DESCRIBE_STRUCT(LineWithoutDefault, (), (qty))

// Case `rootArray`, read by a typed refinement built on items whose qty has no default: it reads
// the validator's default, as Zod's refinement does (qty 1).
TEST(ZodDefaultsBelowARefinement, ATypedRootArrayRefinementReadsTheItemDefault) {
  const auto seen = std::make_shared<std::vector<std::optional<std::int32_t>>>();
  const Schema refined =
      refine(
          [seen](const std::vector<LineWithoutDefault>& lines) {
            for (const auto& line : lines) seen->push_back(line.qty);
            return true;
          },
          "never")
          .apply(array(object({{"qty", integer().optional()}})), std::vector<LineWithoutDefault>{});
  const Validator validator(
      array(object({{"qty", integer().default_(1)}})).refine(refined.node().refinements.at(0)));
  const Issues issues = validator.parse_and_validate("[{}]").issues;
  EXPECT_TRUE(issues.empty()) << prettify(issues);
  EXPECT_EQ(*seen, std::vector<std::optional<std::int32_t>>{1});
}

// Case `recursiveCalls`: a recursive chain through a union, refined at every level, 40 deep: each
// level's predicate runs once (Zod: 40 calls), whatever defaults lie below.
TEST(ZodDefaultsBelowARefinement, EachLevelOfARecursiveUnionChainRefinesOnce) {
  constexpr std::size_t kDepth = 40;
  const auto calls = std::make_shared<std::size_t>(0);
  const Schema node = object({{"mode", string().default_("a")},
                              {"next", union_({ref("Node"), number()}).optional()}})
                          .refine(
                              [calls](const json&) {
                                ++*calls;
                                return true;
                              },
                              "never")
                          .named("Node");
  std::string text = "1";
  for (std::size_t i = 0; i < kDepth; ++i) text = R"({"next":)" + text + "}";
  const Issues issues = Validator(node).parse_and_validate(text).issues;
  EXPECT_TRUE(issues.empty()) << prettify(issues);
  EXPECT_EQ(*calls, kDepth);
}

// Case `recursiveValues`: a recursive chain through a union, refined at every level, each level
// handed its options' defaults at every depth below it, its predicate run once.
TEST(ZodDefaultsBelowARefinement, EachLevelOfARecursiveUnionChainSeesTheDefaultsBelowIt) {
  const auto levels = std::make_shared<std::vector<json>>();
  const Schema node = object({{"mode", string().default_("a")},
                              {"next", union_({ref("Node"), number()}).optional()}})
                          .refine(
                              [levels](const json& value) {
                                levels->push_back(value);
                                return true;
                              },
                              "never")
                          .named("Node");
  const Issues issues =
      Validator(node).parse_and_validate(R"({"next":{"next":{"next":{}}}})").issues;
  EXPECT_TRUE(issues.empty()) << prettify(issues);
  std::reverse(levels->begin(), levels->end());  // outermost first, as the .mjs prints them
  EXPECT_EQ(json(*levels), json::parse(R"([{"mode":"a","next":{"mode":"a","next":{"mode":"a",
      "next":{"mode":"a"}}}},{"mode":"a","next":{"mode":"a","next":{"mode":"a"}}},
      {"mode":"a","next":{"mode":"a"}},{"mode":"a"}])"));
}

// A view predicate (as a typed refinement is given) reads the same filled value.
TEST(ZodDefaultsBelowARefinement, AViewPredicateReadsTheNestedDefault) {
  const Validator validator(object({{"inner", auto_mode()}})
                                .refine(Refinement{
                                    .predicate = nullptr,
                                    .message = "the nested default is not filled in",
                                    .view_predicate =
                                        [](JsonView v) {
                                          const auto mode = v.find("inner").value().find("mode");
                                          return mode.has_value() && mode->get_string() == "auto";
                                        },
                                }));
  const Issues issues = validator.parse_and_validate(R"({"inner":{}})").issues;
  EXPECT_TRUE(issues.empty()) << prettify(issues);
}

// Case `asksForDefault`: the refinement passes on the default and fails on another value with
// one custom issue at the refined object.
TEST(ZodDefaultsBelowARefinement, ARefinementAskingForTheNestedDefaultJudgesAsZodDoes) {
  constexpr const char* kNotFilled = "the nested default is not filled in";
  const Validator validator(
      object({{"inner", auto_mode()}})
          .refine([](const json& v) { return v.at("inner").value("mode", "") == "auto"; },
                  kNotFilled));
  EXPECT_TRUE(validator.parse_and_validate(R"({"inner":{}})").issues.empty());
  const Issues issues = validator.parse_and_validate(R"({"inner":{"mode":"manual"}})").issues;
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].code, IssueCode::custom);
  EXPECT_EQ(issues[0].path, Path{});
  EXPECT_EQ(issues[0].message, kNotFilled);
}

}  // namespace
}  // namespace accord
