// An outer refinement sees the value as Zod's parse hands it over: the defaults of absent fields
// filled in at every depth below it (nested objects, array items, record values, tuple positions,
// a ref's definition, nullable and optional members, the union option the value passes), and a
// default itself taken as given. The oracle is Zod 4.6.7 running
// tests/unit/validate/refinement_defaults.mjs: each test names its case there and holds the value
// Zod's refinement saw (every case passes in Zod with no issue).

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "accord/schema.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using nlohmann::json;

// The object `{mode}` whose mode defaults to "auto" (the .mjs's `mode()`).
Schema auto_mode() {
  return object({{"mode", string().default_("auto")}});
}

// What a refinement on `schema` saw when `text` was validated, after checking that the value
// passes with no issue (as it does in Zod).
json value_the_refinement_saw(const Schema& schema, const std::string& text) {
  const auto seen = std::make_shared<json>();
  const Validator validator(schema.refine(
      [seen](const json& value) {
        *seen = value;
        return true;
      },
      "never"));
  const Issues issues = validator.parse_and_validate(text).issues;
  EXPECT_TRUE(issues.empty()) << prettify(issues);
  return *seen;
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

// Case `ref` (`z.lazy(() => Settings)`).
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
TEST(ZodDefaultsBelowARefinement, AUnionOptionsDefaultIsFilledIn) {
  EXPECT_EQ(value_the_refinement_saw(object({{"either", union_({auto_mode(), number()})}}),
                                     R"({"either":{}})"),
            json::parse(R"({"either":{"mode":"auto"}})"));
}

// Case `unionSecond`.
TEST(ZodDefaultsBelowARefinement, ALaterUnionOptionsDefaultIsFilledInWhenTheEarlierFails) {
  EXPECT_EQ(value_the_refinement_saw(
                object({{"either", union_({object({{"n", number()}}), auto_mode()})}}),
                R"({"either":{}})"),
            json::parse(R"({"either":{"mode":"auto"}})"));
}

// Case `unionBoth`.
TEST(ZodDefaultsBelowARefinement, OnlyTheFirstUnionOptionTheValuePassesFillsIn) {
  EXPECT_EQ(value_the_refinement_saw(
                object({{"either", union_({object({{"a", string().default_("x")}}),
                                           object({{"b", string().default_("y")}})})}}),
                R"({"either":{}})"),
            json::parse(R"({"either":{"a":"x"}})"));
}

// Case `discriminated`.
TEST(ZodDefaultsBelowARefinement, ADiscriminatedUnionOptionsDefaultIsFilledIn) {
  const Schema event = discriminated_union(
      "type", {object({{"type", literal("a")}, {"mode", string().default_("auto")}}),
               object({{"type", literal("b")}})});
  EXPECT_EQ(value_the_refinement_saw(object({{"event", event}}), R"({"event":{"type":"a"}})"),
            json::parse(R"({"event":{"type":"a","mode":"auto"}})"));
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
  EXPECT_EQ(value_the_refinement_saw(object({{"inner", inner}}), "{}"),
            json::parse(R"({"inner":{"k":2}})"));
}

// Case `presentNull`.
TEST(ZodDefaultsBelowARefinement, APresentNullKeepsItsPlaceOverTheDefault) {
  const Schema inner = object({{"m", string().nullable().default_("x")}});
  EXPECT_EQ(value_the_refinement_saw(object({{"inner", inner}}), R"({"inner":{"m":null}})"),
            json::parse(R"({"inner":{"m":null}})"));
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
