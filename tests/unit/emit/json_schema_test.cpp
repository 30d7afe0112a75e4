#include "accord/json_schema.hpp"

#include <gtest/gtest.h>

#include "../examples/schemas/refund.hpp"
#include "../examples/schemas/transfer.hpp"
#include "fixtures/schema_problems.hpp"

namespace accord {
namespace {

using Json = nlohmann::ordered_json;

using testing_schemas::pass;

// The emitted root without "$schema", compact, so key order is part of what a test compares.
std::string wire(const Schema& schema, Dialect dialect = Dialect::draft2020_12) {
  auto json = emit(schema, {.dialect = dialect}).json;
  json.erase("$schema");
  return json.dump();
}

// The one field `schema` is, emitted inside an object (as field "f").
std::string field_wire(const Schema& schema, Dialect dialect = Dialect::draft2020_12) {
  return emit(object({{"f", schema}}), {.dialect = dialect}).json["properties"]["f"].dump();
}

std::vector<ReportEntry> entries(const Schema& schema, Dialect dialect = Dialect::draft2020_12) {
  return emit(schema, {.dialect = dialect}).report.entries();
}

// The single Report entry of a scalar schema with one rule.
ReportEntry only_entry(const Schema& schema) {
  auto all = entries(schema);
  EXPECT_EQ(all.size(), 1u);
  return all.empty() ? ReportEntry{} : all.front();
}

// ---- dialects -------------------------------------------------------------------------------

TEST(Emit, RootNamesDraft2020_12) {
  EXPECT_EQ(emit(string()).json.dump(),
            R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string"})");
}

TEST(Emit, RootNamesDraft07) {
  EXPECT_EQ(emit(string(), {.dialect = Dialect::draft07}).json.dump(),
            R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"string"})");
}

TEST(Emit, IsDeterministic) {
  EXPECT_EQ(emit(examples::refund_schema()).json.dump(),
            emit(examples::refund_schema()).json.dump());
}

// ---- strings --------------------------------------------------------------------------------

TEST(EmitString, MinAndMaxBecomeLengths) {
  EXPECT_EQ(wire(string().min(3).max(120)), R"({"type":"string","minLength":3,"maxLength":120})");
}

TEST(EmitString, LengthGivesBothLengths) {
  EXPECT_EQ(wire(string().length(5)), R"({"type":"string","minLength":5,"maxLength":5})");
}

TEST(EmitString, StrictestLengthWins) {
  EXPECT_EQ(wire(string().min(2).min(4).max(9).max(7)),
            R"({"type":"string","minLength":4,"maxLength":7})");
}

TEST(EmitString, RegexBecomesPattern) {
  EXPECT_EQ(wire(string().regex(R"(^ORD-\d{6}$)")),
            R"({"type":"string","pattern":"^ORD-\\d{6}$"})");
}

TEST(EmitString, StartsWithBecomesAnchoredEscapedPattern) {
  EXPECT_EQ(wire(string().starts_with("a.b(")), R"({"type":"string","pattern":"^a\\.b\\("})");
}

TEST(EmitString, EndsWithBecomesAnchoredEscapedPattern) {
  EXPECT_EQ(wire(string().ends_with(".com")), R"({"type":"string","pattern":"\\.com$"})");
}

TEST(EmitString, IncludesBecomesEscapedPattern) {
  EXPECT_EQ(wire(string().includes("a/b|c")), R"({"type":"string","pattern":"a\\/b\\|c"})");
}

TEST(EmitString, EscapingCoversEveryEcmaMetacharacter) {
  EXPECT_EQ(emit(string().includes(R"(^$\.*+?()[]{}|/)")).json["pattern"],
            R"(\^\$\\\.\*\+\?\(\)\[\]\{\}\|\/)");
}

TEST(EmitString, ExtraPatternsGoInAllOf) {
  EXPECT_EQ(wire(string().starts_with("a").regex("b").ends_with("c")),
            R"({"type":"string","pattern":"^a","allOf":[{"pattern":"b"},{"pattern":"c$"}]})");
}

TEST(EmitString, EachFormatBecomesFormat) {
  EXPECT_EQ(wire(string().email()), R"({"type":"string","format":"email"})");
  EXPECT_EQ(wire(string().uri()), R"({"type":"string","format":"uri"})");
  EXPECT_EQ(wire(string().uuid()), R"({"type":"string","format":"uuid"})");
  EXPECT_EQ(wire(string().date_time()), R"({"type":"string","format":"date-time"})");
  EXPECT_EQ(wire(string().time()), R"({"type":"string","format":"time"})");
}

TEST(EmitString, DateAddsTheDateShapePattern) {
  EXPECT_EQ(wire(string().date()),
            R"({"type":"string","format":"date","pattern":"^\\d{4}-\\d{2}-\\d{2}$"})");
}

TEST(EmitString, DateKeepsTheUsersPatternInstead) {
  EXPECT_EQ(wire(string().date().regex("^2024")),
            R"({"type":"string","format":"date","pattern":"^2024"})");
}

TEST(EmitString, KeywordOrderIsLengthsFormatPattern) {
  EXPECT_EQ(wire(string().regex("x").email().max(9).min(1)),
            R"({"type":"string","minLength":1,"maxLength":9,"format":"email","pattern":"x"})");
}

// ---- numbers --------------------------------------------------------------------------------

TEST(EmitNumber, BoundsBecomeTheirKeywordsInOrder) {
  EXPECT_EQ(wire(number().multiple_of(5).lte(100).lt(101).gte(1).gt(0)),
            R"({"type":"number","exclusiveMinimum":0,"minimum":1,"exclusiveMaximum":101,)"
            R"("maximum":100,"multipleOf":5})");
}

TEST(EmitNumber, MinAndMaxAreMinimumAndMaximum) {
  EXPECT_EQ(wire(number().min(1).max(10000)), R"({"type":"number","minimum":1,"maximum":10000})");
}

TEST(EmitNumber, PositiveIsExclusiveMinimumZero) {
  EXPECT_EQ(wire(number().positive()), R"({"type":"number","exclusiveMinimum":0})");
}

TEST(EmitNumber, NegativeIsExclusiveMaximumZero) {
  EXPECT_EQ(wire(number().negative()), R"({"type":"number","exclusiveMaximum":0})");
}

TEST(EmitNumber, FractionalBoundsStayFractional) {
  EXPECT_EQ(wire(number().gte(0.5).multiple_of(0.25)),
            R"({"type":"number","minimum":0.5,"multipleOf":0.25})");
}

TEST(EmitNumber, WholeNumbersAreWrittenAsIntegers) {
  EXPECT_EQ(emit(number().lte(3.0)).json["maximum"].dump(), "3");
}

TEST(EmitNumber, IntegerHasIntegerType) {
  EXPECT_EQ(wire(integer().nonnegative()), R"({"type":"integer","minimum":0})");
}

TEST(EmitNumber, SecondDivisorGoesInAllOf) {
  EXPECT_EQ(wire(integer().multiple_of(2).multiple_of(3)),
            R"({"type":"integer","multipleOf":2,"allOf":[{"multipleOf":3}]})");
}

// ---- other kinds ----------------------------------------------------------------------------

TEST(EmitKinds, BooleanNullAndAny) {
  EXPECT_EQ(wire(boolean()), R"({"type":"boolean"})");
  EXPECT_EQ(wire(null_()), R"({"type":"null"})");
  EXPECT_EQ(wire(any()), R"({})");
}

TEST(EmitKinds, AnyWithDescriptionHasOnlyTheDescription) {
  EXPECT_EQ(wire(any().describe("anything")), R"({"description":"anything."})");
}

TEST(EmitKinds, ArrayWithItemsAndCounts) {
  EXPECT_EQ(wire(array(string()).min(1).max(3)),
            R"({"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3})");
}

TEST(EmitKinds, NonemptyArrayIsMinItemsOne) {
  EXPECT_EQ(wire(array(number()).nonempty()),
            R"({"type":"array","items":{"type":"number"},"minItems":1})");
}

TEST(EmitKinds, TupleIn2020_12UsesPrefixItems) {
  EXPECT_EQ(wire(tuple({string(), number()})),
            R"({"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],)"
            R"("items":false,"minItems":2,"maxItems":2})");
}

TEST(EmitKinds, TupleInDraft07UsesItemsArray) {
  EXPECT_EQ(wire(tuple({string(), number()}), Dialect::draft07),
            R"({"type":"array","items":[{"type":"string"},{"type":"number"}],)"
            R"("additionalItems":false,"minItems":2,"maxItems":2})");
}

TEST(EmitKinds, EnumerationIsStringEnum) {
  EXPECT_EQ(wire(enumeration({"EUR", "USD"})), R"({"type":"string","enum":["EUR","USD"]})");
}

TEST(EmitKinds, LiteralHasItsValuesTypeAndConst) {
  EXPECT_EQ(wire(literal("card")), R"({"type":"string","const":"card"})");
  EXPECT_EQ(wire(literal(3)), R"({"type":"integer","const":3})");
  EXPECT_EQ(wire(literal(2.5)), R"({"type":"number","const":2.5})");
  EXPECT_EQ(wire(literal(true)), R"({"type":"boolean","const":true})");
}

TEST(EmitKinds, UnionIsAnyOf) {
  EXPECT_EQ(wire(union_({string(), number()})),
            R"({"anyOf":[{"type":"string"},{"type":"number"}]})");
}

TEST(EmitKinds, UnionDescriptionLeadsItsKeywords) {
  EXPECT_EQ(wire(union_({string(), number()}).describe("either")),
            R"({"description":"either.","anyOf":[{"type":"string"},{"type":"number"}]})");
}

TEST(EmitKinds, DiscriminatedUnionIsOneOfWithConstTags) {
  EXPECT_EQ(wire(discriminated_union(
                "kind", {object({{"kind", literal("a")}}), object({{"kind", literal("b")}})})),
            R"({"oneOf":[)"
            R"({"type":"object","properties":{"kind":{"type":"string","const":"a"}},)"
            R"("required":["kind"],"additionalProperties":false},)"
            R"({"type":"object","properties":{"kind":{"type":"string","const":"b"}},)"
            R"("required":["kind"],"additionalProperties":false}]})");
}

TEST(EmitKinds, NullableWrapsInAnyOfWithNull) {
  EXPECT_EQ(wire(string().min(1).nullable()),
            R"({"anyOf":[{"type":"string","minLength":1},{"type":"null"}]})");
}

TEST(EmitKinds, NullableKeepsDescriptionDefaultAndExamplesOutside) {
  EXPECT_EQ(wire(string().describe("a name").nullable().default_(nullptr).examples({"Ann"})),
            R"({"anyOf":[{"type":"string"},{"type":"null"}],"description":"a name.",)"
            R"("default":null,"examples":["Ann"]})");
}

// ---- objects --------------------------------------------------------------------------------

TEST(EmitObject, PropertiesInOrderRequiredAndClosed) {
  EXPECT_EQ(wire(object({{"b", string()}, {"a", number()}})),
            R"({"type":"object","properties":{"b":{"type":"string"},"a":{"type":"number"}},)"
            R"("required":["b","a"],"additionalProperties":false})");
}

TEST(EmitObject, OptionalFieldLeavesRequired) {
  EXPECT_EQ(emit(object({{"a", string()}, {"memo", string().optional()}})).json["required"].dump(),
            R"(["a"])");
}

TEST(EmitObject, DefaultedFieldLeavesRequiredAndCarriesDefault) {
  const auto json = emit(object({{"a", string()}, {"key", string().default_("auto")}})).json;
  EXPECT_EQ(json["required"].dump(), R"(["a"])");
  EXPECT_EQ(json["properties"]["key"].dump(), R"({"type":"string","default":"auto"})");
}

TEST(EmitObject, NoRequiredKeyWhenEveryFieldIsOptional) {
  EXPECT_EQ(
      wire(object({{"a", string().optional()}})),
      R"({"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false})");
}

TEST(EmitObject, PassthroughOmitsAdditionalProperties) {
  EXPECT_EQ(wire(object({{"a", string()}}).passthrough()),
            R"({"type":"object","properties":{"a":{"type":"string"}},"required":["a"]})");
}

TEST(EmitObject, EmptyObjectStillHasProperties) {
  EXPECT_EQ(wire(object({})), R"({"type":"object","properties":{},"additionalProperties":false})");
}

// ---- descriptions, defaults, examples -------------------------------------------------------

TEST(EmitDescription, UserTextGetsAFullStop) {
  EXPECT_EQ(wire(string().describe("Stripe-style account id")),
            R"({"type":"string","description":"Stripe-style account id."})");
}

TEST(EmitDescription, ClosingPunctuationIsKept) {
  EXPECT_EQ(model_description(string().describe("Really?").node()), "Really?");
  EXPECT_EQ(model_description(string().describe("Stop!").node()), "Stop!");
  EXPECT_EQ(model_description(string().describe("Done.").node()), "Done.");
}

TEST(EmitDescription, RefineMessageReachesDescription) {
  EXPECT_EQ(wire(string().refine(pass, "note must not contain links")),
            R"({"type":"string","description":"Rule: note must not contain links."})");
}

TEST(EmitDescription, DescribeThenRefineKeepsBoth) {
  EXPECT_EQ(model_description(string().describe("A note").refine(pass, "no links").node()),
            "A note. Rule: no links.");
}

TEST(EmitDescription, CallOrderDoesNotChangeTheDescription) {
  const auto a = string().describe("A note").refine(pass, "no links").optional();
  const auto b = string().optional().refine(pass, "no links").describe("A note");
  EXPECT_EQ(field_wire(a), field_wire(b));
}

TEST(EmitDescription, EveryDescribedRefinementIsASentence) {
  EXPECT_EQ(model_description(number().refine(pass, "even").refine(pass, "not 13").node()),
            "Rule: even. Rule: not 13.");
}

TEST(EmitDescription, OptedOutRefinementStaysOutOfTheDescription) {
  EXPECT_EQ(wire(string().refine(pass, "secret", {.describe = false})), R"({"type":"string"})");
}

TEST(EmitDescription, RuleTextReplacesTheMessageForTheModel) {
  EXPECT_EQ(
      model_description(object({{"a", string()}})
                            .refine(pass, "a is wrong", {.path = {"a"}, .rule_text = "a is right"})
                            .node()),
      "Rule: a is right.");
}

TEST(EmitDescription, ObjectRefinementGoesOnTheObject) {
  const auto json = emit(object({{"amount", number()}}).refine(pass, "amounts are capped")).json;
  EXPECT_EQ(json["description"], "Rule: amounts are capped.");
}

TEST(EmitDescription, ObjectRuleGoesOnTheObjectAsTheRuleItself) {
  const auto schema = object({{"currency", string()}, {"amount", number()}})
                          .rule(when("currency", Op::eq, "eur").then("amount", Op::lte, 500),
                                "eur transfers are capped at 500");
  EXPECT_EQ(emit(schema).json["description"], R"(Rule: when currency == "eur", amount <= 500.)");
}

TEST(EmitDescription, RuleTextIsStatedBeforeTheFormula) {
  const auto json = emit(examples::transfer_schema()).json;
  EXPECT_EQ(json["description"],
            R"(Rule: eur transfers are capped at 500 (when currency == "eur", amount <= 500).)");
}

TEST(EmitDefaults, DefaultComesAfterKeywordsAndBeforeExamples) {
  EXPECT_EQ(
      wire(integer().min(1).examples({2, 3}).default_(1).describe("count")),
      R"({"type":"integer","description":"count.","minimum":1,"default":1,"examples":[2,3]})");
}

// ---- errors and strict ----------------------------------------------------------------------

TEST(EmitErrors, BadSchemaThrowsSchemaError) {
  EXPECT_THROW((void)emit(object({{"orderId", string().regex("(")}})), SchemaError);
}

TEST(EmitErrors, StrictRejectsLocalOnlyRulesWithTheirPaths) {
  const auto schema =
      object({{"a", string().refine(pass, "hidden a", {.describe = false})},
              {"b", array(number().refine(pass, "hidden b", {.describe = false}))}});
  try {
    (void)emit(schema, {.strict = true});
    FAIL() << "strict emit accepted local-only rules";
  } catch (const SchemaError& error) {
    ASSERT_EQ(error.problems().size(), 2u);
    EXPECT_EQ(error.problems()[0].path, Path{"a"});
    EXPECT_EQ(error.problems()[0].message,
              "strict: refine: hidden a is local-only (opted out of the description; enforced "
              "locally only)");
    EXPECT_EQ(error.problems()[1].path.to_string(), "b[]");
  }
}

TEST(EmitErrors, StrictAcceptsDescribedRefinements) {
  EXPECT_NO_THROW((void)emit(examples::refund_schema(), {.strict = true}));
}

// ---- Report entries per rule ------------------------------------------------------------------

TEST(EmitReport, DescribeEntry) {
  const auto e = only_entry(string().describe("Stripe-style account id"));
  EXPECT_EQ(e.rule, R"(describe "Stripe-style account id")");
  EXPECT_EQ(e.keyword, "description");
  EXPECT_EQ(e.fate, Fate::keyword);
}

TEST(EmitReport, ExamplesEntry) {
  const auto e = only_entry(string().examples({"a"}));
  EXPECT_EQ(e.rule, "examples");
  EXPECT_EQ(e.keyword, "examples");
}

TEST(EmitReport, StringLengthEntries) {
  const auto all = entries(string().min(3).max(120).length(5));
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].rule, "min_length 3");
  EXPECT_EQ(all[0].keyword, "minLength");
  EXPECT_EQ(all[1].rule, "max_length 120");
  EXPECT_EQ(all[1].keyword, "maxLength");
  EXPECT_EQ(all[2].rule, "length 5");
  EXPECT_EQ(all[2].keyword, "minLength,maxLength");
}

TEST(EmitReport, PatternEntries) {
  const auto all =
      entries(string().regex(R"(^ORD-\d{6}$)").starts_with("x").ends_with("y").includes("z"));
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].rule, R"(regex /^ORD-\d{6}$/)");
  EXPECT_EQ(all[1].rule, R"(starts_with "x")");
  EXPECT_EQ(all[2].rule, R"(ends_with "y")");
  EXPECT_EQ(all[3].rule, R"(includes "z")");
  for (const auto& e : all) EXPECT_EQ(e.keyword, "pattern");
}

TEST(EmitReport, DateFormatEntryMentionsPattern) {
  const auto e = only_entry(string().date());
  EXPECT_EQ(e.rule, "format date");
  EXPECT_EQ(e.keyword, "format,pattern");
}

TEST(EmitReport, DateFormatWithUserPatternIsFormatOnly) {
  EXPECT_EQ(entries(string().date().regex("^2")).at(0).keyword, "format");
}

TEST(EmitReport, OtherFormatEntry) {
  const auto e = only_entry(string().date_time());
  EXPECT_EQ(e.rule, "format date-time");
  EXPECT_EQ(e.keyword, "format");
}

TEST(EmitReport, NumberEntries) {
  const auto all = entries(number().gt(0).gte(1).lt(5).lte(10000).multiple_of(0.5));
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[0].rule, "gt 0");
  EXPECT_EQ(all[0].keyword, "exclusiveMinimum");
  EXPECT_EQ(all[1].rule, "gte 1");
  EXPECT_EQ(all[1].keyword, "minimum");
  EXPECT_EQ(all[2].rule, "lt 5");
  EXPECT_EQ(all[2].keyword, "exclusiveMaximum");
  EXPECT_EQ(all[3].rule, "lte 10000");
  EXPECT_EQ(all[3].keyword, "maximum");
  EXPECT_EQ(all[4].rule, "multiple_of 0.5");
  EXPECT_EQ(all[4].keyword, "multipleOf");
}

TEST(EmitReport, IntegerEntry) {
  const auto e = only_entry(integer());
  EXPECT_EQ(e.rule, "integer");
  EXPECT_EQ(e.keyword, "type");
}

TEST(EmitReport, ArrayCountEntriesSitOnTheArray) {
  const auto all = entries(array(string()).min(1).max(3));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].rule, "min_items 1");
  EXPECT_EQ(all[0].keyword, "minItems");
  EXPECT_EQ(all[1].rule, "max_items 3");
  EXPECT_EQ(all[1].keyword, "maxItems");
  EXPECT_TRUE(all[0].path.empty());
}

TEST(EmitReport, EnumAndLiteralEntries) {
  const auto e = only_entry(enumeration({"EUR", "USD"}));
  EXPECT_EQ(e.rule, R"(enum ["EUR","USD"])");
  EXPECT_EQ(e.keyword, "enum");
  const auto l = only_entry(literal("x"));
  EXPECT_EQ(l.rule, R"(literal "x")");
  EXPECT_EQ(l.keyword, "const");
}

TEST(EmitReport, OptionalAndDefaultEntries) {
  const auto all =
      entries(object({{"memo", string().optional()}, {"key", string().default_("auto")}}));
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[1].path, Path{"memo"});
  EXPECT_EQ(all[1].rule, "optional");
  EXPECT_EQ(all[1].keyword, "required");
  EXPECT_EQ(all[2].path, Path{"key"});
  EXPECT_EQ(all[2].rule, R"(default "auto")");
  EXPECT_EQ(all[2].keyword, "default");
}

TEST(EmitReport, NullableEntry) {
  const auto e = only_entry(string().nullable());
  EXPECT_EQ(e.rule, "nullable");
  EXPECT_EQ(e.keyword, "anyOf");
}

TEST(EmitReport, UnionEntries) {
  EXPECT_EQ(only_entry(union_({string(), number()})).rule, "union");
  const auto all = entries(discriminated_union(
      "kind", {object({{"kind", literal("a")}}), object({{"kind", literal("b")}})}));
  EXPECT_EQ(all.at(0).rule, "discriminated_union kind");
  EXPECT_EQ(all.at(0).keyword, "oneOf");
}

TEST(EmitReport, ClosedObjectEntry) {
  const auto e = only_entry(object({}));
  EXPECT_EQ(e.rule, "no unknown keys");
  EXPECT_EQ(e.keyword, "additionalProperties");
}

TEST(EmitReport, PassthroughObjectHasNoClosedEntry) {
  EXPECT_TRUE(entries(object({}).passthrough()).empty());
}

TEST(EmitReport, TupleEntryNamesTheDialectsKeywords) {
  EXPECT_EQ(only_entry(tuple({string()})).keyword, "prefixItems,items,minItems,maxItems");
  EXPECT_EQ(entries(tuple({string()}), Dialect::draft07).at(0).keyword,
            "items,additionalItems,minItems,maxItems");
}

TEST(EmitReport, DescribedRefinementHasFateDescription) {
  const auto e = only_entry(string().refine(pass, "note must not contain links"));
  EXPECT_EQ(e.rule, "refine: note must not contain links");
  EXPECT_EQ(e.keyword, "");
  EXPECT_EQ(e.fate, Fate::description);
  EXPECT_EQ(e.why,
            "no JSON Schema keyword can say this; stated in the description, enforced locally");
}

TEST(EmitReport, OptedOutRefinementIsLocalOnly) {
  const auto e = only_entry(string().refine(pass, "secret", {.describe = false}));
  EXPECT_EQ(e.fate, Fate::local_only);
  EXPECT_EQ(e.why, "opted out of the description; enforced locally only");
}

TEST(EmitReport, ObjectRefinementSitsOnTheObjectAndSaysWhereIssuesPoint) {
  const auto all =
      entries(object({{"a", object({{"b", string()}}).refine(pass, "m", {.path = {"b"}})}}));
  const auto& e = all.at(2);  // after the root's and a's closed-object entries
  EXPECT_EQ(e.path, Path{"a"});
  EXPECT_EQ(e.why,
            "no JSON Schema keyword can say this; stated in the description, enforced locally; "
            "issues point at a.b");
}

TEST(EmitReport, RuleTextIsNamedInTheWhy) {
  const auto e = only_entry(string().refine(pass, "bad", {.rule_text = "good"}));
  EXPECT_EQ(e.why, R"(no JSON Schema keyword can say this; stated in the description as "good", )"
                   "enforced locally");
}

TEST(EmitReport, EveryEntryIsStagedEmit) {
  for (const auto& e : entries(examples::transfer_schema())) EXPECT_EQ(e.stage, "emit");
}

TEST(EmitReport, PathsFollowTheValueConvention) {
  const auto all = entries(object({
      {"lines", array(object({{"sku", string().min(1)}}).passthrough())},
      {"pair", tuple({string(), number().gt(0)})},
      {"either", union_({string(), number().lt(0)}).nullable()},
  }));
  std::vector<std::string> paths;
  for (const auto& e : all) paths.push_back(e.path.to_string());
  EXPECT_EQ(paths, (std::vector<std::string>{"", "lines[].sku", "pair", "pair[1]", "either",
                                             "either", "either|1"}));
}

TEST(EmitReport, ParentsComeBeforeChildren) {
  const auto all = entries(object({{"a", object({{"b", string().min(1)}})}}));
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].path, Path{});
  EXPECT_EQ(all[1].path, Path{"a"});
  EXPECT_EQ((all[2].path), (Path{"a", "b"}));
}

// ---- snapshots of the example schemas -----------------------------------------------------------

TEST(EmitSnapshot, Refund) {
  const auto expected = Json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "description": "Rule: refundDate is on or after orderDate.",
    "properties": {
      "orderId": {"type": "string", "pattern": "^ORD-\\d{6}$"},
      "amount": {"type": "number", "exclusiveMinimum": 0},
      "currency": {"type": "string", "enum": ["EUR", "USD"]},
      "orderDate": {"type": "string", "format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
      "refundDate": {"type": "string", "format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
      "note": {"type": "string", "description": "Rule: note must not contain links."},
      "sku": {"type": "string"}
    },
    "required": ["orderId", "amount", "currency", "orderDate", "refundDate", "note", "sku"],
    "additionalProperties": false
  })");
  EXPECT_EQ(emit(examples::refund_schema()).json.dump(2), expected.dump(2));
}

TEST(EmitSnapshot, RefundDraft07DiffersOnlyInSchemaUri) {
  auto json = emit(examples::refund_schema(), {.dialect = Dialect::draft07}).json;
  EXPECT_EQ(json["$schema"], "http://json-schema.org/draft-07/schema#");
  json["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  EXPECT_EQ(json.dump(), emit(examples::refund_schema()).json.dump());
}

TEST(EmitSnapshot, Transfer) {
  const auto expected = Json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "description": "Rule: eur transfers are capped at 500 (when currency == \"eur\", amount <= 500).",
    "properties": {
      "accountId": {
        "type": "string",
        "description": "Stripe-style account id.",
        "pattern": "^acct_[a-z0-9]+$"
      },
      "email": {"type": "string", "format": "email"},
      "amount": {"type": "number", "minimum": 1, "maximum": 10000},
      "currency": {"type": "string", "enum": ["usd", "eur"]},
      "memo": {"type": "string", "minLength": 3, "maxLength": 120},
      "idempotencyKey": {"type": "string", "default": "auto"}
    },
    "required": ["accountId", "email", "amount", "currency"],
    "additionalProperties": false,
    "x-accord-rules": [
      {"if": "currency == \"eur\"", "then": "amount <= 500",
       "message": "eur transfers are capped at 500", "text": "eur transfers are capped at 500",
       "path": []}
    ]
  })");
  EXPECT_EQ(emit(examples::transfer_schema()).json.dump(2), expected.dump(2));
}

TEST(EmitSnapshot, RefundReport) {
  const auto expected = Json::parse(R"([
    {"id": "#additionalProperties", "path": "", "rule": "no unknown keys",
     "keyword": "additionalProperties", "fate": "keyword", "why": "", "stage": "emit"},
    {"id": "#refine", "path": "", "rule": "refine: refundDate is before orderDate", "keyword": "",
     "fate": "description",
     "why": "no JSON Schema keyword can say this; stated in the description as \"refundDate is on or after orderDate\", enforced locally; issues point at refundDate",
     "stage": "emit"},
    {"id": "/properties/orderId#pattern", "path": "orderId", "rule": "regex /^ORD-\\d{6}$/",
     "keyword": "pattern", "fate": "keyword", "why": "", "stage": "emit"},
    {"id": "/properties/amount#exclusiveMinimum", "path": "amount", "rule": "gt 0",
     "keyword": "exclusiveMinimum", "fate": "keyword", "why": "", "stage": "emit"},
    {"id": "/properties/currency#enum", "path": "currency", "rule": "enum [\"EUR\",\"USD\"]",
     "keyword": "enum", "fate": "keyword", "why": "", "stage": "emit"},
    {"id": "/properties/orderDate#format", "path": "orderDate", "rule": "format date",
     "keyword": "format,pattern", "fate": "keyword", "why": "", "stage": "emit"},
    {"id": "/properties/refundDate#format", "path": "refundDate", "rule": "format date",
     "keyword": "format,pattern", "fate": "keyword", "why": "", "stage": "emit"},
    {"id": "/properties/note#refine", "path": "note", "rule": "refine: note must not contain links",
     "keyword": "", "fate": "description",
     "why": "no JSON Schema keyword can say this; stated in the description, enforced locally",
     "stage": "emit"}
  ])");
  EXPECT_EQ(emit(examples::refund_schema()).report.to_json().dump(2), expected.dump(2));
}

TEST(EmitSnapshot, TransferReportListsTheCapAsDescription) {
  const auto described = emit(examples::transfer_schema()).report.with_fate(Fate::description);
  ASSERT_EQ(described.size(), 1u);
  EXPECT_EQ(described[0].rule, R"(rule if currency == "eur" then amount <= 500)");
  EXPECT_EQ(described[0].keyword, "x-accord-rules");
  EXPECT_TRUE(described[0].path.empty());
}

TEST(EmitSnapshot, TransferReportRules) {
  std::vector<std::string> rules;
  for (const auto& e : entries(examples::transfer_schema())) {
    rules.push_back(e.path.to_string() + " " + e.rule);
  }
  EXPECT_EQ(rules, (std::vector<std::string>{
                       " no unknown keys",
                       R"( rule if currency == "eur" then amount <= 500)",
                       R"(accountId describe "Stripe-style account id")",
                       "accountId regex /^acct_[a-z0-9]+$/",
                       "email format email",
                       "amount gte 1",
                       "amount lte 10000",
                       R"(currency enum ["usd","eur"])",
                       "memo min_length 3",
                       "memo max_length 120",
                       "memo optional",
                       R"(idempotencyKey default "auto")",
                   }));
}

}  // namespace
}  // namespace accord
