// Lowering of emitted JSON Schemas per provider: the wire schema (snapshots), the Report entries
// for every moved rule, and un-lowering of replies.

#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "accord/validate.hpp"
#include "schema/report_writer.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

ReportEntry entry(Path path, std::string rule, std::string keyword, Fate fate = Fate::keyword,
                  std::string why = "", std::string stage = "emit") {
  return {std::move(path), std::move(rule), std::move(keyword), fate,
          std::move(why),  std::move(stage)};
}

// `with` in place of `at`, keeping the id Report::add gave `at` (a lowering changes an entry's
// fate, never its id).
void replace(ReportEntry& at, ReportEntry with) {
  with.id = at.id;
  at = std::move(with);
}

// What emit() writes for the refund example (EMIT_SPEC, 2020-12).
ojson refund_schema() {
  return ojson::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "description": "Rule: refundDate is on or after orderDate.",
    "properties": {
      "orderId": {"type": "string", "pattern": "^ORD-\\d{6}$"},
      "amount": {"type": "number", "exclusiveMinimum": 0},
      "currency": {"type": "string", "enum": ["EUR", "USD"]},
      "orderDate": {"type": "string", "format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
      "refundDate": {"type": "string", "format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
      "note": {"type": "string", "description": "Rule: must not contain links."},
      "sku": {"type": "string"}
    },
    "required": ["orderId", "amount", "currency", "orderDate", "refundDate", "note", "sku"],
    "additionalProperties": false
  })");
}

const char* const kRefineWhy =
    "no JSON Schema keyword can say this; stated in the description, enforced locally";

Report refund_report() {
  Report report;
  const detail::ReportWriter r(report);
  r.add(entry({}, "refine: refundDate is on or after orderDate", "", Fate::description,
              std::string(kRefineWhy) + "; issues point at refundDate"));
  r.add(entry({}, "no unknown keys", "additionalProperties"));
  r.add(entry({"orderId"}, "regex /^ORD-\\d{6}$/", "pattern"));
  r.add(entry({"amount"}, "gt 0", "exclusiveMinimum"));
  r.add(entry({"currency"}, "enum [\"EUR\",\"USD\"]", "enum"));
  r.add(entry({"orderDate"}, "format date", "format,pattern"));
  r.add(entry({"refundDate"}, "format date", "format,pattern"));
  r.add(entry({"note"}, "refine: must not contain links", "", Fate::description, kRefineWhy));
  return report;
}

// A transfer schema whose euro cap is a refine() stated in words: what emit() wrote for the
// transfer example before the cap became a declarative rule (rules_test.cpp lowers that one).
ojson transfer_schema() {
  return ojson::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "description": "Rule: eur transfers are capped at 500.",
    "properties": {
      "accountId": {"type": "string", "description": "Stripe-style account id.",
                    "pattern": "^acct_[a-z0-9]+$"},
      "email": {"type": "string", "format": "email"},
      "amount": {"type": "number", "minimum": 1, "maximum": 10000},
      "currency": {"type": "string", "enum": ["usd", "eur"]},
      "memo": {"type": "string", "minLength": 3, "maxLength": 120},
      "idempotencyKey": {"type": "string", "default": "auto"}
    },
    "required": ["accountId", "email", "amount", "currency"],
    "additionalProperties": false
  })");
}

Report transfer_report() {
  Report report;
  const detail::ReportWriter r(report);
  r.add(entry({}, "refine: eur transfers are capped at 500", "", Fate::description, kRefineWhy));
  r.add(entry({}, "no unknown keys", "additionalProperties"));
  r.add(entry({"accountId"}, "describe \"Stripe-style account id\"", "description"));
  r.add(entry({"accountId"}, "regex /^acct_[a-z0-9]+$/", "pattern"));
  r.add(entry({"email"}, "format email", "format"));
  r.add(entry({"amount"}, "gte 1", "minimum"));
  r.add(entry({"amount"}, "lte 10000", "maximum"));
  r.add(entry({"currency"}, "enum [\"usd\",\"eur\"]", "enum"));
  r.add(entry({"memo"}, "optional", "required"));
  r.add(entry({"memo"}, "min_length 3", "minLength"));
  r.add(entry({"memo"}, "max_length 120", "maxLength"));
  r.add(entry({"idempotencyKey"}, "default \"auto\"", "default"));
  return report;
}

WireSchema lower(const std::string& provider, const ojson& schema, Report report = {}) {
  auto p = make_provider(provider);
  EXPECT_NE(p, nullptr);
  return p->lower(schema, std::move(report));
}

ojson without_schema_key(ojson schema) {
  schema.erase("$schema");
  return schema;
}

// ---- refund ---------------------------------------------------------------------------------

TEST(ProvidersLowering, RefundUnderOpenAIStrictOnlyLosesSchemaKey) {
  for (const char* provider : {"openai-chat", "openai-responses"}) {
    const auto wire = lower(provider, refund_schema(), refund_report());
    EXPECT_EQ(wire.schema.dump(2), without_schema_key(refund_schema()).dump(2)) << provider;
    EXPECT_EQ(wire.report.entries(), refund_report().entries()) << provider;
    EXPECT_TRUE(wire.lowering.nulled_optionals.empty());
    EXPECT_FALSE(wire.lowering.wrapped_root);
  }
}

TEST(ProvidersLowering, RefundUnderAnthropicStatesPositiveAmountInWords) {
  const auto wire = lower("anthropic", refund_schema(), refund_report());
  ojson expected = without_schema_key(refund_schema());
  expected["properties"]["amount"] =
      ojson::parse(R"({"type": "number", "description": "Must be greater than 0."})");
  EXPECT_EQ(wire.schema.dump(2), expected.dump(2));

  Report report = refund_report();
  auto& amount = detail::ReportWriter{report}.entries()[3];
  amount.fate = Fate::description;
  amount.why =
      "Anthropic structured outputs reject numeric bounds; stated in the description, enforced "
      "locally";
  amount.stage = "anthropic";
  EXPECT_EQ(wire.report.entries(), report.entries());
}

// A schema without its descriptions: the keywords a server gets.
ojson keywords_only(ojson node) {
  if (node.is_object()) {
    node.erase("description");
    for (auto& [key, value] : node.items()) value = keywords_only(std::move(value));
  } else if (node.is_array()) {
    for (auto& value : node) value = keywords_only(std::move(value));
  }
  return node;
}

// Which keywords a generic server enforces is not known: each constraint also goes into words.
TEST(ProvidersLowering, RefundForGenericKeepsEveryKeywordWithStrictNotedAsBestEffort) {
  const auto wire = lower("generic", refund_schema(), refund_report());
  EXPECT_EQ(keywords_only(wire.schema).dump(2),
            keywords_only(without_schema_key(refund_schema())).dump(2));
  ASSERT_EQ(wire.report.entries().size(), refund_report().entries().size() + 1);
  const auto& added = wire.report.entries().back();
  EXPECT_EQ(added.stage, "generic");
  EXPECT_EQ(added.fate, Fate::keyword);
  EXPECT_NE(added.why.find("hint"), std::string::npos);
}

// ---- transfer -------------------------------------------------------------------------------

const char* const kTransferOpenAI = R"({
  "type": "object",
  "description": "Rule: eur transfers are capped at 500.",
  "properties": {
    "accountId": {"type": "string", "description": "Stripe-style account id.",
                  "pattern": "^acct_[a-z0-9]+$"},
    "email": {"type": "string", "format": "email"},
    "amount": {"type": "number", "minimum": 1, "maximum": 10000},
    "currency": {"type": "string", "enum": ["usd", "eur"]},
    "memo": {"anyOf": [{"type": "string", "minLength": 3, "maxLength": 120}, {"type": "null"}],
             "description": "Must have at least 3 characters and at most 120 characters."},
    "idempotencyKey": {"anyOf": [{"type": "string"}, {"type": "null"}],
                       "description": "Default: \"auto\"."}
  },
  "required": ["accountId", "email", "amount", "currency", "memo", "idempotencyKey"],
  "additionalProperties": false
})";

Report transfer_report_openai(const std::string& stage) {
  Report r = transfer_report();
  auto& e = detail::ReportWriter{r}.entries();
  const std::string lengths =
      "OpenAI strict schemas do not guarantee minLength/maxLength; kept as keywords and stated "
      "in the description, enforced locally";
  replace(e[8],
          entry({"memo"}, "optional", "required", Fate::keyword,
                "OpenAI strict schemas need every property required; sent as nullable, null means "
                "absent",
                stage));
  replace(e[9], entry({"memo"}, "min_length 3", "minLength", Fate::description, lengths, stage));
  replace(e[10], entry({"memo"}, "max_length 120", "maxLength", Fate::description, lengths, stage));
  replace(e[11],
          entry({"idempotencyKey"}, "default \"auto\"", "default", Fate::description,
                "OpenAI strict schemas have no defaults and need every property required; sent as "
                "nullable with the default stated in the description, null means absent",
                stage));
  return r;
}

TEST(ProvidersLowering, TransferUnderOpenAIChatMakesOptionalFieldsNullableAndRequired) {
  const auto wire = lower("openai-chat", transfer_schema(), transfer_report());
  EXPECT_EQ(wire.schema.dump(2), ojson::parse(kTransferOpenAI).dump(2));
  EXPECT_EQ(wire.lowering.nulled_optionals, (std::vector<Path>{{"memo"}, {"idempotencyKey"}}));
  EXPECT_FALSE(wire.lowering.wrapped_root);
}

TEST(ProvidersLowering, TransferUnderOpenAIChatUpdatesEmitEntriesInPlace) {
  const auto wire = lower("openai-chat", transfer_schema(), transfer_report());
  EXPECT_EQ(wire.report.entries(), transfer_report_openai("openai-chat").entries());
}

TEST(ProvidersLowering, TransferUnderOpenAIResponsesMatchesChatWithItsOwnStage) {
  const auto wire = lower("openai-responses", transfer_schema(), transfer_report());
  EXPECT_EQ(wire.schema.dump(2), ojson::parse(kTransferOpenAI).dump(2));
  EXPECT_EQ(wire.report.entries(), transfer_report_openai("openai-responses").entries());
}

TEST(ProvidersLowering, TransferUnderAnthropicMovesBoundsAndLengthsIntoWords) {
  const auto wire = lower("anthropic", transfer_schema(), transfer_report());
  const ojson expected = ojson::parse(R"({
    "type": "object",
    "description": "Rule: eur transfers are capped at 500.",
    "properties": {
      "accountId": {"type": "string", "description": "Stripe-style account id.",
                    "pattern": "^acct_[a-z0-9]+$"},
      "email": {"type": "string", "format": "email"},
      "amount": {"type": "number", "description": "Must be at least 1 and at most 10000."},
      "currency": {"type": "string", "enum": ["usd", "eur"]},
      "memo": {"type": "string",
               "description": "Must have at least 3 characters and at most 120 characters."},
      "idempotencyKey": {"type": "string", "default": "auto"}
    },
    "required": ["accountId", "email", "amount", "currency"],
    "additionalProperties": false
  })");
  EXPECT_EQ(wire.schema.dump(2), expected.dump(2));
  EXPECT_TRUE(wire.lowering.nulled_optionals.empty());

  Report r = transfer_report();
  auto& e = detail::ReportWriter{r}.entries();
  const std::string bounds =
      "Anthropic structured outputs reject numeric bounds; stated in the description, enforced "
      "locally";
  const std::string lengths =
      "Anthropic structured outputs reject minLength/maxLength; stated in the description, "
      "enforced locally";
  replace(e[5], entry({"amount"}, "gte 1", "minimum", Fate::description, bounds, "anthropic"));
  replace(e[6], entry({"amount"}, "lte 10000", "maximum", Fate::description, bounds, "anthropic"));
  replace(e[9],
          entry({"memo"}, "min_length 3", "minLength", Fate::description, lengths, "anthropic"));
  replace(e[10],
          entry({"memo"}, "max_length 120", "maxLength", Fate::description, lengths, "anthropic"));
  EXPECT_EQ(wire.report.entries(), r.entries());
}

TEST(ProvidersLowering, TransferForGenericKeepsEveryKeyword) {
  const auto wire = lower("generic", transfer_schema(), transfer_report());
  EXPECT_EQ(keywords_only(wire.schema).dump(2),
            keywords_only(without_schema_key(transfer_schema())).dump(2));
  EXPECT_EQ(wire.report.entries().size(), transfer_report().entries().size() + 1);
}

TEST(ProvidersLowering, MovedRulesAppendToTheUsersDescription) {
  ojson schema = transfer_schema();
  schema["properties"]["accountId"]["minLength"] = 6;
  const auto wire = lower("anthropic", schema);
  EXPECT_EQ(wire.schema["properties"]["accountId"]["description"],
            "Stripe-style account id. Must have at least 6 characters.");
}

// ---- unlower --------------------------------------------------------------------------------

TEST(ProvidersUnlower, NullForAnOptionalFieldUnderOpenAIStrictMeansAbsent) {
  const auto wire = lower("openai-chat", transfer_schema(), transfer_report());
  const nlohmann::json reply = nlohmann::json::parse(R"({
    "accountId": "acct_1a2b", "email": "ops@example.com", "amount": 250, "currency": "usd",
    "memo": null, "idempotencyKey": null})");
  const nlohmann::json expected = nlohmann::json::parse(R"({
    "accountId": "acct_1a2b", "email": "ops@example.com", "amount": 250, "currency": "usd"})");
  EXPECT_EQ(unlower(reply, wire.lowering), expected);
}

TEST(ProvidersUnlower, KeepsOptionalFieldsThatCarryAValue) {
  const auto wire = lower("openai-chat", transfer_schema(), transfer_report());
  const nlohmann::json reply = nlohmann::json::parse(
      R"({"accountId": "acct_1", "email": "a@b.co", "amount": 5, "currency": "eur",
          "memo": "rent", "idempotencyKey": null})");
  nlohmann::json expected = reply;
  expected.erase("idempotencyKey");
  EXPECT_EQ(unlower(reply, wire.lowering), expected);
}

TEST(ProvidersUnlower, FollowsArrayItemsToEveryElement) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "lines": {"type": "array", "items": {"type": "object",
        "properties": {"sku": {"type": "string"}, "note": {"type": "string"}},
        "required": ["sku"], "additionalProperties": false}}},
    "required": ["lines"], "additionalProperties": false})");
  const auto wire = lower("openai-responses", schema);
  ASSERT_EQ(wire.lowering.nulled_optionals, (std::vector<Path>{{"lines", "[]", "note"}}));
  const auto reply = nlohmann::json::parse(
      R"({"lines": [{"sku": "A", "note": null}, {"sku": "B", "note": "gift"}]})");
  EXPECT_EQ(unlower(reply, wire.lowering),
            nlohmann::json::parse(R"({"lines": [{"sku": "A"}, {"sku": "B", "note": "gift"}]})"));
}

TEST(ProvidersUnlower, LeavesNullOfANullableFieldAlone) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "due": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
    "additionalProperties": false})");
  const auto wire = lower("openai-chat", schema);
  EXPECT_TRUE(wire.lowering.nulled_optionals.empty());
  EXPECT_EQ(wire.schema["required"], ojson::array({"due"}));
  const auto reply = nlohmann::json::parse(R"({"due": null})");
  EXPECT_EQ(unlower(reply, wire.lowering), reply);
}

TEST(ProvidersUnlower, UnwrapsAWrappedRoot) {
  const auto wire = lower("openai-chat", ojson::parse(R"({"type": "array",
      "items": {"type": "integer"}})"));
  ASSERT_TRUE(wire.lowering.wrapped_root);
  EXPECT_EQ(unlower(nlohmann::json::parse(R"({"value": [1, 2]})"), wire.lowering),
            nlohmann::json::parse("[1, 2]"));
}

// ---- single rules ---------------------------------------------------------------------------

TEST(ProvidersLowering, NonObjectRootIsWrappedAsValueForOpenAIAndAnthropic) {
  const ojson schema = ojson::parse(R"({"$schema": "x", "type": "string", "enum": ["a", "b"]})");
  for (const char* provider : {"openai-chat", "anthropic"}) {
    const auto wire = lower(provider, schema);
    EXPECT_EQ(wire.schema, ojson::parse(R"({"type": "object",
        "properties": {"value": {"type": "string", "enum": ["a", "b"]}},
        "required": ["value"], "additionalProperties": false})"))
        << provider;
    EXPECT_TRUE(wire.lowering.wrapped_root);
    ASSERT_EQ(wire.report.entries().size(), 1u);
    EXPECT_EQ(wire.report.entries()[0].stage, provider);
  }
  EXPECT_FALSE(lower("generic", schema).lowering.wrapped_root);
}

TEST(ProvidersLowering, DiscriminatedOneOfBecomesAnyOfAsAKeyword) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {"pay": {"oneOf": [
      {"type": "object", "properties": {"kind": {"type": "string", "const": "card"}},
       "required": ["kind"], "additionalProperties": false},
      {"type": "object", "properties": {"kind": {"type": "string", "const": "iban"}},
       "required": ["kind"], "additionalProperties": false}]}},
    "required": ["pay"], "additionalProperties": false})");
  Report report;
  detail::ReportWriter{report}.add(entry({"pay"}, "discriminated_union kind", "oneOf"));
  const auto wire = lower("openai-chat", schema, report);
  const auto& pay = wire.schema["properties"]["pay"];
  EXPECT_FALSE(pay.contains("oneOf"));
  EXPECT_EQ(pay["anyOf"].size(), 2u);
  EXPECT_FALSE(pay.contains("description"));
  ASSERT_EQ(wire.report.entries().size(), 1u);
  EXPECT_EQ(wire.report.entries()[0].fate, Fate::keyword);
  EXPECT_NE(wire.report.entries()[0].why.find("distinct \"kind\" values"), std::string::npos);
}

TEST(ProvidersLowering, OverlappingOneOfBecomesAnyOfWithExactlyOneInWords) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {"v": {"oneOf": [
      {"type": "string", "pattern": "^a"}, {"type": "string", "pattern": "b$"}]}},
    "required": ["v"], "additionalProperties": false})");
  Report report;
  detail::ReportWriter{report}.add(entry({"v"}, "oneOf", "oneOf"));
  const auto wire = lower("anthropic", schema, report);
  const auto& v = wire.schema["properties"]["v"];
  EXPECT_TRUE(v.contains("anyOf"));
  EXPECT_EQ(v["description"], "Must match exactly one of the options.");
  EXPECT_EQ(wire.report.entries()[0].fate, Fate::description);
  EXPECT_EQ(wire.report.entries()[0].stage, "anthropic");
}

TEST(ProvidersLowering, ExtraPatternsInAllOfMoveToTheDescriptionForOpenAI) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {"code": {
      "type": "string", "pattern": "^ORD-", "allOf": [{"pattern": "\\d$"}]}},
    "required": ["code"], "additionalProperties": false})");
  Report report;
  detail::ReportWriter{report}.add(entry({"code"}, "starts_with \"ORD-\"", "pattern"));
  detail::ReportWriter{report}.add(entry({"code"}, "ends_with digit", "pattern"));
  const auto wire = lower("openai-chat", schema, report);
  EXPECT_EQ(wire.schema["properties"]["code"],
            ojson::parse(R"({"type": "string", "description": "Must also match /\\d$/.",
                             "pattern": "^ORD-"})"));
  EXPECT_EQ(wire.report.entries()[0].fate, Fate::keyword);
  EXPECT_EQ(wire.report.entries()[1].fate, Fate::description);
  EXPECT_EQ(wire.report.entries()[1].stage, "openai-chat");
}

TEST(ProvidersLowering, AnthropicKeepsSimplePatternsAndMovesLookaroundToWords) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "a": {"type": "string", "pattern": "^[A-Z]{2}\\d{2,4}(-x)?$"},
      "b": {"type": "string", "pattern": "^(?!test)\\w+$"},
      "c": {"type": "string", "pattern": "\\bword\\b"},
      "d": {"type": "string", "pattern": "^(a)\\1$"},
      "e": {"type": "string", "pattern": "^x{1,500}$"}},
    "required": ["a", "b", "c", "d", "e"], "additionalProperties": false})");
  const auto wire = lower("anthropic", schema);
  const auto& p = wire.schema["properties"];
  EXPECT_TRUE(p["a"].contains("pattern"));
  for (const char* k : {"b", "c", "d", "e"}) {
    EXPECT_FALSE(p[k].contains("pattern")) << k;
    EXPECT_EQ(p[k]["description"],
              "Must match /" + schema["properties"][k]["pattern"].get<std::string>() + "/.")
        << k;
  }
  EXPECT_EQ(wire.report.entries().size(), 4u);
}

TEST(ProvidersLowering, FormatsOutsideTheProvidersListMoveToWords) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "site": {"type": "string", "format": "uri"}},
    "required": ["site"], "additionalProperties": false})");
  Report report;
  detail::ReportWriter{report}.add(entry({"site"}, "format uri", "format"));
  const auto openai = lower("openai-chat", schema, report);
  EXPECT_EQ(openai.schema["properties"]["site"],
            ojson::parse(R"({"type": "string", "description": "Must be a valid URI."})"));
  EXPECT_EQ(openai.report.entries()[0].fate, Fate::description);
  const auto anthropic = lower("anthropic", schema, report);
  EXPECT_EQ(anthropic.schema["properties"]["site"]["format"], "uri");
  EXPECT_EQ(anthropic.report.entries()[0].fate, Fate::keyword);
}

TEST(ProvidersLowering, TupleBecomesOneItemsSchemaWithTheOrderInWords) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {"point": {
      "type": "array", "items": [{"type": "number"}, {"type": "string", "enum": ["m", "ft"]}],
      "additionalItems": false, "minItems": 2, "maxItems": 2}},
    "required": ["point"], "additionalProperties": false})");
  const auto wire = lower("openai-chat", schema);
  EXPECT_EQ(wire.schema["properties"]["point"], ojson::parse(R"({"type": "array",
      "description": "Must have exactly 2 items, in this order: first a number and second one of \"m\" and \"ft\".",
      "items": {"anyOf": [{"type": "number"}, {"type": "string", "enum": ["m", "ft"]}]},
      "minItems": 2, "maxItems": 2})"));
  ASSERT_EQ(wire.report.entries().size(), 1u);
  EXPECT_EQ(wire.report.entries()[0].rule, "tuple");
  EXPECT_EQ(wire.report.entries()[0].fate, Fate::description);
}

TEST(ProvidersLowering, PassthroughObjectIsClosedWithAReportEntry) {
  const ojson schema = ojson::parse(R"({"type": "object",
      "properties": {"a": {"type": "string"}}, "required": ["a"]})");
  for (const char* provider : {"openai-chat", "anthropic"}) {
    const auto wire = lower(provider, schema);
    EXPECT_EQ(wire.schema["additionalProperties"], false);
    ASSERT_EQ(wire.report.entries().size(), 1u);
    EXPECT_EQ(wire.report.entries()[0].rule, "passthrough");
    EXPECT_NE(wire.report.entries()[0].why.find("cannot send unknown keys"), std::string::npos);
  }
}

TEST(ProvidersLowering, DefaultNullIsDroppedUnderOpenAIStrict) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "tip": {"anyOf": [{"type": "number"}, {"type": "null"}], "default": null}},
    "additionalProperties": false})");
  Report report;
  detail::ReportWriter{report}.add(entry({"tip"}, "default null", "default"));
  const auto wire = lower("openai-chat", schema, report);
  EXPECT_EQ(wire.schema["properties"]["tip"],
            ojson::parse(R"({"anyOf": [{"type": "number"}, {"type": "null"}]})"));
  EXPECT_EQ(wire.report.entries()[0].fate, Fate::dropped);
}

TEST(ProvidersLowering, ExamplesMoveToTheDescription) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "sku": {"type": "string", "description": "Stock unit.", "examples": ["A-1", "B-2"]}},
    "required": ["sku"], "additionalProperties": false})");
  Report report;
  detail::ReportWriter{report}.add(entry({"sku"}, "examples", "examples"));
  for (const char* provider : {"openai-chat", "anthropic"}) {
    const auto wire = lower(provider, schema, report);
    EXPECT_EQ(wire.schema["properties"]["sku"], ojson::parse(R"({"type": "string",
                  "description": "Stock unit. Examples: \"A-1\" and \"B-2\"."})"));
    EXPECT_EQ(wire.report.entries()[0].fate, Fate::description);
  }
}

TEST(ProvidersLowering, KeywordsStrictModeRejectsAreStatedInWords) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}},
    "required": ["tags"], "additionalProperties": false})");
  const auto wire = lower("openai-chat", schema);
  EXPECT_EQ(wire.schema["properties"]["tags"],
            ojson::parse(R"({"type": "array", "description": "Items must be unique.",
                             "items": {"type": "string"}})"));
  ASSERT_EQ(wire.report.entries().size(), 1u);
  EXPECT_EQ(wire.report.entries()[0].keyword, "uniqueItems");
  EXPECT_EQ(wire.report.entries()[0].fate, Fate::description);
}

TEST(ProvidersLowering, AnthropicKeepsMinItemsOfOneAndMovesLargerCounts) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "a": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
      "b": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 10}},
    "required": ["a", "b"], "additionalProperties": false})");
  const auto wire = lower("anthropic", schema);
  EXPECT_EQ(wire.schema["properties"]["a"]["minItems"], 1);
  EXPECT_EQ(wire.schema["properties"]["b"], ojson::parse(R"({"type": "array",
                "description": "Must have at least 2 items and at most 10 items.",
                "items": {"type": "integer"}})"));
}

TEST(ProvidersLowering, AnthropicStatesEveryNumericBoundInOneSentence) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "n": {"type": "integer", "description": "Count.", "exclusiveMinimum": 0,
            "exclusiveMaximum": 5, "multipleOf": 2}},
    "required": ["n"], "additionalProperties": false})");
  const auto wire = lower("anthropic", schema);
  EXPECT_EQ(wire.schema["properties"]["n"], ojson::parse(R"({"type": "integer",
                "description": "Count. Must be greater than 0, less than 5 and a multiple of 2."})"));
}

}  // namespace
}  // namespace accord

namespace accord {
namespace {

const Path kValues = Path{} / std::string("{}");

const ReportEntry* find_entry(const Report& report, const Path& path, std::string_view keyword) {
  for (const auto& e : report.entries()) {
    if (e.path == path && e.keyword == keyword) return &e;
  }
  return nullptr;
}

TEST(ProvidersLowering, MovedSentencesGetAFullStopAfterTheUsersDescription) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "preset": {"description": "Preset to use", "oneOf": [{"type": "string"},
                                                          {"type": "string", "minLength": 2}]}},
    "required": ["preset"], "additionalProperties": false})");
  const auto wire = lower("openai-chat", schema);
  EXPECT_EQ(wire.schema["properties"]["preset"]["description"],
            "Preset to use. Must match exactly one of the options.");
}

TEST(ProvidersLowering, RequiredNameThatPropertiesDoNotDeclareStaysOnTheWire) {
  const ojson schema = ojson::parse(R"({"type": "object",
      "properties": {"a": {"type": "string"}}, "required": ["a", "id"]})");
  for (const char* provider : {"openai-chat", "anthropic"}) {
    const auto wire = lower(provider, schema);
    EXPECT_EQ(wire.schema["required"], ojson::parse(R"(["a", "id"])")) << provider;
    EXPECT_EQ(wire.schema["properties"]["id"]["anyOf"].size(), 4u) << provider;
    const auto* row = find_entry(wire.report, Path{"id"}, "required");
    ASSERT_NE(row, nullptr) << provider;
    EXPECT_NE(row->why.find("not declared in properties"), std::string::npos);
  }
}

TEST(ProvidersLowering, AllOfOfObjectsIsMergedIntoOneObject) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {"item": {"allOf": [
      {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
      {"type": "object", "description": "A named thing", "properties": {"name": {"type": "string"}},
       "required": ["name"]}]}}, "required": ["item"], "additionalProperties": false})");
  const auto anthropic = lower("anthropic", schema);
  EXPECT_EQ(anthropic.schema["properties"]["item"], ojson::parse(R"({"type": "object",
      "properties": {"id": {"type": "string"}, "name": {"type": "string"}},
      "required": ["id", "name"], "additionalProperties": false, "description": "A named thing"})"));
  const auto openai = lower("openai-chat", schema);
  EXPECT_FALSE(openai.schema["properties"]["item"].contains("allOf"));
  EXPECT_EQ(openai.schema["properties"]["item"]["required"], ojson::parse(R"(["id", "name"])"));
  const auto* row = find_entry(openai.report, Path{"item"}, "allOf");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->fate, Fate::keyword);
  EXPECT_NE(row->why.find("merged into one schema"), std::string::npos);
}

TEST(ProvidersLowering, AllOfThatCannotBeMergedSaysWhyInTheReport) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {"n": {"allOf": [
      {"type": "object", "properties": {"a": {"type": "string"}}},
      {"type": "object", "properties": {"a": {"type": "integer"}}}]}},
    "required": ["n"], "additionalProperties": false})");
  for (const char* provider : {"openai-chat", "anthropic"}) {
    const auto wire = lower(provider, schema);
    EXPECT_FALSE(wire.schema["properties"]["n"].contains("allOf")) << provider;
    EXPECT_EQ(wire.schema["properties"]["n"]["type"], "object") << provider;
    const auto* row = find_entry(wire.report, Path{"n"}, "allOf");
    ASSERT_NE(row, nullptr) << provider;
    EXPECT_EQ(row->fate, Fate::description);
    EXPECT_NE(row->why.find("property \"a\": two different type values"), std::string::npos)
        << row->why;
  }
}

TEST(ProvidersLowering, TypedMapIsSentAsKeyValueEntries) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {"env": {
      "type": "object", "description": "Variables.",
      "additionalProperties": {"type": "string", "maxLength": 9}}},
    "required": ["env"], "additionalProperties": false})");
  Report report;
  detail::ReportWriter{report}.add(entry({"env"}, "other keys hold {...}", "additionalProperties"));
  detail::ReportWriter{report}.add(
      entry(Path{"env"} / std::string("{}"), "maxLength 9", "maxLength"));
  const auto wire = lower("anthropic", schema, report);
  EXPECT_EQ(wire.schema["properties"]["env"], ojson::parse(R"({"type": "array",
      "description": "Variables. An object sent as a list of entries: each item is one key and its value, and keys must be distinct.",
      "items": {"type": "object", "properties": {"key": {"type": "string"},
        "value": {"type": "string", "description": "Must have at most 9 characters."}},
        "required": ["key", "value"], "additionalProperties": false}})"));
  EXPECT_EQ(wire.report.entries()[0].fate, Fate::keyword);
  EXPECT_NE(wire.report.entries()[0].why.find("list of {key, value} entries"), std::string::npos);
  EXPECT_EQ(wire.report.entries()[1].fate, Fate::description);
  EXPECT_EQ(wire.report.entries()[1].stage, "anthropic");
}

// A map whose values are maps of integers.
ojson nested_map_schema() {
  return ojson::parse(R"({"type": "object", "properties": {"m": {
      "type": "object", "additionalProperties": {"type": "object",
        "additionalProperties": {"type": "integer"}}}},
    "required": ["m"], "additionalProperties": false})");
}

TEST(ProvidersUnlower, TurnsKeyValueEntriesBackIntoObjectsOuterFirst) {
  const auto wire = lower("openai-chat", nested_map_schema());
  const auto reply = nlohmann::json::parse(R"({"m": [
      {"key": "a", "value": [{"key": "x", "value": 1}]}, {"key": "b", "value": []}]})");
  EXPECT_EQ(unlower(reply, wire.lowering),
            nlohmann::json::parse(R"({"m": {"a": {"x": 1}, "b": {}}})"));
}

TEST(ProvidersLowering, TypelessAndTrueSchemasBecomeAnyScalarWithARow) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "a": {"description": "Anything."}, "b": true, "gone": false},
    "required": ["a", "b"], "additionalProperties": false})");
  for (const char* provider : {"openai-chat", "anthropic"}) {
    const auto wire = lower(provider, schema);
    EXPECT_EQ(wire.schema["properties"]["a"], ojson::parse(R"({"anyOf": [{"type": "string"},
        {"type": "number"}, {"type": "boolean"}, {"type": "null"}], "description": "Anything."})"))
        << provider;
    EXPECT_EQ(wire.schema["properties"]["b"]["anyOf"].size(), 4u);
    EXPECT_FALSE(wire.schema["properties"].contains("gone"));
    EXPECT_NE(find_entry(wire.report, Path{"a"}, "type"), nullptr);
    EXPECT_NE(find_entry(wire.report, Path{"b"}, "type"), nullptr);
    EXPECT_NE(find_entry(wire.report, Path{"gone"}, "properties"), nullptr);
  }
}

TEST(ProvidersLowering, AnthropicSendsEnumsOfObjectsAsTheirShapesAndStatesThemInWords) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "p": {"type": "object", "enum": [{"x": 1}, {"x": 2}]}},
    "required": ["p"], "additionalProperties": false})");
  const auto wire = lower("anthropic", schema);
  EXPECT_EQ(wire.schema["properties"]["p"], ojson::parse(R"({
      "description": "Must be one of {\"x\":1} and {\"x\":2}.",
      "anyOf": [
        {"type": "object", "properties": {"x": {"type": "integer", "enum": [1]}},
         "required": ["x"], "additionalProperties": false},
        {"type": "object", "properties": {"x": {"type": "integer", "enum": [2]}},
         "required": ["x"], "additionalProperties": false}]})"));
  EXPECT_EQ(find_entry(wire.report, Path{"p"}, "enum")->fate, Fate::description);
}

TEST(ProvidersLowering, ArrayWithoutItemsGetsItemsOfAnyScalar) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {"list": {"type": "array"}},
    "required": ["list"], "additionalProperties": false})");
  const auto wire = lower("openai-chat", schema);
  EXPECT_EQ(wire.schema["properties"]["list"]["items"]["anyOf"].size(), 4u);
  EXPECT_NE(find_entry(wire.report, Path{"list"} / std::string("[]"), "type"), nullptr);
}

TEST(ProvidersLowering, NonStandardKeywordsAreLeftOffTheWireWithARow) {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "n": {"type": "string", "nullable": true, "tsType": "Name"}},
    "required": ["n"], "additionalProperties": false})");
  for (const char* provider : {"openai-chat", "anthropic"}) {
    const auto wire = lower(provider, schema);
    EXPECT_EQ(wire.schema["properties"]["n"], ojson::parse(R"({"type": "string"})")) << provider;
    const auto* row = find_entry(wire.report, Path{"n"}, "nullable");
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->fate, Fate::dropped);
    EXPECT_NE(row->why.find("OpenAPI"), std::string::npos);
    EXPECT_NE(find_entry(wire.report, Path{"n"}, "tsType"), nullptr);
  }
}

}  // namespace
}  // namespace accord

namespace accord {
namespace {

// A thread of comments, as import_json_schema leaves a recursive file schema.
ojson thread_schema() {
  return ojson::parse(R"({"type": "object", "properties": {"top": {"$ref": "#/$defs/comment"}},
    "required": ["top"], "additionalProperties": false,
    "$defs": {"comment": {"type": "object", "properties": {
      "text": {"type": "string"}, "note": {"type": "string"},
      "replies": {"type": "array", "items": {"$ref": "#/$defs/comment"}}},
      "required": ["text", "replies"], "additionalProperties": false}}})");
}

TEST(ProvidersLowering, OpenAIKeepsRecursiveDefinitionsAsReferences) {
  const auto wire = lower("openai-chat", thread_schema());
  EXPECT_EQ(wire.schema["properties"]["top"], ojson::parse(R"({"$ref": "#/$defs/comment"})"));
  const auto& comment = wire.schema["$defs"]["comment"];
  EXPECT_EQ(comment["properties"]["replies"]["items"],
            ojson::parse(R"({"$ref": "#/$defs/comment"})"));
  EXPECT_EQ(comment["required"], ojson::parse(R"(["text", "note", "replies"])"));
}

TEST(ProvidersUnlower, NullMeansAbsentAtEveryDepthOfARecursiveDefinition) {
  const auto wire = lower("openai-chat", thread_schema());
  const auto reply = nlohmann::json::parse(R"({"top": {"text": "a", "note": null, "replies": [
      {"text": "b", "note": "n", "replies": [{"text": "c", "note": null, "replies": []}]}]}})");
  EXPECT_EQ(unlower(reply, wire.lowering), nlohmann::json::parse(R"({"top": {"text": "a",
      "replies": [{"text": "b", "note": "n", "replies": [{"text": "c", "replies": []}]}]}})"));
}

TEST(ProvidersLowering, AnthropicUnrollsRecursionAndSaysWhereItStops) {
  const auto wire = lower("anthropic", thread_schema());
  EXPECT_FALSE(wire.schema.contains("$defs"));
  const ojson* level = &wire.schema["properties"]["top"];
  for (int depth = 0; depth < 3; ++depth) {
    ASSERT_EQ((*level)["type"], "object") << depth;
    level = &(*level)["properties"]["replies"]["items"];
  }
  EXPECT_EQ(*level, ojson::parse(R"({"type": "null"})"));
  bool said = false;
  for (const auto& e : wire.report.entries()) {
    said = said || (e.keyword == "$ref" && e.why.find("unrolled 3 levels") != std::string::npos);
  }
  EXPECT_TRUE(said);
}

TEST(ProvidersLowerValue, NestedMapsBecomeEntryListsInnerFirst) {
  const auto wire = lower("openai-chat", nested_map_schema());
  const auto value = nlohmann::json::parse(R"({"m": {"a": {"x": 1}, "b": {}}})");
  EXPECT_EQ(lower_value(value, wire.lowering), nlohmann::json::parse(R"({"m": [
      {"key": "a", "value": [{"key": "x", "value": 1}]}, {"key": "b", "value": []}]})"));
  EXPECT_EQ(unlower(lower_value(value, wire.lowering), wire.lowering), value);
}

TEST(ProvidersLowerValue, AbsentOptionalIsSentAsNullAtEveryDepthOfARecursion) {
  const auto wire = lower("openai-chat", thread_schema());
  const auto value = nlohmann::json::parse(R"({"top": {"text": "a", "replies": [
      {"text": "b", "note": "n", "replies": [{"text": "c", "replies": []}]}]}})");
  EXPECT_EQ(lower_value(value, wire.lowering), nlohmann::json::parse(R"({"top": {"text": "a",
      "note": null, "replies": [{"text": "b", "note": "n", "replies": [
      {"text": "c", "note": null, "replies": []}]}]}})"));
  EXPECT_EQ(unlower(lower_value(value, wire.lowering), wire.lowering), value);
}

// Two closed payment options with an optional field each.
ojson payment_schema() {
  return ojson::parse(R"({"type": "object", "properties": {"pay": {"anyOf": [
    {"type": "object", "properties": {"card": {"type": "string"}, "cvc": {"type": "string"}},
     "required": ["card"], "additionalProperties": false},
    {"type": "object", "properties": {"iban": {"type": "string"}, "bic": {"type": "string"}},
     "required": ["iban"], "additionalProperties": false}]}},
    "required": ["pay"], "additionalProperties": false})");
}

TEST(ProvidersLowerValue, UnionFillsAbsentOptionalsOnlyInTheOptionTheValueIs) {
  const auto wire = lower("openai-chat", payment_schema());
  const auto value = nlohmann::json::parse(R"({"pay": {"iban": "DE89"}})");
  const auto lowered = lower_value(value, wire.lowering, matching_union_option(payment_schema()));
  EXPECT_EQ(lowered, nlohmann::json::parse(R"({"pay": {"iban": "DE89", "bic": null}})"));
  EXPECT_TRUE(Validator::from_json_schema(wire.schema).validate(lowered).empty());
  EXPECT_EQ(unlower(lowered, wire.lowering), value);
}

TEST(ProvidersLowerValue, NonObjectRootIsWrapped) {
  const auto wire =
      lower("anthropic", ojson::parse(R"({"type": "array", "items": {"type": "string"}})"));
  EXPECT_EQ(lower_value(nlohmann::json::parse(R"(["a"])"), wire.lowering),
            nlohmann::json::parse(R"({"value": ["a"]})"));
}

}  // namespace
}  // namespace accord
