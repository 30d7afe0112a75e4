// Declarative rules (rules.hpp): parsing, load-time checks, local checking with Zod's refinement
// semantics, emission, and what each provider gets (snapshots) with the Report fates.

#include "accord/rules.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "accord/json_schema.hpp"
#include "accord/json_schema_file.hpp"
#include "accord/providers/provider.hpp"
#include "accord/validate.hpp"
#include "schemas/transfer.hpp"

namespace accord {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

std::vector<SchemaProblem> problems_of(const std::function<void()>& load) {
  try {
    load();
  } catch (const SchemaError& e) {
    return e.problems();
  }
  return {};
}

// ---- parsing ----------------------------------------------------------------------------------

TEST(RuleParsing, ComparisonBetweenTwoFields) {
  const auto c = parse_comparison("refundDate >= orderDate");
  EXPECT_EQ(c, compare("refundDate", Op::gte, field("orderDate")));
}

TEST(RuleParsing, ComparisonWithJsonLiterals) {
  EXPECT_EQ(parse_comparison(R"(currency == "eur")"), compare("currency", Op::eq, "eur"));
  EXPECT_EQ(parse_comparison("amount<=500"), compare("amount", Op::lte, 500));
  EXPECT_EQ(parse_comparison("rate > -1.5e2"), compare("rate", Op::gt, -150.0));
  EXPECT_EQ(parse_comparison("done != true"), compare("done", Op::ne, true));
  EXPECT_EQ(parse_comparison("note == null"), compare("note", Op::eq, nullptr));
}

TEST(RuleParsing, DottedFieldPathsReachIntoNestedObjects) {
  EXPECT_EQ(parse_comparison("shipping.country != billing.country").right.field_path(),
            "billing.country");
}

TEST(RuleParsing, SingleEqualsIsRejectedWithTheFix) {
  const auto found = problems_of([] { (void)parse_comparison("a = 1"); });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("use `==`"), std::string::npos) << found[0].message;
}

TEST(RuleParsing, LiteralOnTheLeftIsRejected) {
  const auto found = problems_of([] { (void)parse_comparison("500 >= amount"); });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("left side must be a field"), std::string::npos);
}

TEST(RuleParsing, TrailingTextIsRejected) {
  EXPECT_EQ(problems_of([] { (void)parse_comparison("a < b c"); }).size(), 1u);
  EXPECT_EQ(problems_of([] { (void)parse_comparison(R"(a == "open)"); }).size(), 1u);
}

TEST(RuleParsing, EntryNeedsRuleOrIfAndThen) {
  EXPECT_EQ(problems_of([] { (void)parse_rule(ojson{{"message", "m"}}); }).size(), 1u);
  EXPECT_EQ(problems_of([] { (void)parse_rule(ojson{{"if", "a == 1"}}); }).size(), 1u);
  EXPECT_EQ(problems_of([] {
              (void)parse_rule(ojson{{"rule", "a < b"}, {"if", "a == 1"}, {"then", "b == 1"}});
            }).size(),
            1u);
}

TEST(RuleParsing, UnknownKeyIsNamedByItsPath) {
  const auto found = problems_of([] {
    (void)parse_rule(ojson{{"rule", "a < b"}, {"mesage", "m"}});
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].path, Path{"mesage"});
}

TEST(RuleParsing, MissingMessageDefaultsToTheRule) {
  EXPECT_EQ(parse_rule(ojson{{"rule", "a < b"}}).message, "Rule failed: a < b");
}

TEST(RuleParsing, ToJsonRoundTrips) {
  const Rule rule{compare("currency", Op::eq, "eur"), compare("amount", Op::lte, 500), "capped",
                  Path{}};
  const ojson entry = to_json(rule);
  EXPECT_EQ(entry.dump(),
            R"({"if":"currency == \"eur\"","then":"amount <= 500","message":"capped","path":[]})");
  EXPECT_EQ(parse_rule(entry), rule);
}

// ---- load-time checks -------------------------------------------------------------------------

ojson order_schema(ojson rules) {
  ojson schema = ojson::parse(R"({
    "type": "object",
    "properties": {
      "orderDate": {"type": "string", "format": "date"},
      "refundDate": {"type": "string", "format": "date"},
      "currency": {"type": "string", "enum": ["usd", "eur"]},
      "amount": {"type": "number", "minimum": 1, "maximum": 10000},
      "express": {"type": "boolean"},
      "note": {"type": "string"}
    },
    "required": ["orderDate", "currency", "amount"],
    "additionalProperties": false
  })");
  schema["x-accord-rules"] = std::move(rules);
  return schema;
}

TEST(RuleLoading, UnknownFieldInAFileIsNamedWithItsPath) {
  const auto found = problems_of([] {
    (void)Validator::from_json_schema(
        order_schema(ojson::parse(R"([{"rule": "a >= orderDate"}])")));
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].path.to_pointer(), "/x-accord-rules/0/rule");
  EXPECT_EQ(found[0].message, "a is not a field of this object");
}

TEST(RuleLoading, SyntaxErrorInAFileIsNamedWithItsPart) {
  const auto found = problems_of([] {
    (void)import_json_schema(
        order_schema(ojson::parse(R"([{"if": "currency = \"eur\"", "then": "amount <= 5"}])")));
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].path.to_pointer(), "/x-accord-rules/0/if");
}

TEST(RuleLoading, LiteralOfTheWrongTypeCanNeverHold) {
  const auto found = problems_of([] {
    (void)import_json_schema(order_schema(ojson::parse(R"([{"rule": "amount <= \"500\""}])")));
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("can never hold"), std::string::npos) << found[0].message;
}

TEST(RuleLoading, OrderingBooleansIsRejected) {
  const auto found = problems_of([] {
    (void)import_json_schema(order_schema(ojson::parse(R"([{"rule": "express < true"}])")));
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("orders numbers or strings only"), std::string::npos);
}

TEST(RuleLoading, RulesBelongOnObjects) {
  const auto found = problems_of([] {
    (void)import_json_schema(ojson::parse(R"({"type": "string", "x-accord-rules": []})"));
  });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].path.to_pointer(), "/x-accord-rules");
}

TEST(RuleLoading, DslRuleOnAnUnknownFieldIsABuildMistake) {
  const auto schema = object({{"a", number()}}).rule(compare("a", Op::lt, field("b")), "a < b");
  ASSERT_EQ(schema.node().problems.size(), 1u);
  EXPECT_EQ(schema.node().problems[0].message, "rule `a < b`: b is not a field of this object");
}

TEST(RuleLoading, DslRuleOnANonObjectIsABuildMistake) {
  const auto schema = string().rule(compare("a", Op::lt, 1), "m");
  ASSERT_EQ(schema.node().problems.size(), 1u);
  EXPECT_EQ(schema.node().problems[0].message, "rule applies to objects, not string");
}

TEST(RuleLoading, DslRuleNeedsAMessage) {
  const auto schema = object({{"a", number()}}).rule(compare("a", Op::lt, 1), "");
  EXPECT_EQ(schema.node().problems.size(), 1u);
}

TEST(RuleLoading, DslPathOptionMustNameAField) {
  const auto schema =
      object({{"a", number()}}).rule(compare("a", Op::lt, 1), "m", {.path = Path{"zz"}});
  EXPECT_EQ(schema.node().problems.size(), 1u);
}

// ---- local checking ---------------------------------------------------------------------------

Schema refund() {
  return object({
                    {"orderDate", string().date()},
                    {"refundDate", string().date().optional()},
                    {"count", integer()},
                    {"limit", integer().default_(10)},
                })
      .rule(compare("refundDate", Op::gte, field("orderDate")), "refundDate is before orderDate")
      .rule(compare("count", Op::lte, field("limit")), "count is over the limit");
}

TEST(RuleChecking, FailedComparisonIsACustomIssueAtTheLeftField) {
  const Validator v(refund());
  const auto issues =
      v.validate(json{{"orderDate", "2026-05-02"}, {"refundDate", "2026-05-01"}, {"count", 1}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0],
            (Issue{IssueCode::custom, Path{"refundDate"}, "refundDate is before orderDate"}));
}

TEST(RuleChecking, EqualDatesSatisfyGreaterOrEqual) {
  const Validator v(refund());
  EXPECT_TRUE(
      v.validate(json{{"orderDate", "2026-05-02"}, {"refundDate", "2026-05-02"}, {"count", 1}})
          .empty());
}

TEST(RuleChecking, NumbersCompareNumerically) {
  const Validator v(refund());
  EXPECT_TRUE(v.validate(json{{"orderDate", "2026-05-02"}, {"count", 9}, {"limit", 10}}).empty());
  EXPECT_EQ(v.validate(json{{"orderDate", "2026-05-02"}, {"count", 11}, {"limit", 10}}).size(), 1u);
}

TEST(RuleChecking, AbsentFieldLeavesTheComparisonUnjudged) {
  const Validator v(refund());
  EXPECT_TRUE(v.validate(json{{"orderDate", "2026-05-02"}, {"count", 1}}).empty());
}

TEST(RuleChecking, AbsentFieldTakesItsDefault) {
  const Validator v(refund());
  const auto issues = v.validate(json{{"orderDate", "2026-05-02"}, {"count", 11}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "count is over the limit");
  EXPECT_EQ(issues[0].path, Path{"count"});
}

TEST(RuleChecking, SkippedWhileTheObjectHasATypeMismatch) {
  const Validator v(refund());
  const auto issues =
      v.validate(json{{"orderDate", "2026-05-02"}, {"refundDate", "2026-05-01"}, {"count", "one"}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].code, IssueCode::invalid_type);
}

TEST(RuleChecking, RunsBesideIssuesThatDoNotAbort) {
  const Validator v(object({{"a", string().max(2)}, {"b", string()}})
                        .rule(compare("a", Op::lt, field("b")), "a must sort before b"));
  const auto issues = v.validate(json{{"a", "zzz"}, {"b", "a"}});
  ASSERT_EQ(issues.size(), 2u);
  EXPECT_EQ(issues[0].code, IssueCode::too_big);
  EXPECT_EQ(issues[1].message, "a must sort before b");
}

TEST(RuleChecking, ConditionalPointsAtTheThenField) {
  const Validator v(object({{"currency", enumeration({"usd", "eur"})}, {"amount", number()}})
                        .rule(when("currency", Op::eq, "eur").then("amount", Op::lte, 500),
                              "eur transfers are capped at 500"));
  const auto issues = v.validate(json{{"currency", "eur"}, {"amount", 900}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].path, Path{"amount"});
  EXPECT_TRUE(v.validate(json{{"currency", "usd"}, {"amount", 900}}).empty());
}

TEST(RuleChecking, TransferKeepsZodsMessageAndRootPath) {
  const Validator v(examples::transfer_schema());
  const auto issues = v.validate(json::parse(
      R"({"accountId":"acct_abc","email":"ops@example.com","amount":900,"currency":"eur"})"));
  EXPECT_EQ(prettify(issues), "✖ eur transfers are capped at 500");
}

// Every transfer example of shared/anchors/zod_prettify_examples.txt, against the example schema
// whose cap is now a rule: Zod's output, exactly.
TEST(RuleChecking, TransferMatchesEveryZodAnchor) {
  std::ifstream in(std::string(ACCORD_SHARED_DIR) + "/anchors/zod_prettify_examples.txt");
  if (!in) GTEST_SKIP() << "shared anchors not found";
  const Validator v(examples::transfer_schema());
  std::string line;
  std::size_t checked = 0;
  while (std::getline(in, line)) {
    if (line.rfind("## transfer ", 0) != 0) continue;
    const std::string document = line.substr(12);
    std::string expected;
    while (std::getline(in, line) && !line.empty())
      expected += (expected.empty() ? "" : "\n") + line;
    EXPECT_EQ(prettify(v.parse_and_validate(document).issues), expected) << document;
    ++checked;
  }
  EXPECT_EQ(checked, 3u);
}

TEST(RuleChecking, TransferCapToleratesMissingAndWrongTypes) {
  const Validator v(examples::transfer_schema());
  const auto base = json::parse(R"({"accountId":"acct_abc","email":"ops@example.com"})");
  auto without_amount = base;
  without_amount["currency"] = "eur";
  EXPECT_EQ(v.validate(without_amount).size(), 1u);  // the missing amount, not the cap
  auto text_amount = without_amount;
  text_amount["amount"] = "600";
  const auto issues = v.validate(text_amount);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].code, IssueCode::invalid_type);
}

TEST(RuleChecking, NestedObjectRulesReportUnderTheObjectsPath) {
  const Validator v(object(
      {{"trip", object({{"from", string()}, {"to", string()}})
                    .rule(compare("to", Op::ne, field("from")), "to must differ from from")}}));
  const auto issues = v.validate(json{{"trip", {{"from", "BER"}, {"to", "BER"}}}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].path, (Path{"trip", "to"}));
}

TEST(RuleChecking, RulesFromAFileAreCheckedByTheValidator) {
  const auto v = Validator::from_json_schema(order_schema(ojson::parse(
      R"([{"if": "express == true", "then": "amount >= 100", "message": "express needs 100"}])")));
  const auto issues = v.validate(
      json{{"orderDate", "2026-01-01"}, {"currency", "usd"}, {"amount", 50}, {"express", true}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0], (Issue{IssueCode::custom, Path{"amount"}, "express needs 100"}));
}

// ---- field paths through refs -----------------------------------------------------------------

Schema address() {
  return object({{"country", string()}, {"zone", integer().default_(3)}}).named("Address");
}

// `ship` is a ref() to the definition `home` names: a rule's path steps through it.
Schema shipment(const std::string& left, Op op, Operand right) {
  return object({{"home", address()}, {"ship", ref("Address")}})
      .rule(compare(left, op, std::move(right)), "ships within the zone");
}

TEST(RuleThroughRefs, DslFieldPathLooksThroughARef) {
  const auto schema = shipment("ship.country", Op::eq, field("home.country"));
  EXPECT_TRUE(schema.node().problems.empty());
  const auto issues = Validator(schema).validate(
      json{{"home", {{"country", "DE"}}}, {"ship", {{"country", "FR"}}}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0],
            (Issue{IssueCode::custom, Path{"ship", "country"}, "ships within the zone"}));
}

TEST(RuleThroughRefs, UnknownFieldBehindARefIsRefusedWhenEmitted) {
  const auto found = problems_of([] { (void)emit(shipment("ship.city", Op::eq, "Berlin")); });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message,
            "rule `ship.city == \"Berlin\"`: ship.city is not a field of this object");
}

TEST(RuleThroughRefs, AbsentFieldBehindARefTakesItsDefault) {
  const Validator v(shipment("ship.zone", Op::lte, 2));
  const auto issues =
      v.validate(json{{"home", {{"country", "DE"}}}, {"ship", {{"country", "DE"}}}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "ships within the zone");
}

TEST(RuleThroughRefs, FileRuleDefaultBehindANullableRef) {
  const auto v = Validator::from_json_schema(ojson::parse(R"({
    "type": "object",
    "$defs": {"Address": {"type": "object", "properties": {"zone": {"type": "integer", "default": 3}}}},
    "properties": {"ship": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]}},
    "x-accord-rules": [{"rule": "ship.zone <= 2", "message": "zone too far"}]
  })"));
  const auto issues = v.validate(json{{"ship", json::object()}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "zone too far");
}

// ---- emission ---------------------------------------------------------------------------------

TEST(RuleEmission, DslRulesBecomeTheExtensionAndASentence) {
  const auto emitted = emit(refund());
  EXPECT_EQ(emitted.json["description"], "Rule: refundDate >= orderDate. Rule: count <= limit.");
  EXPECT_EQ(emitted.json["x-accord-rules"].dump(),
            R"([{"rule":"refundDate >= orderDate","message":"refundDate is before orderDate"},)"
            R"({"rule":"count <= limit","message":"count is over the limit"}])");
}

TEST(RuleEmission, EveryRuleHasAReportEntryStatedInWords) {
  const auto entries = emit(refund()).report.with_fate(Fate::description);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].rule, "rule refundDate >= orderDate");
  EXPECT_EQ(entries[0].keyword, "x-accord-rules");
  EXPECT_EQ(entries[0].why,
            "no JSON Schema keyword compares two fields; stated in the description, enforced "
            "locally");
}

TEST(RuleEmission, StrictEmitAcceptsRulesBecauseTheModelReadsThem) {
  EXPECT_NO_THROW((void)emit(refund(), {.strict = true}));
}

// ---- per provider -----------------------------------------------------------------------------

ojson capped_schema() {
  return order_schema(ojson::parse(R"([
    {"if": "currency == \"eur\"", "then": "amount <= 500", "message": "eur transfers are capped at 500"},
    {"rule": "refundDate >= orderDate", "message": "refundDate is before orderDate"}
  ])"));
}

WireSchema lowered(const std::string& provider, const ojson& document) {
  auto imported = import_json_schema(document);
  return make_provider(provider)->lower(imported.json, imported.report);
}

const ReportEntry& rule_entry(const WireSchema& wire, const std::string& rule) {
  for (const auto& e : wire.report.entries()) {
    if (e.rule == rule) return e;
  }
  throw std::runtime_error("no entry " + rule);
}

TEST(RuleLowering, GenericGetsIfThenAndNoExtension) {
  const auto wire = lowered("generic", capped_schema());
  EXPECT_FALSE(wire.schema.contains("x-accord-rules"));
  EXPECT_EQ(wire.schema["if"].dump(),
            R"({"properties":{"currency":{"const":"eur"}},"required":["currency"]})");
  EXPECT_EQ(wire.schema["then"].dump(), R"({"properties":{"amount":{"maximum":500}}})");
  EXPECT_EQ(wire.schema["description"],
            "Rule: when currency == \"eur\", amount <= 500. Rule: refundDate >= orderDate.");
}

TEST(RuleLowering, GenericReportsTheConditionalAsKeywordAndTheComparisonAsWords) {
  const auto wire = lowered("generic", capped_schema());
  const auto& conditional = rule_entry(wire, R"(rule if currency == "eur" then amount <= 500)");
  EXPECT_EQ(conditional.fate, Fate::keyword);
  EXPECT_EQ(conditional.keyword, "if,then");
  EXPECT_EQ(conditional.stage, "generic");
  const auto& comparison = rule_entry(wire, "rule refundDate >= orderDate");
  EXPECT_EQ(comparison.fate, Fate::description);
  EXPECT_EQ(comparison.keyword, "x-accord-rules");
}

TEST(RuleLowering, GenericPutsSeveralCompiledRulesInAllOf) {
  const auto wire = lowered("generic", order_schema(ojson::parse(R"([
    {"if": "currency == \"eur\"", "then": "amount <= 500"},
    {"if": "express != true", "then": "amount > 2"}
  ])")));
  EXPECT_FALSE(wire.schema.contains("if"));
  EXPECT_EQ(wire.schema["allOf"].dump(),
            R"([{"if":{"properties":{"currency":{"const":"eur"}},"required":["currency"]},)"
            R"("then":{"properties":{"amount":{"maximum":500}}}},)"
            R"({"if":{"properties":{"express":{"not":{"const":true}}},"required":["express"]},)"
            R"("then":{"properties":{"amount":{"exclusiveMinimum":2}}}}])");
}

TEST(RuleLowering, PlainLiteralComparisonBecomesAFieldConstraint) {
  const auto schema = order_schema(ojson::parse(R"([{"rule": "amount >= 5"}])"));
  const auto generic = lowered("generic", schema);
  EXPECT_EQ(generic.schema["allOf"].dump(), R"([{"properties":{"amount":{"minimum":5}}}])");
  EXPECT_EQ(rule_entry(generic, "rule amount >= 5").keyword, "allOf,properties");
  const auto openai = lowered("openai-chat", schema);
  EXPECT_FALSE(openai.lowering.wrapped_root);
  EXPECT_EQ(openai.schema["properties"]["amount"]["minimum"], 5);
  EXPECT_EQ(rule_entry(openai, "rule amount >= 5").fate, Fate::keyword);
}

// The transfer's cap under OpenAI strict: one branch per currency, the eur one capped; the root
// is wrapped since OpenAI wants an object there, not anyOf.
const char* const kCappedOpenAI = R"({
  "type": "object",
  "properties": {
    "value": {
      "anyOf": [
        {"type": "object", "properties": {
           "orderDate": {"type": "string", "format": "date"},
           "refundDate": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
           "currency": {"type": "string", "const": "eur"},
           "amount": {"type": "number", "minimum": 1, "maximum": 500},
           "express": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
           "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
         "required": ["orderDate", "refundDate", "currency", "amount", "express", "note"],
         "additionalProperties": false},
        {"type": "object", "properties": {
           "orderDate": {"type": "string", "format": "date"},
           "refundDate": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
           "currency": {"type": "string", "enum": ["usd"]},
           "amount": {"type": "number", "minimum": 1, "maximum": 10000},
           "express": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
           "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
         "required": ["orderDate", "refundDate", "currency", "amount", "express", "note"],
         "additionalProperties": false}
      ],
      "description": "Rule: when currency == \"eur\", amount <= 500. Rule: refundDate >= orderDate."
    }
  },
  "required": ["value"],
  "additionalProperties": false
})";

TEST(RuleLowering, OpenAIStrictGetsAnyOfBranchesTheDecoderEnforces) {
  const auto wire = lowered("openai-chat", capped_schema());
  EXPECT_EQ(wire.schema.dump(2), ojson::parse(kCappedOpenAI).dump(2));
  EXPECT_TRUE(wire.lowering.wrapped_root);
}

TEST(RuleLowering, OpenAIStrictReportsBranchesAndTheWrappedRoot) {
  const auto wire = lowered("openai-responses", capped_schema());
  const auto& conditional = rule_entry(wire, R"(rule if currency == "eur" then amount <= 500)");
  EXPECT_EQ(conditional.fate, Fate::keyword);
  EXPECT_EQ(conditional.keyword, "anyOf");
  EXPECT_EQ(conditional.stage, "openai-responses");
  EXPECT_EQ(rule_entry(wire, "rule refundDate >= orderDate").fate, Fate::description);
  EXPECT_EQ(rule_entry(wire, "root object split into anyOf branches by its rules").keyword, "type");
}

TEST(RuleLowering, OpenAIBranchesStillUnlowerToTheOriginalValue) {
  const auto wire = lowered("openai-chat", capped_schema());
  const json reply = json::parse(R"({"value": {"orderDate": "2026-01-01", "refundDate": null,
      "currency": "eur", "amount": 20, "express": null, "note": null}})");
  EXPECT_EQ(unlower(reply, wire.lowering),
            json::parse(R"({"orderDate": "2026-01-01", "currency": "eur", "amount": 20})"));
}

TEST(RuleLowering, OpenAIConditionOnAnOptionalFieldLetsTheOtherBranchSendNull) {
  const auto wire = lowered(
      "openai-chat",
      order_schema(ojson::parse(R"([{"if": "express == true", "then": "amount >= 100"}])")));
  const auto& branches = wire.schema["properties"]["value"]["anyOf"];
  ASSERT_EQ(branches.size(), 2u);
  EXPECT_EQ(branches[0]["properties"]["express"].dump(), R"({"type":"boolean","const":true})");
  EXPECT_EQ(branches[0]["properties"]["amount"]["minimum"], 100);
  EXPECT_EQ(branches[1]["properties"]["express"].dump(),
            R"({"anyOf":[{"type":"boolean","const":false},{"type":"null"}]})");
}

TEST(RuleLowering, OpenAINumericConditionIsNegatedWithTheOppositeBound) {
  const auto wire = lowered(
      "openai-chat",
      order_schema(ojson::parse(R"([{"if": "amount > 1000", "then": "currency == \"usd\""}])")));
  const auto& branches = wire.schema["properties"]["value"]["anyOf"];
  ASSERT_EQ(branches.size(), 2u);
  EXPECT_EQ(branches[0]["properties"]["amount"]["exclusiveMinimum"], 1000);
  EXPECT_EQ(branches[0]["properties"]["currency"]["const"], "usd");
  EXPECT_EQ(branches[1]["properties"]["amount"]["maximum"], 1000);
}

TEST(RuleLowering, OpenAIConditionOnAFreeStringFallsBackToWords) {
  const auto wire = lowered(
      "openai-chat",
      order_schema(ojson::parse(R"([{"if": "note == \"rush\"", "then": "amount >= 100"}])")));
  EXPECT_FALSE(wire.lowering.wrapped_root);
  EXPECT_FALSE(wire.schema.contains("anyOf"));
  const auto& e = rule_entry(wire, R"(rule if note == "rush" then amount >= 100)");
  EXPECT_EQ(e.fate, Fate::description);
  EXPECT_NE(e.why.find("note cannot be split into anyOf branches"), std::string::npos) << e.why;
}

TEST(RuleLowering, AnthropicKeepsTheRulesInWordsOnly) {
  const auto wire = lowered("anthropic", capped_schema());
  EXPECT_FALSE(wire.schema.contains("x-accord-rules"));
  EXPECT_FALSE(wire.schema.contains("anyOf"));
  EXPECT_FALSE(wire.schema.contains("if"));
  EXPECT_EQ(wire.schema["description"],
            "Rule: when currency == \"eur\", amount <= 500. Rule: refundDate >= orderDate.");
  const auto& e = rule_entry(wire, R"(rule if currency == "eur" then amount <= 500)");
  EXPECT_EQ(e.fate, Fate::description);
  EXPECT_EQ(e.stage, "anthropic");
}

TEST(RuleLowering, TransferExampleUnderOpenAIIsSplitByCurrency) {
  const auto emitted = emit(examples::transfer_schema());
  const auto wire = make_provider("openai-chat")->lower(emitted.json, emitted.report);
  const auto& branches = wire.schema["properties"]["value"]["anyOf"];
  ASSERT_EQ(branches.size(), 2u);
  EXPECT_EQ(branches[0]["properties"]["currency"]["const"], "eur");
  EXPECT_EQ(branches[0]["properties"]["amount"]["maximum"], 500);
  EXPECT_EQ(branches[1]["properties"]["currency"]["enum"], ojson::array({"usd"}));
  EXPECT_EQ(branches[1]["properties"]["amount"]["maximum"], 10000);
}

}  // namespace
}  // namespace accord
