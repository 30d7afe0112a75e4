// Rename to validate_dsl_test.cpp once the core (schema DSL + emit) is merged: these need
// Validator(const Schema&), which emits the schema and runs its refinements.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "accord/schema.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using nlohmann::json;

bool no_links(const json& note) {
  const auto text = note.get<std::string>();
  return text.find("http://") == std::string::npos && text.find("https://") == std::string::npos;
}

Schema refund_schema() {
  return object({
                    {"orderId", string().regex(R"(^ORD-\d{6}$)")},
                    {"amount", number().positive()},
                    {"currency", enumeration({"EUR", "USD"})},
                    {"orderDate", string().date()},
                    {"refundDate", string().date()},
                    {"note", string().refine(no_links, "note must not contain links")},
                    {"sku", string()},
                })
      .refine(
          [](const json& r) {
            return r.at("refundDate").get<std::string>() >= r.at("orderDate").get<std::string>();
          },
          "refundDate is before orderDate", {.path = {"refundDate"}});
}

Schema transfer_schema() {
  return object({
                    {"accountId",
                     string().regex("^acct_[a-z0-9]+$").describe("Stripe-style account id")},
                    {"email", string().email()},
                    {"amount", number().min(1).max(10000)},
                    {"currency", enumeration({"usd", "eur"})},
                    {"memo", string().min(3).max(120).optional()},
                    {"idempotencyKey", string().default_("auto")},
                })
      .refine(
          [](const json& v) {
            return v.at("currency") != "eur" || v.at("amount").get<double>() <= 500;
          },
          "eur transfers are capped at 500");
}

std::string prettified(const Schema& schema, const std::string& text) {
  return prettify(Validator(schema).parse_and_validate(text).issues);
}

// ---- shared/anchors/zod_prettify_examples.txt, exactly ----

TEST(ZodExamplesWithRefinements, RefundWithEveryKindOfMistake) {
  EXPECT_EQ(
      prettified(
          refund_schema(),
          R"({"orderId":"ORD-12345","amount":0,"currency":"GBP","orderDate":"2026-02-30",)"
          R"("refundDate":"2026-01-01","note":"see https://x.example","sku":12,"extra":true})"),
      "✖ Unrecognized key: \"extra\"\n"
      "✖ Invalid string: must match pattern /^ORD-\\d{6}$/\n  → at orderId\n"
      "✖ Too small: expected number to be >0\n  → at amount\n"
      "✖ Invalid option: expected one of \"EUR\"|\"USD\"\n  → at currency\n"
      "✖ Invalid ISO date\n  → at orderDate\n"
      "✖ note must not contain links\n  → at note\n"
      "✖ Invalid input: expected string, received number\n  → at sku");
}

TEST(ZodExamplesWithRefinements, RefundTypeMismatchStopsTheObjectRule) {
  EXPECT_EQ(prettified(
                refund_schema(),
                R"({"orderId":"ORD-123456","amount":"5","currency":"EUR","orderDate":"2026-05-10",)"
                R"("refundDate":"2026-05-09","note":"ok","sku":"a"})"),
            "✖ Invalid input: expected number, received string\n  → at amount");
}

TEST(ZodExamplesWithRefinements, RefundObjectRulePointsAtItsPath) {
  EXPECT_EQ(
      prettified(refund_schema(),
                 R"({"orderId":"ORD-123456","amount":5,"currency":"EUR","orderDate":"2026-05-10",)"
                 R"("refundDate":"2026-05-09","note":"ok","sku":"a"})"),
      "✖ refundDate is before orderDate\n  → at refundDate");
}

TEST(ZodExamplesWithRefinements, RefundFieldRuleRunsBesideAMissingField) {
  EXPECT_EQ(
      prettified(refund_schema(),
                 R"({"orderId":"ORD-123456","amount":5,"currency":"EUR","orderDate":"2026-05-10",)"
                 R"("refundDate":"2026-05-19","note":"see http://a.b"})"),
      "✖ note must not contain links\n  → at note\n"
      "✖ Invalid input: expected string, received undefined\n  → at sku");
}

TEST(ZodExamplesWithRefinements, TransferWithEveryKindOfMistake) {
  EXPECT_EQ(prettified(transfer_schema(),
                       R"({"accountId":"acct_ABC","email":"a@@example.com","amount":20000,)"
                       R"("currency":"USD","memo":"ab","idempotencyKey":1})"),
            "✖ Invalid string: must match pattern /^acct_[a-z0-9]+$/\n  → at accountId\n"
            "✖ Invalid email address\n  → at email\n"
            "✖ Too big: expected number to be <=10000\n  → at amount\n"
            "✖ Invalid option: expected one of \"usd\"|\"eur\"\n  → at currency\n"
            "✖ Too small: expected string to have >=3 characters\n  → at memo\n"
            "✖ Invalid input: expected string, received number\n  → at idempotencyKey");
}

TEST(ZodExamplesWithRefinements, TransferObjectRuleAtTheRoot) {
  EXPECT_EQ(
      prettified(
          transfer_schema(),
          R"({"accountId":"acct_abc","email":"ops@example.com","amount":900,"currency":"eur"})"),
      "✖ eur transfers are capped at 500");
}

TEST(ZodExamplesWithRefinements, TransferLongMemoAndUnexpectedKey) {
  EXPECT_EQ(
      prettified(transfer_schema(),
                 R"({"accountId":"acct_abc","email":"ops@example.com","amount":9,"currency":"usd",)"
                 R"("memo":")" +
                     std::string(121, 'x') + R"(","unexpected":1})"),
      "✖ Unrecognized key: \"unexpected\"\n"
      "✖ Too big: expected string to have <=120 characters\n  → at memo");
}

// ---- refinement semantics ----

TEST(Refinements, ObjectRuleRunsDespiteACheckFailureInside) {
  auto schema =
      object({{"a", string().min(3)}}).refine([](const json&) { return false; }, "object rule");
  auto issues = Validator(schema).validate(json::parse(R"({"a":"x"})"));
  ASSERT_EQ(issues.size(), 2U);
  EXPECT_EQ(issues[0].code, IssueCode::too_small);
  EXPECT_EQ(issues[1].message, "object rule");
}

TEST(Refinements, ObjectRuleRunsDespiteUnrecognizedKeys) {
  auto schema = object({{"a", string()}}).refine([](const json&) { return false; }, "object rule");
  auto issues = Validator(schema).validate(json::parse(R"({"a":"x","b":1})"));
  ASSERT_EQ(issues.size(), 2U);
  EXPECT_EQ(issues[1].message, "object rule");
}

TEST(Refinements, ObjectRuleSkippedWhenAFieldHasTheWrongType) {
  auto schema = object({{"a", string()}}).refine([](const json&) { return false; }, "object rule");
  auto issues = Validator(schema).validate(json::parse(R"({"a":1})"));
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].code, IssueCode::invalid_type);
}

TEST(Refinements, FieldRuleRunsDespiteItsOwnCheckFailing) {
  auto schema =
      object({{"a", string().min(5).refine([](const json&) { return false; }, "field rule")}});
  auto issues = Validator(schema).validate(json::parse(R"({"a":"x"})"));
  ASSERT_EQ(issues.size(), 2U);
  EXPECT_EQ(issues[0].code, IssueCode::too_small);
  EXPECT_EQ(issues[1].message, "field rule");
  EXPECT_EQ(issues[1].path, (Path{"a"}));
}

TEST(Refinements, ChildrenRunBeforeParents) {
  auto schema = object({{"a", string().refine([](const json&) { return false; }, "child")}})
                    .refine([](const json&) { return false; }, "parent");
  auto issues = Validator(schema).validate(json::parse(R"({"a":"x"})"));
  ASSERT_EQ(issues.size(), 2U);
  EXPECT_EQ(issues[0].message, "child");
  EXPECT_EQ(issues[1].message, "parent");
}

TEST(Refinements, ThrowingPredicateBecomesAnIssue) {
  auto schema =
      string().refine([](const json&) -> bool { throw std::runtime_error("boom"); }, "never");
  auto issues = Validator(schema).validate(json("x"));
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].code, IssueCode::custom);
  EXPECT_EQ(issues[0].message, "Refinement failed: boom");
}

TEST(Refinements, ArrayItemRulesCarryTheIndex) {
  auto schema =
      array(integer().refine([](const json& v) { return v.get<int>() % 2 == 0; }, "even"));
  auto issues = Validator(schema).validate(json::parse("[2,3]"));
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].path, (Path{std::size_t{1}}));
}

TEST(Refinements, NullForANullableFieldSkipsItsRules) {
  auto schema =
      object({{"a", string().refine([](const json&) { return false; }, "rule").nullable()}});
  EXPECT_TRUE(Validator(schema).validate(json::parse(R"({"a":null})")).empty());
}

TEST(Refinements, AbsentOptionalFieldSkipsItsRules) {
  auto schema =
      object({{"a", string().refine([](const json&) { return false; }, "rule").optional()}});
  EXPECT_TRUE(Validator(schema).validate(json::parse("{}")).empty());
}

TEST(Refinements, ObjectRuleSeesDefaultsFilledIn) {
  auto schema = object({{"k", string().default_("auto")}})
                    .refine([](const json& v) { return v.at("k") == "auto"; }, "default missing");
  EXPECT_TRUE(Validator(schema).validate(json::parse("{}")).empty());
}

TEST(Refinements, UnionPicksTheOptionWhoseRulesPass) {
  auto schema = union_({string().refine([](const json&) { return false; }, "first"), string()});
  EXPECT_TRUE(Validator(schema).validate(json("x")).empty());
}

TEST(Refinements, UnionWithOneOptionOfTheRightTypeReportsItsRule) {
  auto schema =
      union_({string().refine([](const json&) { return false; }, "strings fail"), number()});
  auto issues = Validator(schema).validate(json("x"));
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].message, "strings fail");
}

TEST(Refinements, DiscriminatedOptionRulesRun) {
  auto schema = discriminated_union(
      "kind", {object({{"kind", literal("a")}, {"n", number()}})
                   .refine([](const json& v) { return v.at("n").get<double>() > 1; }, "n too small",
                           {.path = {"n"}}),
               object({{"kind", literal("b")}})});
  auto issues = Validator(schema).validate(json::parse(R"({"kind":"a","n":0})"));
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].path, (Path{"n"}));
  EXPECT_EQ(issues[0].message, "n too small");
}

TEST(Refinements, ValidatorFromASchemaWithMistakesThrows) {
  EXPECT_THROW((void)Validator(string().regex("(")), SchemaError);
}

// ---- the shared corpora: accord's verdicts against Zod's ----

void expect_corpus_verdicts(const Schema& schema, const std::string& name) {
  const std::string base = std::string(ACCORD_SHARED_DIR) + "/corpus/" + name;
  std::ifstream lines(base + ".jsonl");
  std::ifstream expected(base + ".expected");
  if (!lines || !expected) GTEST_SKIP() << base << ".jsonl is not present";
  const Validator validator(schema);
  std::string line;
  std::string verdict;
  int row = 0;
  int disagreements = 0;
  while (std::getline(lines, line) && std::getline(expected, verdict)) {
    ++row;
    auto result = validator.parse_and_validate(line);
    const std::string ours = result.ok() ? "valid" : "invalid";
    if (ours != verdict && ++disagreements <= 5) {
      ADD_FAILURE() << name << " line " << row << ": " << ours << " vs " << verdict << "\n"
                    << line << "\n"
                    << prettify(result.issues);
    }
  }
  EXPECT_EQ(disagreements, 0);
  EXPECT_GT(row, 0);
}

TEST(Corpus, RefundVerdictsMatchZod) {
  expect_corpus_verdicts(refund_schema(), "refund");
}
TEST(Corpus, TransferVerdictsMatchZod) {
  expect_corpus_verdicts(transfer_schema(), "transfer");
}

}  // namespace
}  // namespace accord
