#include "accord/validate.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace accord {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

Validator make(const std::string& schema) {
  return Validator::from_json_schema(ojson::parse(schema));
}

Issues check(const std::string& schema, const std::string& value) {
  return make(schema).validate(json::parse(value));
}

// The single issue found; fails the test when there is not exactly one.
Issue only(const Issues& issues) {
  EXPECT_EQ(issues.size(), 1U) << prettify(issues);
  return issues.empty() ? Issue{IssueCode::custom, Path{}, "<none>"} : issues.front();
}

// The refund and transfer schemas of shared/anchors/schemas.mjs, written as emit() writes them
// (EMIT_SPEC.md, draft-07). Their refinements need the DSL; see validate_dsl_test.cpp.pending.
const char* const kRefund = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "description": "Rule: refundDate is before orderDate.",
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
})";

const char* const kTransfer = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
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
})";

std::string prettified(const char* schema, const std::string& value) {
  return prettify(make(schema).parse_and_validate(value).issues);
}

// ---- the anchors' prettify examples (issues other than refinements) ----

TEST(ZodExamples, RefundWithEveryKindOfMistake) {
  EXPECT_EQ(
      prettified(
          kRefund,
          R"({"orderId":"ORD-12345","amount":0,"currency":"GBP","orderDate":"2026-02-30",)"
          R"("refundDate":"2026-01-01","note":"see https://x.example","sku":12,"extra":true})"),
      "✖ Unrecognized key: \"extra\"\n"
      "✖ Invalid string: must match pattern /^ORD-\\d{6}$/\n  → at orderId\n"
      "✖ Too small: expected number to be >0\n  → at amount\n"
      "✖ Invalid option: expected one of \"EUR\"|\"USD\"\n  → at currency\n"
      "✖ Invalid ISO date\n  → at orderDate\n"
      "✖ Invalid input: expected string, received number\n  → at sku");
}

TEST(ZodExamples, RefundAmountAsString) {
  EXPECT_EQ(prettified(
                kRefund,
                R"({"orderId":"ORD-123456","amount":"5","currency":"EUR","orderDate":"2026-05-10",)"
                R"("refundDate":"2026-05-09","note":"ok","sku":"a"})"),
            "✖ Invalid input: expected number, received string\n  → at amount");
}

TEST(ZodExamples, RefundWhoseOnlyProblemIsTheObjectRuleHasNoSchemaIssues) {
  EXPECT_EQ(
      prettified(kRefund,
                 R"({"orderId":"ORD-123456","amount":5,"currency":"EUR","orderDate":"2026-05-10",)"
                 R"("refundDate":"2026-05-09","note":"ok","sku":"a"})"),
      "");
}

TEST(ZodExamples, RefundMissingSku) {
  EXPECT_EQ(
      prettified(kRefund,
                 R"({"orderId":"ORD-123456","amount":5,"currency":"EUR","orderDate":"2026-05-10",)"
                 R"("refundDate":"2026-05-19","note":"see http://a.b"})"),
      "✖ Invalid input: expected string, received undefined\n  → at sku");
}

TEST(ZodExamples, TransferWithEveryKindOfMistake) {
  EXPECT_EQ(
      prettified(kTransfer, R"({"accountId":"acct_ABC","email":"a@@example.com","amount":20000,)"
                            R"("currency":"USD","memo":"ab","idempotencyKey":1})"),
      "✖ Invalid string: must match pattern /^acct_[a-z0-9]+$/\n  → at accountId\n"
      "✖ Invalid email address\n  → at email\n"
      "✖ Too big: expected number to be <=10000\n  → at amount\n"
      "✖ Invalid option: expected one of \"usd\"|\"eur\"\n  → at currency\n"
      "✖ Too small: expected string to have >=3 characters\n  → at memo\n"
      "✖ Invalid input: expected string, received number\n  → at idempotencyKey");
}

TEST(ZodExamples, TransferWhoseOnlyProblemIsTheObjectRuleHasNoSchemaIssues) {
  EXPECT_EQ(
      prettified(
          kTransfer,
          R"({"accountId":"acct_abc","email":"ops@example.com","amount":900,"currency":"eur"})"),
      "");
}

TEST(ZodExamples, TransferLongMemoAndUnexpectedKey) {
  EXPECT_EQ(prettified(kTransfer, R"({"accountId":"acct_abc","email":"ops@example.com","amount":9,)"
                                  R"("currency":"usd","memo":")" +
                                      std::string(121, 'x') + R"(","unexpected":1})"),
            "✖ Unrecognized key: \"unexpected\"\n"
            "✖ Too big: expected string to have <=120 characters\n  → at memo");
}

// ---- one message per rule ----

TEST(Messages, WrongTypeNamesExpectedAndReceived) {
  auto issue = only(check(R"({"type":"string"})", "5"));
  EXPECT_EQ(issue.code, IssueCode::invalid_type);
  EXPECT_TRUE(issue.path.empty());
  EXPECT_EQ(issue.message, "Invalid input: expected string, received number");
}

TEST(Messages, ReceivedNamesEveryJsonType) {
  EXPECT_EQ(only(check(R"({"type":"number"})", "null")).message,
            "Invalid input: expected number, received null");
  EXPECT_EQ(only(check(R"({"type":"number"})", "[]")).message,
            "Invalid input: expected number, received array");
  EXPECT_EQ(only(check(R"({"type":"number"})", "{}")).message,
            "Invalid input: expected number, received object");
  EXPECT_EQ(only(check(R"({"type":"number"})", "true")).message,
            "Invalid input: expected number, received boolean");
}

TEST(Messages, MissingFieldIsInvalidTypeReceivedUndefinedAtTheField) {
  auto issue = only(
      check(R"({"type":"object","properties":{"a":{"type":"string"}},"required":["a"]})", "{}"));
  EXPECT_EQ(issue.code, IssueCode::invalid_type);
  EXPECT_EQ(issue.path, (Path{"a"}));
  EXPECT_EQ(issue.message, "Invalid input: expected string, received undefined");
}

TEST(Messages, MissingEnumFieldIsInvalidOptionAsInZod) {
  auto issue = only(check(
      R"({"type":"object","properties":{"c":{"type":"string","enum":["EUR","USD"]}},"required":["c"]})",
      "{}"));
  EXPECT_EQ(issue.code, IssueCode::invalid_value);
  EXPECT_EQ(issue.path, (Path{"c"}));
  EXPECT_EQ(issue.message, "Invalid option: expected one of \"EUR\"|\"USD\"");
}

TEST(Messages, MissingRequiredNameWithoutASchemaIsNonoptional) {
  auto issue = only(check(R"({"type":"object","required":["a"]})", "{}"));
  EXPECT_EQ(issue.path, (Path{"a"}));
  EXPECT_EQ(issue.message, "Invalid input: expected nonoptional, received undefined");
}

TEST(Messages, NumberBounds) {
  EXPECT_EQ(only(check(R"({"type":"number","exclusiveMinimum":0})", "0")).message,
            "Too small: expected number to be >0");
  EXPECT_EQ(only(check(R"({"type":"number","minimum":1})", "0.5")).message,
            "Too small: expected number to be >=1");
  EXPECT_EQ(only(check(R"({"type":"number","maximum":10000})", "20000")).message,
            "Too big: expected number to be <=10000");
  EXPECT_EQ(only(check(R"({"type":"number","exclusiveMaximum":5})", "5")).message,
            "Too big: expected number to be <5");
  EXPECT_EQ(only(check(R"({"type":"number","minimum":0.25})", "0")).message,
            "Too small: expected number to be >=0.25");
}

TEST(Messages, NumberBoundCodes) {
  EXPECT_EQ(only(check(R"({"type":"number","exclusiveMinimum":0})", "0")).code,
            IssueCode::too_small);
  EXPECT_EQ(only(check(R"({"type":"number","maximum":1})", "2")).code, IssueCode::too_big);
}

TEST(Messages, MultipleOf) {
  auto issue = only(check(R"({"type":"number","multipleOf":5})", "12"));
  EXPECT_EQ(issue.code, IssueCode::not_multiple_of);
  EXPECT_EQ(issue.message, "Invalid number: must be a multiple of 5");
  EXPECT_TRUE(check(R"({"type":"number","multipleOf":0.01})", "4.35").empty());
}

TEST(Messages, StringLengths) {
  EXPECT_EQ(only(check(R"({"type":"string","minLength":3})", R"("ab")")).message,
            "Too small: expected string to have >=3 characters");
  EXPECT_EQ(only(check(R"({"type":"string","maxLength":120})", "\"" + std::string(121, 'x') + "\""))
                .message,
            "Too big: expected string to have <=120 characters");
}

TEST(Messages, StringLengthCountsCodePoints) {
  EXPECT_TRUE(check(R"({"type":"string","maxLength":3})", R"("日本語")").empty());
}

TEST(Messages, ArrayItemCounts) {
  auto small = only(check(R"({"type":"array","minItems":1})", "[]"));
  EXPECT_EQ(small.code, IssueCode::too_small);
  EXPECT_EQ(small.message, "Too small: expected array to have >=1 items");
  EXPECT_EQ(only(check(R"({"type":"array","maxItems":2})", "[1,2,3]")).message,
            "Too big: expected array to have <=2 items");
}

TEST(Messages, Pattern) {
  auto issue = only(check(R"({"type":"string","pattern":"^ORD-\\d{6}$"})", R"("ORD-1")"));
  EXPECT_EQ(issue.code, IssueCode::invalid_format);
  EXPECT_EQ(issue.message, "Invalid string: must match pattern /^ORD-\\d{6}$/");
}

TEST(Messages, EscapedLiteralPatternsReadAsStartsEndsIncludes) {
  EXPECT_EQ(only(check(R"({"type":"string","pattern":"^a\\.b"})", R"("x")")).message,
            "Invalid string: must start with \"a.b\"");
  EXPECT_EQ(only(check(R"({"type":"string","pattern":"\\(x\\)$"})", R"("y")")).message,
            "Invalid string: must end with \"(x)\"");
  EXPECT_EQ(only(check(R"({"type":"string","pattern":"needle"})", R"("hay")")).message,
            "Invalid string: must include \"needle\"");
}

TEST(Messages, SeveralPatternsAllReport) {
  auto issues = check(R"({"type":"string","pattern":"^a","allOf":[{"pattern":"z$"}]})", R"("m")");
  ASSERT_EQ(issues.size(), 2U);
  EXPECT_EQ(issues[0].message, "Invalid string: must start with \"a\"");
  EXPECT_EQ(issues[1].message, "Invalid string: must end with \"z\"");
}

TEST(Messages, Formats) {
  EXPECT_EQ(only(check(R"({"type":"string","format":"date-time"})", R"("2026-05-10")")).message,
            "Invalid ISO datetime");
  EXPECT_EQ(only(check(R"({"type":"string","format":"time"})", R"("25:00")")).message,
            "Invalid ISO time");
  EXPECT_EQ(only(check(R"({"type":"string","format":"email"})", R"("a@")")).message,
            "Invalid email address");
  EXPECT_EQ(only(check(R"({"type":"string","format":"uri"})", R"("not a url")")).message,
            "Invalid URL");
  EXPECT_EQ(only(check(R"({"type":"string","format":"uuid"})", R"("123")")).message,
            "Invalid UUID");
  EXPECT_EQ(only(check(R"({"type":"string","format":"uuid"})", R"("123")")).code,
            IssueCode::invalid_format);
}

TEST(Messages, FailedDateIsReportedOnceNotAlsoAsItsPattern) {
  auto issue = only(check(R"({"type":"string","format":"date","pattern":"^\\d{4}-\\d{2}-\\d{2}$"})",
                          R"("10/05/2026")"));
  EXPECT_EQ(issue.message, "Invalid ISO date");
}

TEST(Messages, LeapDayOfACommonYearIsAnInvalidDate) {
  EXPECT_EQ(only(check(R"({"type":"string","format":"date"})", R"("2023-02-29")")).message,
            "Invalid ISO date");
  EXPECT_TRUE(check(R"({"type":"string","format":"date"})", R"("2024-02-29")").empty());
}

TEST(Messages, UncheckedFormatsAreAnnotations) {
  EXPECT_TRUE(check(R"({"type":"string","format":"phone"})", R"("not a phone!")").empty());
}

TEST(Messages, HostnameFormatIsChecked) {
  EXPECT_EQ(only(check(R"({"type":"string","format":"hostname"})", R"("not a host!")")).message,
            "Invalid hostname");
}

TEST(Messages, EnumOption) {
  auto issue = only(check(R"({"type":"string","enum":["usd","eur"]})", R"("USD")"));
  EXPECT_EQ(issue.code, IssueCode::invalid_value);
  EXPECT_EQ(issue.message, "Invalid option: expected one of \"usd\"|\"eur\"");
}

TEST(Messages, EnumGivenAnotherTypeIsStillInvalidOption) {
  EXPECT_EQ(only(check(R"({"type":"string","enum":["a","b"]})", "3")).code,
            IssueCode::invalid_value);
}

TEST(Messages, ConstValue) {
  auto issue = only(check(R"({"type":"string","const":"x"})", R"("y")"));
  EXPECT_EQ(issue.code, IssueCode::invalid_value);
  EXPECT_EQ(issue.message, "Invalid input: expected \"x\"");
  EXPECT_EQ(only(check(R"({"const":3})", "4")).message, "Invalid input: expected 3");
  EXPECT_EQ(only(check(R"({"const":true})", "false")).message, "Invalid input: expected true");
}

TEST(Messages, UnrecognizedKeyAndKeys) {
  auto one = only(
      check(R"({"type":"object","properties":{},"additionalProperties":false})", R"({"extra":1})"));
  EXPECT_EQ(one.code, IssueCode::unrecognized_keys);
  EXPECT_TRUE(one.path.empty());
  EXPECT_EQ(one.message, "Unrecognized key: \"extra\"");
  EXPECT_EQ(only(check(R"({"type":"object","properties":{},"additionalProperties":false})",
                       R"({"a":1,"b":2})"))
                .message,
            "Unrecognized keys: \"a\", \"b\"");
}

TEST(Messages, UnrecognizedKeysPointAtTheirObject) {
  auto issue = only(check(R"({"type":"object","properties":{"o":{"type":"object","properties":{},)"
                          R"("additionalProperties":false}}})",
                          R"({"o":{"x":1}})"));
  EXPECT_EQ(issue.path, (Path{"o"}));
}

TEST(Messages, IntegerGivenAFractionExpectsInt) {
  auto issue = only(check(R"({"type":"integer"})", "1.5"));
  EXPECT_EQ(issue.code, IssueCode::invalid_type);
  EXPECT_EQ(issue.message, "Invalid input: expected int, received number");
}

TEST(Messages, IntegerGivenAStringExpectsNumber) {
  EXPECT_EQ(only(check(R"({"type":"integer"})", R"("1")")).message,
            "Invalid input: expected number, received string");
}

TEST(Messages, NeverSchemaRejectsEverything) {
  EXPECT_EQ(only(check(R"({"type":"object","properties":{"a":false}})", R"({"a":1})")).message,
            "Invalid input: expected never, received number");
}

// ---- unions ----

const char* const kNullableString =
    R"({"type":"object","properties":{"n":{"anyOf":[{"type":"string","minLength":2},{"type":"null"}],)"
    R"("description":"maybe"}},"required":["n"]})";

TEST(Unions, NullableAcceptsNull) {
  EXPECT_TRUE(check(kNullableString, R"({"n":null})").empty());
}

TEST(Unions, NullableIsExplainedAsItsInnerSchema) {
  auto issue = only(check(kNullableString, R"({"n":"a"})"));
  EXPECT_EQ(issue.path, (Path{"n"}));
  EXPECT_EQ(issue.message, "Too small: expected string to have >=2 characters");
  EXPECT_EQ(only(check(kNullableString, R"({"n":3})")).message,
            "Invalid input: expected string, received number");
  EXPECT_EQ(only(check(kNullableString, "{}")).message,
            "Invalid input: expected string, received undefined");
}

TEST(Unions, NoMatchingOptionIsInvalidUnion) {
  auto issue = only(check(R"({"anyOf":[{"type":"string"},{"type":"number"}]})", "true"));
  EXPECT_EQ(issue.code, IssueCode::invalid_union);
  EXPECT_EQ(issue.message, "Invalid input");
}

TEST(Unions, TheOnlyOptionOfTheRightTypeIsExplained) {
  auto issue =
      only(check(R"({"anyOf":[{"type":"string","minLength":5},{"type":"number"}]})", R"("ab")"));
  EXPECT_EQ(issue.code, IssueCode::too_small);
}

const char* const kShapes = R"({"oneOf":[
  {"type":"object","properties":{"kind":{"type":"string","const":"circle"},"r":{"type":"number"}},
   "required":["kind","r"],"additionalProperties":false},
  {"type":"object","properties":{"kind":{"type":"string","const":"square"},"side":{"type":"number"}},
   "required":["kind","side"],"additionalProperties":false}]})";

TEST(Unions, DiscriminatedUnionExplainsTheOptionItsTagNames) {
  auto issue = only(check(kShapes, R"({"kind":"square","side":"2"})"));
  EXPECT_EQ(issue.path, (Path{"side"}));
  EXPECT_EQ(issue.message, "Invalid input: expected number, received string");
}

TEST(Unions, UnknownTagIsInvalidUnionAtTheTag) {
  auto issue = only(check(kShapes, R"({"kind":"hexagon"})"));
  EXPECT_EQ(issue.code, IssueCode::invalid_union);
  EXPECT_EQ(issue.path, (Path{"kind"}));
}

TEST(Unions, DiscriminatedUnionGivenANonObjectExpectsObject) {
  EXPECT_EQ(only(check(kShapes, "[]")).message, "Invalid input: expected object, received array");
}

// ---- arrays and tuples ----

TEST(Arrays, ItemIssuesCarryTheIndex) {
  auto issue = only(check(R"({"type":"array","items":{"type":"string"}})", R"(["a",2])"));
  EXPECT_EQ(issue.path, (Path{std::size_t{1}}));
}

const char* const kPairDraft07 =
    R"({"type":"array","items":[{"type":"string"},{"type":"number"}],"additionalItems":false,)"
    R"("minItems":2,"maxItems":2})";
const char* const kPair202012 =
    R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array",)"
    R"("prefixItems":[{"type":"string"},{"type":"number"}],"items":false,"minItems":2,"maxItems":2})";

TEST(Arrays, TupleChecksEachPosition) {
  EXPECT_TRUE(check(kPairDraft07, R"(["a",1])").empty());
  EXPECT_EQ(only(check(kPairDraft07, R"(["a","b"])")).path, (Path{std::size_t{1}}));
}

TEST(Arrays, TupleOfTheWrongLengthReportsOnlyTheLength) {
  EXPECT_EQ(only(check(kPairDraft07, R"([1,2,3])")).message,
            "Too big: expected array to have <=2 items");
  EXPECT_EQ(only(check(kPairDraft07, R"([1])")).message,
            "Too small: expected array to have >=2 items");
}

TEST(Arrays, PrefixItemsTuplesAreEnforced) {
  EXPECT_TRUE(check(kPair202012, R"(["a",1])").empty());
  EXPECT_EQ(only(check(kPair202012, R"(["a","b"])")).path, (Path{std::size_t{1}}));
  EXPECT_EQ(only(check(kPair202012, R"(["a",1,2])")).code, IssueCode::too_big);
}

// ---- order, fallbacks, guards ----

TEST(Order, IssuesFollowTheSchemaNotTheValue) {
  auto issues =
      check(R"({"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}})",
            R"({"a":1,"z":2})");
  ASSERT_EQ(issues.size(), 2U);
  EXPECT_EQ(issues[0].path, (Path{"z"}));
  EXPECT_EQ(issues[1].path, (Path{"a"}));
}

TEST(Not, AMatchIsOneCustomIssueAtItsPath) {
  auto issue = only(
      check(R"({"type":"object","properties":{"a":{"not":{"type":"string"}}}})", R"({"a":"x"})"));
  EXPECT_EQ(issue.code, IssueCode::custom);
  EXPECT_EQ(issue.path, (Path{"a"}));
  EXPECT_EQ(issue.message, "Invalid input: must not match the schema in \"not\"");
}

TEST(Guards, FormatOnANonStringIsIgnored) {
  EXPECT_TRUE(check(R"({"format":"date"})", "[1]").empty());
  EXPECT_TRUE(check(R"({"format":"date"})", R"({"a":1})").empty());
}

TEST(Guards, PatternSeesTheWholeStringIncludingAFinalNewline) {
  EXPECT_EQ(only(check(R"({"type":"string","pattern":"^ORD-\\d{6}$"})", R"("ORD-123456\n")")).code,
            IssueCode::invalid_format);
}

TEST(Guards, LongStringsAgainstPatternsFinish) {
  const std::string text = std::string(100'000, 'a');
  EXPECT_TRUE(check(R"({"type":"string","pattern":"^[a-z0-9]+$"})", "\"" + text + "\"").empty());
  EXPECT_EQ(check(R"({"type":"string","pattern":"^(a+)+$"})", "\"" + text + "!\"").size(), 1U);
}

TEST(Guards, HundredThousandDeepTextIsAnInvalidJsonIssue) {
  auto result = make(R"({"items":{}})")
                    .parse_and_validate(std::string(100'000, '[') + std::string(100'000, ']'));
  EXPECT_FALSE(result.parsed());
  ASSERT_EQ(result.issues.size(), 1U);
  EXPECT_EQ(result.issues[0].code, IssueCode::invalid_json);
}

TEST(Guards, DeepValueBuiltInCodeIsRefusedNotRecursed) {
  json deep = json::array();
  for (int i = 0; i < 5000; ++i) deep = json::array({std::move(deep)});
  auto issues = make(R"({"type":"array"})").validate(deep);
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].code, IssueCode::invalid_json);
  // Take it apart iteratively-ish: nlohmann's destructor is iterative for arrays.
}

TEST(Guards, IntegerAboveInt64MaxIsNotReadAsNegative) {
  EXPECT_TRUE(check(R"({"type":"number","minimum":0})", "9223372036854775808").empty());
}

TEST(Guards, WholeNumberWrittenWithDecimalPointIsAnInteger) {
  EXPECT_TRUE(check(R"({"type":"integer"})", "1.0").empty());
}

TEST(Guards, StringLengthDoesNotStopAtNul) {
  EXPECT_EQ(only(check(R"({"type":"string","maxLength":3})", R"("ab\u0000cdefgh")")).code,
            IssueCode::too_big);
}

TEST(Guards, DecimalCountKeywordsAreAccepted) {
  EXPECT_EQ(only(check(R"({"type":"string","maxLength":2.0})", R"("abc")")).message,
            "Too big: expected string to have <=2 characters");
}

TEST(ParseAndValidate, KeepsTheValueEvenWithIssues) {
  auto result = make(R"({"type":"string"})").parse_and_validate("5");
  ASSERT_TRUE(result.parsed());
  EXPECT_EQ(*result.value(), 5);
  EXPECT_EQ(result.view()->get_unsigned(), 5U);
  EXPECT_FALSE(result.ok());
}

TEST(ParseAndValidate, ValidTextIsOk) {
  EXPECT_TRUE(make(R"({"type":"string"})").parse_and_validate(R"("x")").ok());
}

TEST(ParseAndValidate, AReusedDocumentGivesTheIssuesAFreshResultGives) {
  const auto validator = make(kRefund);
  const std::vector<std::string> texts = {
      R"({"orderId":"ORD-1","amount":0,"currency":"GBP","orderDate":"2026-02-30",)"
      R"("refundDate":"2026-01-01","note":"n","sku":"s"})",
      R"({"orderId":"ORD-123456","amount":5,"currency":"USD","orderDate":"2026-01-02",)"
      R"("refundDate":"2026-01-03","note":"a longer note than the first","sku":"x"})",
      "{not json", "[1, 2, 3]", R"("short")"};
  accord::JsonDocument reuse;
  for (const auto& text : texts) {
    const auto fresh = validator.parse_and_validate(text);
    EXPECT_EQ(validator.parse_and_validate(text, reuse), fresh.issues) << text;
    EXPECT_EQ(reuse.root().to_json(), fresh.parsed() ? *fresh.value() : json()) << text;
  }
}

TEST(Threads, ValidateIsSafeFromManyThreadsAtOnce) {
  const auto validator = make(kRefund);
  const auto bad =
      json::parse(R"({"orderId":"ORD-1","amount":0,"currency":"GBP","orderDate":"2026-02-30",)"
                  R"("refundDate":"2026-01-01","note":"n","sku":"s"})");
  const auto expected = validator.validate(bad);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        if (validator.validate(bad) != expected) ++mismatches[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int count : mismatches) EXPECT_EQ(count, 0);
  EXPECT_EQ(expected.size(), 4U);
}

// ---- schema errors ----

std::vector<SchemaProblem> problems_of(const std::string& schema) {
  try {
    (void)make(schema);
  } catch (const SchemaError& error) {
    return error.problems();
  }
  return {};
}

TEST(SchemaErrors, BadPatternFailsAtLoadWithItsPath) {
  auto problems = problems_of(R"({"properties":{"a":{"type":"string","pattern":"(unclosed"}}})");
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].path, (Path{"properties", "a", "pattern"}));
  EXPECT_NE(problems[0].message.find("(unclosed"), std::string::npos);
}

TEST(SchemaErrors, LookaroundPatternLoads) {
  EXPECT_TRUE(problems_of(R"J({"pattern":"^(?!x)"})J").empty());
}

TEST(SchemaErrors, RefCyclesWithoutProgressEndInAnIssueInsteadOfACrash) {
  for (const char* schema :
       {R"({"$ref":"#"})",
        R"({"definitions":{"a":{"$ref":"#/definitions/b"},"b":{"$ref":"#/definitions/a"}},)"
        R"("$ref":"#/definitions/a"})",
        R"({"allOf":[{"$ref":"#"}]})"}) {
    EXPECT_FALSE(check(schema, "1").empty()) << schema;
  }
}

TEST(SchemaErrors, RecursiveSchemasAreValidated) {
  const auto validator = make(R"({"type":"array","items":{"$ref":"#"}})");
  EXPECT_TRUE(validator.validate(json::parse("[[],[[]]]")).empty());
  EXPECT_EQ(only(validator.validate(json::parse("[[],[1]]"))).path,
            (Path{std::size_t{1}, std::size_t{0}}));
}

TEST(SchemaErrors, NonRecursiveRefsWork) {
  auto validator = make(R"({"definitions":{"id":{"type":"string","pattern":"^x"}},)"
                        R"("type":"object","properties":{"a":{"$ref":"#/definitions/id"}}})");
  EXPECT_EQ(only(validator.validate(json::parse(R"({"a":"y"})"))).message,
            "Invalid string: must start with \"x\"");
}

TEST(SchemaErrors, RemoteAndDanglingRefsAreRejected) {
  EXPECT_EQ(problems_of(R"({"$ref":"http://example.com/schema.json"})").size(), 1U);
  EXPECT_EQ(problems_of(R"({"$ref":"#/definitions/missing"})").size(), 1U);
}

TEST(SchemaErrors, LaterDraftKeywordsAreEnforced) {
  EXPECT_FALSE(check(R"({"dependentRequired":{"a":["b"]}})", R"({"a":1})").empty());
  EXPECT_FALSE(check(R"({"unevaluatedProperties":false})", R"({"a":1})").empty());
  EXPECT_FALSE(check(R"({"patternProperties":{"^a":{"type":"string"}}})", R"({"ab":1})").empty());
  EXPECT_TRUE(check(R"({"patternProperties":{"^a":{"type":"string"}}})", R"({"b":1})").empty());
}

TEST(SchemaErrors, NonSchemaDocumentIsRejected) {
  EXPECT_EQ(problems_of(R"({"properties":{"a":3}})").size(), 1U);
  EXPECT_FALSE(problems_of(R"({"type":"strin"})").empty());
}

TEST(SchemaErrors, WhatListsPathAndMessage) {
  try {
    (void)make(R"({"properties":{"a":{"pattern":"("}}})");
    FAIL() << "expected SchemaError";
  } catch (const SchemaError& error) {
    EXPECT_NE(std::string(error.what()).find("properties.a.pattern"), std::string::npos);
  }
}

}  // namespace
}  // namespace accord
