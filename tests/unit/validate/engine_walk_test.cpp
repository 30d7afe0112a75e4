// The engine's walk made cheaper (#26) must read exactly as before: refinements found through
// the DSL nodes bound to each property once when the engine is built, issue paths made from the
// chain of links only when an issue is kept, the enum and const words made when compiled, and
// the wrapper steps (nullable, $ref, unions) skipped by plain nodes only.

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "accord/schema.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using nlohmann::json;

bool walk_is_short(const json& text) {
  return text.get<std::string>().size() < 4;
}

// One refined string reached through every kind of container the binding follows.
Schema walk_schema() {
  const Schema code = string().refine(walk_is_short, "code is too long");
  return object({
      {"plain", code},
      {"inner", object({{"code", code}})},
      {"maybe", object({{"code", code}}).nullable()},
      {"list", array(object({{"code", code}}))},
      {"byName", record(object({{"code", code}}))},
      {"either", union_({object({{"code", code}}), number()})},
  });
}

Issues walk_issues(const std::string& text) {
  return Validator(walk_schema()).parse_and_validate(text).issues;
}

TEST(EngineWalk, FieldRefinementsRunAtEveryDepthAndWrapper) {
  const Issues issues =
      walk_issues(R"({"plain":"long","inner":{"code":"long"},"maybe":{"code":"long"},)"
                  R"("list":[{"code":"ok"},{"code":"long"}],"byName":{"k":{"code":"long"}},)"
                  R"("either":{"code":"long"}})");
  ASSERT_EQ(issues.size(), 6U) << prettify(issues);
  EXPECT_EQ(issues[0].path, (Path{"plain"}));
  EXPECT_EQ(issues[1].path, (Path{"inner", "code"}));
  EXPECT_EQ(issues[2].path, (Path{"maybe", "code"}));
  EXPECT_EQ(issues[3].path, (Path{"list", std::size_t{1}, "code"}));
  EXPECT_EQ(issues[4].path, (Path{"byName", "k", "code"}));
  EXPECT_EQ(issues[5].path, (Path{"either", "code"}));
  for (const auto& issue : issues) EXPECT_EQ(issue.message, "code is too long");
}

TEST(EngineWalk, NullWrapperPassesWithoutItsFieldsRefinements) {
  EXPECT_TRUE(walk_issues(R"({"plain":"ok","inner":{"code":"ok"},"maybe":null,)"
                          R"("list":[],"byName":{},"either":1})")
                  .empty());
}

TEST(EngineWalk, IssuePathJoinsTheLinksAndTheRulesOwnPath) {
  const Schema schema = object({
      {"orders", array(object({
                                  {"from", string()},
                                  {"to", string()},
                              })
                           .refine([](const json& o) { return o.at("to") >= o.at("from"); },
                                   "to is before from", {.path = {"to"}}))},
  });
  const Issues issues = Validator(schema)
                            .parse_and_validate(R"({"orders":[{"from":"a","to":"b"},)"
                                                R"({"from":"b","to":"a"}]})")
                            .issues;
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].path, (Path{"orders", std::size_t{1}, "to"}));
  EXPECT_EQ(issues[0].path.to_string(), "orders[1].to");
}

TEST(EngineWalk, EnumAndConstIssuesAreWordedAsZodWordsThem) {
  const Validator validator = Validator::from_json_schema(nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "one": {"enum": ["a"]},
      "many": {"enum": ["a", 1.5, null, true]},
      "fixed": {"const": 2.50},
      "shape": {"const": {"k": [1]}}
    }
  })"));
  const Issues issues =
      validator.parse_and_validate(R"({"one":"b","many":"b","fixed":3,"shape":{}})").issues;
  ASSERT_EQ(issues.size(), 4U) << prettify(issues);
  EXPECT_EQ(issues[0].message, "Invalid input: expected \"a\"");
  EXPECT_EQ(issues[1].message, "Invalid option: expected one of \"a\"|1.5|null|true");
  EXPECT_EQ(issues[2].message, "Invalid input: expected 2.5");
  EXPECT_EQ(issues[3].message, "Invalid input: expected {\"k\":[1]}");
  for (const auto& issue : issues) EXPECT_EQ(issue.code, IssueCode::invalid_value);
}

TEST(EngineWalk, IssuesOfOneValueComeInTheOrderPropertiesAreDeclared) {
  // Declared out of key order: the walk finds the members in key order, reports in this one.
  const Schema schema = object({
      {"zeta", number()},
      {"alpha", number()},
      {"mid", number()},
  });
  const Issues issues =
      Validator(schema).parse_and_validate(R"({"alpha":"x","mid":"y","zeta":"z"})").issues;
  ASSERT_EQ(issues.size(), 3U) << prettify(issues);
  EXPECT_EQ(issues[0].path, (Path{"zeta"}));
  EXPECT_EQ(issues[1].path, (Path{"alpha"}));
  EXPECT_EQ(issues[2].path, (Path{"mid"}));
}

// The words of a type and a pattern issue are put together when compiled: the first type that
// is not null, "int" for a number given to an integer, the pattern as Zod shows it.
TEST(EngineWalk, TypeAndPatternIssuesAreWordedAsZodWordsThem) {
  const Validator validator = Validator::from_json_schema(nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "count": {"type": ["null", "integer"]},
      "path": {"type": "string", "pattern": "^a/b$"},
      "code": {"type": "string", "pattern": "^ORD-"}
    }
  })"));
  const Issues issues =
      validator.parse_and_validate(R"({"count":1.5,"path":"a","code":"x"})").issues;
  ASSERT_EQ(issues.size(), 3U) << prettify(issues);
  EXPECT_EQ(issues[0].message, "Invalid input: expected int, received number");
  EXPECT_EQ(issues[1].message, "Invalid string: must match pattern /^a\\/b$/");
  EXPECT_EQ(issues[2].message, "Invalid string: must start with \"ORD-\"");
  EXPECT_EQ(validator.parse_and_validate(R"({"count":"x"})").issues.at(0).message,
            "Invalid input: expected number, received string");
}

// Lengths are decided from the byte count where it settles them (1 to 4 bytes a code point) and
// counted otherwise: multi-byte text at both bounds.
TEST(EngineWalk, LengthsCountCodePointsWhateverTheBytes) {
  const Validator validator(object({{"s", string().min(3).max(4)}}));
  const auto valid = [&](const std::string& text) {
    return validator.parse_and_validate(R"({"s":")" + text + R"("})").issues.empty();
  };
  EXPECT_FALSE(valid("日本"));   // 6 bytes, 2 code points
  EXPECT_TRUE(valid("日本語"));  // 9 bytes, 3
  EXPECT_TRUE(valid("😀😀😀😀"));    // 16 bytes, 4
  EXPECT_FALSE(valid("😀😀😀😀😀"));  // 20 bytes, 5
  EXPECT_FALSE(valid("ab"));     // 2 bytes
  EXPECT_TRUE(valid("abcd"));    // 4 bytes
  EXPECT_FALSE(valid("abcde"));  // 5 bytes
  EXPECT_TRUE(valid("a😀é"));     // 7 bytes, 3
}

// A tree built in code may hold bytes no parse would accept; continuation bytes alone count as
// no code points, as they did before the byte-count shortcuts.
TEST(EngineWalk, ContinuationBytesAloneCountAsNoCodePoints) {
  const Validator at_least_one(object({{"s", string().min(1)}}));
  EXPECT_FALSE(at_least_one.validate({{"s", std::string(4, '\x80')}}).empty());
  const Validator at_most_one(object({{"s", string().max(1)}}));
  EXPECT_TRUE(at_most_one.validate({{"s", std::string(8, '\x80')}}).empty());
}

// A leaf (a node checking its value's own text or number) reached through a $ref, alone or as a
// union's option, is judged by the same leaf steps as one written in place, and both give the
// issues of the same node judged by the general steps (an `allOf: [{}]` beside it makes it no
// leaf).
TEST(EngineWalk, ALeafReachedThroughARefIsJudgedAsOneWrittenInPlace) {
  const auto schema = [](const std::string& v, const std::string& w, const std::string& defs) {
    return Validator::from_json_schema(nlohmann::ordered_json::parse(
        R"({"$defs":{"leaf":)" + defs + R"(},"type":"object","properties":{"v":)" + v +
        R"(,"w":{"anyOf":[{"type":"boolean"},)" + w + "]}}}"));
  };
  const std::pair<std::string, std::string> cases[] = {
      {R"({"type":"string","minLength":3,"pattern":"^a"})", R"("bc")"},
      {R"({"type":"string","format":"email"})", R"("nope")"},
      {R"({"type":"number","minimum":1,"multipleOf":2})", "0.5"},
      {R"({"type":"integer","minimum":-1,"maximum":5})", "-2"},
      {R"({"type":"integer","minimum":-1,"maximum":5})", "18446744073709551615"},
      {R"({"enum":["x","y"]})", R"("z")"},
      {R"({"enum":[1,"y"]})", "2"},
      {R"({"type":"integer"})", R"("1")"},
      {R"({"type":"string","minLength":3})", R"("abc")"},
  };
  for (const auto& [leaf, text] : cases) {
    const std::string general = R"({"allOf":[{}],)" + leaf.substr(1);
    const Validator in_place = schema(leaf, leaf, "{}");
    const Validator through_ref =
        schema(R"({"$ref":"#/$defs/leaf"})", R"({"$ref":"#/$defs/leaf"})", leaf);
    const Validator not_a_leaf = schema(general, general, "{}");
    for (const char* key : {"v", "w"}) {
      const std::string document = std::string("{\"") + key + "\":" + text + "}";
      const auto expected = not_a_leaf.parse_and_validate(document).issues;
      EXPECT_EQ(in_place.parse_and_validate(document).issues, expected) << leaf << " " << document;
      EXPECT_EQ(through_ref.parse_and_validate(document).issues, expected)
          << leaf << " " << document;
    }
  }
}

// Each value as member "v" gets the same issues from the leaf `member` (keywords written without
// braces, under `dialect` when one is given) as from the same keywords beside `allOf: [{}]`,
// which makes the node no leaf: the general steps are the oracle.
void expect_leaf_judges_as_general_steps(const std::string& member,
                                         const std::vector<std::string>& values,
                                         const std::string& dialect = "") {
  const auto validator = [&](const std::string& keywords) {
    const std::string root = dialect.empty() ? "" : R"("$schema":")" + dialect + "\",";
    return Validator::from_json_schema(nlohmann::ordered_json::parse(
        "{" + root + R"("type":"object","properties":{"v":{)" + keywords + "}}}"));
  };
  const Validator leaf = validator(member);
  const Validator general = validator(R"("allOf":[{}],)" + member);
  for (const std::string& value : values) {
    const std::string document = R"({"v":)" + value + "}";
    EXPECT_EQ(leaf.parse_and_validate(document).issues, general.parse_and_validate(document).issues)
        << dialect << " " << member << " " << value;
  }
}

// A member's leaf with only number bounds passes a value inside them without running its units;
// every value, inside or outside, exact as a double or not (past 2^53, a uint64, a float, a
// float an integer type takes or not), gets the issues the general steps give it; so do bounds
// beside multipleOf and draft-04's boolean exclusive forms.
TEST(EngineWalk, ALeafsNumberBoundsJudgeAsItsUnitsDo) {
  const std::vector<std::string> numbers = {"0",
                                            "-0.0",
                                            "0.5",
                                            "1",
                                            "1.0",
                                            "1.5",
                                            "-1",
                                            "500",
                                            "9999.99",
                                            "10000",
                                            "9007199254740991",
                                            "9007199254740992",
                                            "9007199254740993",
                                            "18446744073709551615",
                                            "-9223372036854775808",
                                            "-9007199254740993",
                                            "1e19",
                                            "-1e300"};
  for (const char* type : {"number", "integer"}) {
    for (const char* keyword : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}) {
      for (const std::string& bound : numbers) {
        expect_leaf_judges_as_general_steps(
            std::string(R"("type":")") + type + R"(",")" + keyword + "\":" + bound, numbers);
      }
    }
  }
  expect_leaf_judges_as_general_steps(R"("type":"number","minimum":0,"multipleOf":0.5)", numbers);
  expect_leaf_judges_as_general_steps(R"("type":"integer","maximum":500,"multipleOf":3)", numbers);
  for (const char* draft4 : {R"("type":"number","minimum":0,"exclusiveMinimum":true)",
                             R"("type":"number","maximum":500,"exclusiveMaximum":true)",
                             R"("type":"integer","minimum":1,"exclusiveMinimum":false)"}) {
    expect_leaf_judges_as_general_steps(draft4, numbers, "http://json-schema.org/draft-04/schema#");
  }
}

// The same for a leaf with only string bounds: lengths in code points (2- and 4-byte UTF-8
// characters), a checked format and a pattern of the byte-loop subset, each passed or failed
// alone and together.
TEST(EngineWalk, ALeafsStringBoundsJudgeAsItsUnitsDo) {
  const char* leaves[] = {
      R"("type":"string","minLength":3,"maxLength":5)",
      R"("type":"string","format":"email")",
      R"("type":"string","pattern":"^acct_[a-z0-9]+$")",
      R"("type":"string","format":"date","pattern":"^\\d{4}-\\d{2}-\\d{2}$")",
      R"("type":"string","minLength":2,"format":"email","pattern":"^a")",
  };
  // U+1F600, four bytes: five of them are 20 bytes and 5 code points.
  const std::string emoji = "\xF0\x9F\x98\x80";
  const std::vector<std::string> texts = {
      R"("")",
      R"("ab")",
      R"("abc")",
      R"("ééé")",
      R"("abcdef")",
      R"("a@b.co")",
      R"("acct_x9")",
      R"("acct_")",
      R"("2024-02-30")",
      R"("2024-02-03")",
      R"(7)",
      R"(null)",
      '"' + emoji + emoji + '"',
      '"' + emoji + emoji + emoji + emoji + emoji + '"',
      '"' + emoji + emoji + emoji + emoji + emoji + emoji + '"'};
  for (const char* leaf : leaves) expect_leaf_judges_as_general_steps(leaf, texts);
}

bool has_no_x(const json& text) {
  return text.get<std::string>().find('x') == std::string::npos;
}

// A DSL leaf with bounds and a refinement runs its refinement whatever the bounds say: a value
// inside them is not passed by the quick check alone. The oracle is the predicate itself.
TEST(EngineWalk, ALeafsRefinementRunsForAValueInsideItsBounds) {
  const Validator validator(object({{"v", string().min(2).max(5).refine(has_no_x, "has an x")}}));
  for (const char* text : {"ab", "abcde", "axb", "xxxxx"}) {
    const Issues issues = validator.parse_and_validate(json{{"v", text}}.dump()).issues;
    if (has_no_x(json(text))) {
      EXPECT_TRUE(issues.empty()) << text << " " << prettify(issues);
    } else {
      ASSERT_EQ(issues.size(), 1U) << text << " " << prettify(issues);
      EXPECT_EQ(issues[0].message, "has an x");
    }
  }
}

// The leaf steps report every failed check of a leaf, in the schema's order, at the member's path.
TEST(EngineWalk, ALeafReportsEachFailedCheckInOrder) {
  const auto validator = Validator::from_json_schema(nlohmann::ordered_json::parse(
      R"({"type":"object","properties":{"v":{"type":"string","minLength":3,"pattern":"^a"}}})"));
  const auto issues = validator.parse_and_validate(R"({"v":"bc"})").issues;
  ASSERT_EQ(issues.size(), 2U);
  EXPECT_EQ(issues[0].code, IssueCode::too_small);
  EXPECT_EQ(issues[1].code, IssueCode::invalid_format);
  EXPECT_EQ(issues[0].path, Path{} / "v");
  EXPECT_EQ(issues[1].path, Path{} / "v");
  EXPECT_TRUE(validator.parse_and_validate(R"({"v":"abc"})").ok());
}

// x-accord-rules on a field with a declared default and on one patternProperties match too,
// over `padding` more declared properties.
Validator ruled_validator(int padding) {
  auto schema = nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "limit": {"type": "number", "default": 100},
      "amount": {"type": "number"},
      "x_fee": {"type": "number"}
    },
    "patternProperties": {"^x_": {"type": "number"}},
    "x-accord-rules": [
      {"rule": "amount <= limit", "message": "over the limit"},
      {"rule": "x_fee <= amount", "message": "fee over the amount"}
    ]
  })");
  for (int i = 0; i < padding; ++i) {
    schema["properties"]["pad" + std::to_string(i)] = {{"type", "string"}};
  }
  return Validator::from_json_schema(schema);
}

TEST(EngineWalk, RulesReadTheFoundValuesAsTheyReadFieldsLookedUp) {
  // 3 declared properties: their values found in one pass; 17: each looked up. The keys come in
  // another order than the one declared.
  const Validator found = ruled_validator(0);
  const Validator looked_up = ruled_validator(14);
  std::size_t issues = 0;
  for (const char* text :
       {R"({"amount":150})", R"({"amount":50})",
        R"({"x_fee":60,"x_tip":1,"amount":50,"limit":200})",
        R"({"x_fee":10,"amount":300,"limit":200})", R"({"amount":50,"limit":10})"}) {
    const Issues from_found = found.parse_and_validate(text).issues;
    EXPECT_EQ(from_found, looked_up.parse_and_validate(text).issues) << text;
    issues += from_found.size();
  }
  EXPECT_GT(issues, 0U);  // the comparison covers rules that fail
}

// Nested objects under two properties and a required third, over `padding` more declared
// properties: the object keywords' loop renames one link for each property.
Validator nested_validator(int padding) {
  auto schema = nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {
      "a": {"type": "object", "properties": {"x": {"type": "string"}}},
      "b": {"type": "object", "properties": {"y": {"type": "string"}}, "required": ["y"]},
      "c": {"type": "string"}
    },
    "required": ["c"]
  })");
  for (int i = 0; i < padding; ++i) {
    schema["properties"]["pad" + std::to_string(i)] = {{"type", "string"}};
  }
  return Validator::from_json_schema(schema);
}

TEST(EngineWalk, EachPropertysIssuesNameItsOwnPathAfterASiblingsNestedIssues) {
  // 3 declared properties: their values found in one pass; 17: each looked up.
  const Issues found = nested_validator(0).parse_and_validate(R"({"a":{"x":1},"b":{}})").issues;
  ASSERT_EQ(found.size(), 3U) << prettify(found);
  EXPECT_EQ(found[0].path, (Path{"a", "x"}));
  EXPECT_EQ(found[1].path, (Path{"b", "y"}));
  EXPECT_EQ(found[2].path, (Path{"c"}));
  EXPECT_EQ(found, nested_validator(14).parse_and_validate(R"({"a":{"x":1},"b":{}})").issues);
}

// Whether an object's refinements need its fields' defaults is decided once, by its DSL node:
// where it declares one the predicate sees it filled in, where it declares none the value is as
// written.
TEST(EngineWalk, AnObjectsRefinementSeesTheDefaultsItsFieldsDeclareOnly) {
  const Schema filled = object({{"k", string().default_("auto")}})
                            .refine([](const json& v) { return v.value("k", "") == "auto"; },
                                    "the default is not filled in");
  const Schema as_written =
      object({{"k", string().optional()}})
          .refine([](const json& v) { return !v.contains("k"); }, "a field appeared");
  const Validator validator(object({{"filled", filled}, {"as_written", as_written}}));
  const Issues issues = validator.parse_and_validate(R"({"filled":{},"as_written":{}})").issues;
  EXPECT_TRUE(issues.empty()) << prettify(issues);
}

// A refinement asking for the default its object's field declares: Zod fills it in before any
// refinement runs, so `{}` passes wherever the object is reached.
bool mode_is_filled(const json& v) {
  return v.value("mode", "") == "auto";
}

Schema mode_object() {
  return object({{"mode", string().default_("auto")}});
}

constexpr const char* kModeNotFilled = "the default mode is not filled in";

TEST(EngineWalk, ANamedDefinitionsRefinementSeesItsDefaultThroughEveryReference) {
  const Schema settings = mode_object().refine(mode_is_filled, kModeNotFilled).named("Settings");
  const Validator validator(object({{"first", settings}, {"again", array(ref("Settings"))}}));
  EXPECT_TRUE(validator.parse_and_validate(R"({"first":{},"again":[{},{}]})").issues.empty());
  const Issues issues =
      validator.parse_and_validate(R"({"first":{},"again":[{},{"mode":"manual"}]})").issues;
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].path, (Path{"again", std::size_t{1}}));
  EXPECT_EQ(issues[0].message, kModeNotFilled);
}

TEST(EngineWalk, AUnionOptionsRefinementSeesItsDefault) {
  const Validator validator(object(
      {{"either", union_({mode_object().refine(mode_is_filled, kModeNotFilled), number()})}}));
  EXPECT_TRUE(validator.parse_and_validate(R"({"either":{}})").issues.empty());
  EXPECT_TRUE(validator.parse_and_validate(R"({"either":2})").issues.empty());
  EXPECT_FALSE(validator.parse_and_validate(R"({"either":{"mode":"manual"}})").issues.empty());
}

TEST(EngineWalk, ANullableObjectsRefinementSeesItsDefault) {
  const Validator validator(
      object({{"maybe", mode_object().nullable().refine(mode_is_filled, kModeNotFilled)}}));
  EXPECT_TRUE(validator.parse_and_validate(R"({"maybe":{}})").issues.empty());
  EXPECT_TRUE(validator.parse_and_validate(R"({"maybe":null})").issues.empty());
  const Issues issues = validator.parse_and_validate(R"({"maybe":{"mode":"manual"}})").issues;
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].path, (Path{"maybe"}));
  EXPECT_EQ(issues[0].message, kModeNotFilled);
}

// A refinement on a use of ref(...) sees the defaults of the definition it refs, refs to refs
// followed. Zod 4.6.7 on the same schemas (`z.lazy(() => Plain).refine(...)`, Plain =
// `z.object({mode: z.string().default("auto")})`): `{"again":{}}` passes, `{"again":{"mode":
// "manual"}}` fails with one issue at ["again"] carrying the refinement's message; the same through
// `Alias = z.lazy(() => Plain)`; with `mode: z.string().optional()` and a "mode is absent"
// refinement, `{"again":{}}` passes.
void expect_again_refined_as_zod_refines(const Validator& validator, const char* message) {
  EXPECT_TRUE(validator.parse_and_validate(R"({"again":{}})").issues.empty());
  const Issues issues = validator.parse_and_validate(R"({"again":{"mode":"manual"}})").issues;
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].path, (Path{"again"}));
  EXPECT_EQ(issues[0].message, message);
}

TEST(EngineWalk, ARefinementOnARefUseSeesTheDefinitionsDefault) {
  const Schema plain = mode_object().named("Plain");
  expect_again_refined_as_zod_refines(
      Validator(object({{"first", plain.optional()},
                        {"again", ref("Plain").refine(mode_is_filled, kModeNotFilled)}})),
      kModeNotFilled);
}

TEST(EngineWalk, ARefinementOnARefToARefSeesTheDefinitionsDefault) {
  const Schema plain = mode_object().named("Plain");
  const Schema alias = ref("Plain").named("Alias");
  expect_again_refined_as_zod_refines(
      Validator(object({{"first", plain.optional()},
                        {"alias", alias.optional()},
                        {"again", ref("Alias").refine(mode_is_filled, kModeNotFilled)}})),
      kModeNotFilled);
}

TEST(EngineWalk, ARefinementOnARefWhoseDefinitionDeclaresNoDefaultSeesTheValueAsWritten) {
  const Schema bare = object({{"mode", string().optional()}}).named("Bare");
  constexpr const char* kFieldAppeared = "a field appeared";
  expect_again_refined_as_zod_refines(
      Validator(
          object({{"first", bare.optional()},
                  {"again", ref("Bare").refine([](const json& v) { return !v.contains("mode"); },
                                               kFieldAppeared)}})),
      kFieldAppeared);
}

// The one link the object loop renames per property must carry the failing property's own name
// to a refinement's issue, after a sibling's nested issue was kept.
TEST(EngineWalk, ARefinementAfterASiblingsNestedIssueNamesItsOwnProperty) {
  const Validator validator(object(
      {{"a", object({{"x", string()}})}, {"b", string().refine(walk_is_short, "b is too long")}}));
  const Issues issues = validator.parse_and_validate(R"({"a":{"x":1},"b":"long"})").issues;
  ASSERT_EQ(issues.size(), 2U) << prettify(issues);
  EXPECT_EQ(issues[0].path, (Path{"a", "x"}));
  EXPECT_EQ(issues[0].message, "Invalid input: expected string, received number");
  EXPECT_EQ(issues[1].path, (Path{"b"}));
  EXPECT_EQ(issues[1].message, "b is too long");
}

// A `then` that requires a property it declares (untyped: a typed one is reported in Zod's words)
// after another: the missing property's issue quotes its own key, read from the renamed link.
TEST(EngineWalk, AConditionallyRequiredPropertyIsQuotedByItsOwnName) {
  const auto schema = nlohmann::ordered_json::parse(R"({
    "type": "object",
    "properties": {"account_type": {"type": "string"}},
    "if": {"properties": {"account_type": {"const": "domestic"}}, "required": ["account_type"]},
    "then": {"properties": {"iban": {"type": "string"}, "sort_code": {"minLength": 6}},
             "required": ["sort_code"]}
  })");
  const Issues issues = Validator::from_json_schema(schema)
                            .parse_and_validate(R"({"account_type":"domestic","iban":"x"})")
                            .issues;
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].path, (Path{"sort_code"}));
  EXPECT_EQ(issues[0].message, "\"sort_code\" is required when \"account_type\" is \"domestic\"");
}

}  // namespace
}  // namespace accord
