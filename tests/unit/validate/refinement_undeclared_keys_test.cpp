// A refinement sees the value as Zod's parse hands it over when the value holds keys its objects
// do not declare: object() is z.strictObject, whose result leaves them out (their
// unrecognized_keys issue does not abort, so the refinement still runs), and .passthrough() is
// z.looseObject, whose result keeps them; at every depth below the refinement, and below a union
// in the option Zod hands on. The oracle is Zod 4.6.7 running
// tests/unit/validate/refinement_undeclared_keys.mjs: each test names its case there and holds
// the issues, what the refinement saw and how often it ran.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "accord/schema.hpp"
#include "accord/typed_rules.hpp"
#include "accord/validate.hpp"

namespace accord::undeclared_keys_test {

using nlohmann::json;

// The .mjs's `a()`: {a: number}, closed.
Schema a_object() {
  return object({{"a", number()}});
}

struct RefinedRun {
  Issues issues;
  json seen;  // what the refinement saw (null when it did not run)
  std::size_t calls = 0;
};

// The issues of `text` under `schema` with a refinement on it that notes what it saw, how often
// it ran, and holds when `check` does.
RefinedRun validate_refined(
    const Schema& schema, const std::string& text,
    const Predicate& check = [](const json&) { return true; }, std::string message = "never") {
  const auto run = std::make_shared<RefinedRun>();
  const Validator validator(schema.refine(
      [run, check](const json& value) {
        ++run->calls;
        run->seen = value;
        return check(value);
      },
      std::move(message)));
  run->issues = validator.parse_and_validate(text).issues;
  return std::move(*run);
}

// Zod's issue for the one undeclared key "x" of the object at `path`.
Issue unrecognized_x(Path path) {
  return {IssueCode::unrecognized_keys, std::move(path), R"(Unrecognized key: "x")"};
}

bool has_one_key(const json& v) {
  return v.size() == 1;
}

// A refinement on {name: member} given {name: {a: 1, x: 2}} sees {name: {a: 1}}, and "x" is the
// one issue, at `name`.
void expect_member_without_x(const std::string& name, const Schema& member) {
  const RefinedRun run =
      validate_refined(object({{name, member}}), json{{name, {{"a", 1}, {"x", 2}}}}.dump());
  EXPECT_EQ(run.issues, Issues{unrecognized_x({name})});
  EXPECT_EQ(run.seen, (json{{name, {{"a", 1}}}}));
}

// Case `refinedObject`: the refinement sees {a: 1}, so "one key" holds; the extra key's issue is
// the only one.
TEST(ZodUndeclaredKeysBelowARefinement, AClosedObjectsRefinementSeesItWithoutTheUndeclaredKey) {
  const RefinedRun run = validate_refined(a_object(), R"({"a":1,"x":2})", has_one_key, "one key");
  EXPECT_EQ(run.issues, Issues{unrecognized_x({})});
  EXPECT_EQ(run.seen, json::parse(R"({"a":1})"));
  EXPECT_EQ(run.calls, 1U);
}

// Case `refinedObjectFails`: a refinement that fails anyway reports after the extra key's issue.
TEST(ZodUndeclaredKeysBelowARefinement, AFailingRefinementsIssueFollowsTheUnrecognizedKeys) {
  const RefinedRun run = validate_refined(
      a_object(), R"({"a":1,"x":2})", [](const json& v) { return v.at("a") > 5; }, "a is over 5");
  EXPECT_EQ(run.issues, (Issues{unrecognized_x({}), {IssueCode::custom, {}, "a is over 5"}}));
  EXPECT_EQ(run.seen, json::parse(R"({"a":1})"));
}

// Case `refinedPassthrough`: z.looseObject keeps the key, so "one key" fails.
TEST(ZodUndeclaredKeysBelowARefinement, APassthroughObjectsRefinementSeesTheUndeclaredKey) {
  const RefinedRun run =
      validate_refined(a_object().passthrough(), R"({"a":1,"x":2})", has_one_key, "one key");
  EXPECT_EQ(run.issues, (Issues{{IssueCode::custom, {}, "one key"}}));
  EXPECT_EQ(run.seen, json::parse(R"({"a":1,"x":2})"));
}

// Case `nested`.
TEST(ZodUndeclaredKeysBelowARefinement, ANestedObjectsUndeclaredKeyIsLeftOut) {
  expect_member_without_x("inner", a_object());
}

// Case `passthroughNested`: valid, the key kept.
TEST(ZodUndeclaredKeysBelowARefinement, ANestedPassthroughObjectKeepsItsUndeclaredKey) {
  const RefinedRun run =
      validate_refined(object({{"inner", a_object().passthrough()}}), R"({"inner":{"a":1,"x":2}})");
  EXPECT_TRUE(run.issues.empty()) << prettify(run.issues);
  EXPECT_EQ(run.seen, json::parse(R"({"inner":{"a":1,"x":2}})"));
}

// Case `strictInPassthrough`: the passthrough object keeps "y", its closed member loses "x".
TEST(ZodUndeclaredKeysBelowARefinement, OnlyTheClosedObjectsUndeclaredKeyIsLeftOut) {
  const RefinedRun run = validate_refined(object({{"inner", a_object()}}).passthrough(),
                                          R"({"inner":{"a":1,"x":2},"y":3})");
  EXPECT_EQ(run.issues, Issues{unrecognized_x({"inner"})});
  EXPECT_EQ(run.seen, json::parse(R"({"inner":{"a":1},"y":3})"));
}

// Case `array`.
TEST(ZodUndeclaredKeysBelowARefinement, EachArrayItemsUndeclaredKeysAreLeftOut) {
  const RefinedRun run =
      validate_refined(object({{"list", array(a_object())}}),
                       R"({"list":[{"a":1,"x":2},{"a":2},{"a":3,"y":1,"z":2}]})");
  EXPECT_EQ(run.issues, (Issues{unrecognized_x({"list", std::size_t{0}}),
                                {IssueCode::unrecognized_keys,
                                 {"list", std::size_t{2}},
                                 R"(Unrecognized keys: "y", "z")"}}));
  EXPECT_EQ(run.seen, json::parse(R"({"list":[{"a":1},{"a":2},{"a":3}]})"));
}

// Case `record`: a record keeps every key; its closed values lose theirs.
TEST(ZodUndeclaredKeysBelowARefinement, EachRecordValuesUndeclaredKeyIsLeftOut) {
  const RefinedRun run = validate_refined(object({{"byName", record(a_object())}}),
                                          R"({"byName":{"k":{"a":1,"x":2}}})");
  EXPECT_EQ(run.issues, Issues{unrecognized_x({"byName", "k"})});
  EXPECT_EQ(run.seen, json::parse(R"({"byName":{"k":{"a":1}}})"));
}

// Case `deep`: the deeper object's issue comes first, as Zod reports them.
TEST(ZodUndeclaredKeysBelowARefinement, UndeclaredKeysAreLeftOutAtEveryDepth) {
  const Schema deep = object({{"p", object({{"q", array(object({{"r", a_object()}}))}})}});
  const RefinedRun run = validate_refined(deep, R"({"p":{"q":[{"r":{"a":1,"x":2}}],"w":1}})");
  EXPECT_EQ(run.issues,
            (Issues{unrecognized_x({"p", "q", std::size_t{0}, "r"}),
                    {IssueCode::unrecognized_keys, {"p"}, R"(Unrecognized key: "w")"}}));
  EXPECT_EQ(run.seen, json::parse(R"({"p":{"q":[{"r":{"a":1}}]}})"));
}

// Case `withDefault`: the key goes out and the default comes in, in one copy.
TEST(ZodUndeclaredKeysBelowARefinement, AnUndeclaredKeyGoesWhereADefaultIsFilledIn) {
  const RefinedRun run = validate_refined(
      object({{"inner", object({{"a", number().default_(7)}})}}), R"({"inner":{"x":2}})");
  EXPECT_EQ(run.issues, Issues{unrecognized_x({"inner"})});
  EXPECT_EQ(run.seen, json::parse(R"({"inner":{"a":7}})"));
}

// Case `onlyNonAbortedOption`: no option passes; the object, failing without aborting, is the
// union's result.
TEST(ZodUndeclaredKeysBelowARefinement, TheOnlyNonAbortedOptionIsHandedOnWithoutTheKey) {
  expect_member_without_x("either", union_({a_object(), number()}));
}

// Case `passthroughOptionPasses`: the closed option fails, the passthrough one passes with the key.
TEST(ZodUndeclaredKeysBelowARefinement, APassingPassthroughOptionKeepsTheKey) {
  const RefinedRun run =
      validate_refined(object({{"either", union_({a_object(), a_object().passthrough()})}}),
                       R"({"either":{"a":1,"x":2}})");
  EXPECT_TRUE(run.issues.empty()) << prettify(run.issues);
  EXPECT_EQ(run.seen, json::parse(R"({"either":{"a":1,"x":2}})"));
}

// Case `taggedOption`.
TEST(ZodUndeclaredKeysBelowARefinement, TheTaggedOptionIsHandedOnWithoutTheKey) {
  const Schema pick = discriminated_union(
      "kind",
      {object({{"kind", literal("a")}, {"a", number()}}), object({{"kind", literal("b")}})});
  const RefinedRun run =
      validate_refined(object({{"pick", pick}}), R"({"pick":{"kind":"a","a":1,"x":2}})");
  EXPECT_EQ(run.issues, Issues{unrecognized_x({"pick"})});
  EXPECT_EQ(run.seen, json::parse(R"({"pick":{"kind":"a","a":1}})"));
}

// Case `optionBesideNull`.
TEST(ZodUndeclaredKeysBelowARefinement, TheOptionBesideNullIsHandedOnWithoutTheKey) {
  expect_member_without_x("maybe", union_({a_object(), null_()}));
}

// Case `nullable`.
TEST(ZodUndeclaredKeysBelowARefinement, ANullableObjectsUndeclaredKeyIsLeftOut) {
  expect_member_without_x("maybe", a_object().nullable());
}

// Case `refinedUnion`: a refinement on the union itself.
TEST(ZodUndeclaredKeysBelowARefinement, AUnionsRefinementSeesItsOptionWithoutTheKey) {
  const RefinedRun run = validate_refined(union_({a_object(), number()}), R"({"a":1,"x":2})");
  EXPECT_EQ(run.issues, Issues{unrecognized_x({})});
  EXPECT_EQ(run.seen, json::parse(R"({"a":1})"));
}

// Case `nullFirst`: null first, the object option is handed on all the same.
TEST(ZodUndeclaredKeysBelowARefinement, TheOptionAfterNullIsHandedOnWithoutTheKey) {
  expect_member_without_x("maybe", union_({null_(), a_object()}));
}

// Case `refRecursive`: the key is left out where a definition is reached through a ref.
TEST(ZodUndeclaredKeysBelowARefinement, ARecursiveDefinitionsUndeclaredKeyIsLeftOut) {
  const Schema node = object({{"v", number()}, {"kids", array(ref("Node"))}}).named("Node");
  const RefinedRun run = validate_refined(node, R"({"v":1,"kids":[{"v":2,"kids":[],"x":1}]})");
  EXPECT_EQ(run.issues, (Issues{{IssueCode::unrecognized_keys,
                                 {"kids", std::size_t{0}},
                                 R"(Unrecognized key: "x")"}}));
  EXPECT_EQ(run.seen, json::parse(R"({"v":1,"kids":[{"v":2,"kids":[]}]})"));
  EXPECT_EQ(run.calls, 1U);
}

// Case `tuple`.
TEST(ZodUndeclaredKeysBelowARefinement, ATuplePositionsUndeclaredKeyIsLeftOut) {
  const RefinedRun run = validate_refined(object({{"t", tuple({number(), a_object()})}}),
                                          R"({"t":[1,{"a":1,"x":2}]})");
  EXPECT_EQ(run.issues, Issues{unrecognized_x({"t", std::size_t{1}})});
  EXPECT_EQ(run.seen, json::parse(R"({"t":[1,{"a":1}]})"));
}

// Case `siblingKeyOtherRefined`: only the keys below a refined node count, so `r`'s refinement,
// after `s` reported its key, reads `r` in place (a copy would be a document of its own, its
// value at the root's index) and once.
TEST(ZodUndeclaredKeysBelowARefinement, ASiblingsUndeclaredKeyLeavesTheRefinedValueInPlace) {
  const auto run = std::make_shared<RefinedRun>();
  const auto read_in_place = std::make_shared<bool>(false);
  const Schema r = a_object().refine(Refinement{
      .predicate = nullptr,
      .message = "never",
      .view_predicate =
          [run, read_in_place](JsonView v) {
            ++run->calls;
            run->seen = v.to_json();
            *read_in_place = v.index() != 0;
            return true;
          },
  });
  const Validator validator(object({{"s", a_object()}, {"r", r}}));
  EXPECT_EQ(validator.parse_and_validate(R"({"s":{"a":1,"x":2},"r":{"a":2}})").issues,
            Issues{unrecognized_x({"s"})});
  EXPECT_EQ(run->seen, json::parse(R"({"a":2})"));
  EXPECT_EQ(run->calls, 1U);
  EXPECT_TRUE(*read_in_place);
}

// Case `abortingIssueBeside`: an aborting issue stops the refinement; both issues are reported.
TEST(ZodUndeclaredKeysBelowARefinement, AnAbortingIssueBesideTheKeyStopsTheRefinement) {
  const RefinedRun run = validate_refined(a_object(), R"({"a":"one","x":2})");
  EXPECT_EQ(
      run.issues,
      (Issues{{IssueCode::invalid_type, {"a"}, "Invalid input: expected number, received string"},
              unrecognized_x({})}));
  EXPECT_EQ(run.calls, 0U);
}

// Case `calls`: each item's refinement runs once (3), the list object's once, and both see the
// items without their keys, so neither fails.
TEST(ZodUndeclaredKeysBelowARefinement, EachRefinementRunsOnceBesideUndeclaredKeys) {
  const auto item_calls = std::make_shared<std::size_t>(0);
  const auto outer_calls = std::make_shared<std::size_t>(0);
  const Schema item = a_object().refine(
      [item_calls](const json& v) {
        ++*item_calls;
        return has_one_key(v);
      },
      "item has one key");
  const Validator validator(object({{"list", array(item)}})
                                .refine(
                                    [outer_calls](const json& v) {
                                      ++*outer_calls;
                                      const json& list = v.at("list");
                                      return std::all_of(list.begin(), list.end(), has_one_key);
                                    },
                                    "every item has one key"));
  const Issues issues =
      validator.parse_and_validate(R"({"list":[{"a":1,"x":2},{"a":2},{"a":3,"y":1}]})").issues;
  EXPECT_EQ(
      issues,
      (Issues{
          unrecognized_x({"list", std::size_t{0}}),
          {IssueCode::unrecognized_keys, {"list", std::size_t{2}}, R"(Unrecognized key: "y")"}}));
  EXPECT_EQ(*item_calls, 3U);
  EXPECT_EQ(*outer_calls, 1U);
}

// Case `optionRefinedInside`: the option's own refinement and the object's both run once, and
// neither sees the key.
TEST(ZodUndeclaredKeysBelowARefinement, ARefinementInsideTheHandedOnOptionSeesItWithoutTheKey) {
  const auto seen = std::make_shared<std::vector<json>>();
  const auto spy = [seen](const json& v) {
    seen->push_back(v);
    return true;
  };
  const Validator validator(
      object({{"either", union_({a_object().refine(spy, "never"), number()})}})
          .refine(spy, "never"));
  EXPECT_EQ(validator.parse_and_validate(R"({"either":{"a":1,"x":2}})").issues,
            Issues{unrecognized_x({"either"})});
  EXPECT_EQ(*seen,
            (std::vector<json>{json::parse(R"({"a":1})"), json::parse(R"({"either":{"a":1}})")}));
}

// Case `refinedObject` with a view predicate: it reads the value as the JSON predicate sees it.
TEST(ZodUndeclaredKeysBelowARefinement, AViewPredicateSeesTheValueWithoutTheKey) {
  const Validator validator(a_object().refine(Refinement{
      .predicate = nullptr,
      .message = "one key",
      .view_predicate = [](JsonView v) { return v.size() == 1; },
  }));
  EXPECT_EQ(validator.parse_and_validate(R"({"a":1,"x":2})").issues, Issues{unrecognized_x({})});
}

struct Measured {
  double a = 0;
};
BOOST_DESCRIBE_STRUCT(Measured, (), (a))

// Case `refinedObjectFails` with a typed refinement: a struct has no place for the key, so the
// engine reads the value in place, key and all (Refinement::reads_declared_members_only), and the
// verdict is Zod's: the refinement runs once, on `a`, and its issue follows the extra key's.
TEST(ZodUndeclaredKeysBelowARefinement, ATypedRefinementRunsOnceAfterTheUnrecognizedKeys) {
  const auto calls = std::make_shared<std::size_t>(0);
  const Validator validator(typed<Measured>().refine(
      [calls](const Measured& m) {
        ++*calls;
        return m.a > 5;
      },
      "a is over 5"));
  EXPECT_EQ(validator.parse_and_validate(R"({"a":1,"x":2})").issues,
            (Issues{unrecognized_x({}), {IssueCode::custom, {}, "a is over 5"}}));
  EXPECT_EQ(*calls, 1U);
}

}  // namespace accord::undeclared_keys_test
