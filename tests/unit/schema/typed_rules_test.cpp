// typed<T>(): rules on members with their C++ types, and each rule's Report entry and words.
#include "accord/typed_rules.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "accord/json_schema.hpp"
#include "accord/json_view.hpp"
#include "accord/validate.hpp"
#include "fixtures/typed_fixtures.hpp"

namespace typed_fixtures {

// `internal` is left out of the description on purpose.
struct Partly {
  std::string listed;
  std::string internal;
};
BOOST_DESCRIBE_STRUCT(Partly, (), (listed))

struct Limits {
  std::int32_t retries = 3;
};
BOOST_DESCRIBE_STRUCT(Limits, (), (retries))

struct Job {
  std::string name;
  Limits limits;
};
BOOST_DESCRIBE_STRUCT(Job, (), (name, limits))

}  // namespace typed_fixtures

namespace accord {
namespace {

using nlohmann::json;
using namespace typed_fixtures;

json refund_with(const std::string& key, json value) {
  json out = kRefundJson;
  out[key] = std::move(value);
  return out;
}

TEST(TypedRules, MemberRuleGetsTheSameReportEntryAsTheDsl) {
  const auto typed_report =
      emit(typed<Refund>().field(&Refund::orderId, regex(R"(^ORD-\d{6}$)"))).report;
  const auto dsl_report = emit(object({{"orderId", string().regex(R"(^ORD-\d{6}$)")},
                                       {"amount", number()},
                                       {"currency", enumeration({"EUR", "USD"})},
                                       {"orderDate", string()},
                                       {"refundDate", string()},
                                       {"note", string().optional()}}))
                              .report;
  EXPECT_EQ(typed_report.entries(), dsl_report.entries());
}

TEST(TypedRules, SeveralRulesOnOneMemberApplyInOrder) {
  const auto schema = typed<Refund>().field(&Refund::amount, positive(), lte(1000)).schema();
  const Validator validator(schema);
  EXPECT_FALSE(validator.validate(refund_with("amount", 0)).empty());
  EXPECT_FALSE(validator.validate(refund_with("amount", 1001)).empty());
  EXPECT_TRUE(validator.validate(refund_with("amount", 1000)).empty());
}

TEST(TypedRules, MemberRefinementReceivesTheMembersCppValue) {
  std::vector<std::string> seen;
  const Validator validator(
      typed<Refund>().field(&Refund::orderDate, refine(
                                                    [&seen](const std::string& date) {
                                                      seen.push_back(date);
                                                      return date.starts_with("2026");
                                                    },
                                                    "orders are from 2026")));
  const auto issues = validator.validate(refund_with("orderDate", "2025-01-01"));
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].message, "orders are from 2026");
  EXPECT_EQ(issues[0].path, (Path{"orderDate"}));
  ASSERT_FALSE(seen.empty());  // the validator may judge a value more than once
  EXPECT_EQ(seen.front(), "2025-01-01");
}

TEST(TypedRules, OptionalMemberRefinementMayTakeTheValueInside) {
  const Validator validator(typed<Refund>().field(
      &Refund::note,
      refine([](const std::string& note) { return note.find("http") == std::string::npos; },
             "note must not contain links")));
  EXPECT_TRUE(validator.validate(kRefundJson).empty());
  EXPECT_EQ(validator.validate(refund_with("note", "see http://x")).size(), 1U);
}

// A refinement's two readings, the tree's predicate and the parsed document's, hand a predicate
// that takes the std::optional itself the member as extract<T> reads it, null included (a guard of
// the predicate's value type: read as the string inside, a null would not reach it).
TEST(TypedRules, OptionalMemberRefinementTakingTheOptionalSeesItOnBothReadings) {
  std::vector<std::optional<std::string>> seen;
  const Schema schema =
      typed<Refund>().field(&Refund::note, refine(
                                               [&seen](const std::optional<std::string>& note) {
                                                 seen.push_back(note);
                                                 return true;
                                               },
                                               "never fails"));
  const auto& fields = schema.node().fields;
  const auto note = std::find_if(fields.begin(), fields.end(),
                                 [](const Field& field) { return field.name == "note"; });
  ASSERT_NE(note, fields.end());
  const Refinement& refinement = note->schema.node().refinements.at(0);
  for (const json& value : {json("call me"), json(nullptr)}) {
    seen.clear();
    const auto parsed = parse_document(value.dump());
    ASSERT_TRUE(parsed.document);
    EXPECT_TRUE(refinement.predicate(value));
    EXPECT_TRUE(refinement.view_predicate(parsed.document->root()));
    const auto expected = from_json_value<std::optional<std::string>>(value);
    ASSERT_TRUE(expected) << value;
    EXPECT_EQ(seen, (std::vector<std::optional<std::string>>(2, expected.value()))) << value;
  }
}

TEST(TypedRules, MemberRefinementIsSkippedWhenTheTypeIsWrong) {
  const Validator validator(
      typed<Refund>().field(&Refund::amount, refine([](double) { return false; }, "never")));
  const auto issues = validator.validate(refund_with("amount", "lots"));
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].code, IssueCode::invalid_type);
}

TEST(TypedRules, ObjectRefinementReceivesTheStructAndPointsWhereTold) {
  const Validator validator(
      typed<Refund>().refine([](const Refund& r) { return r.refundDate >= r.orderDate; },
                             "refundDate is before orderDate", {.path = {"refundDate"}}));
  const auto issues = validator.validate(refund_with("refundDate", "2026-11-01"));
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].message, "refundDate is before orderDate");
  EXPECT_EQ(issues[0].path, (Path{"refundDate"}));
}

TEST(TypedRules, ObjectRefinementIsStatedInTheDescription) {
  const auto emitted = emit(
      typed<Refund>().refine([](const Refund&) { return true; }, "refundDate is before orderDate",
                             {.rule_text = "refundDate is on or after orderDate"}));
  EXPECT_EQ(emitted.json["description"], "Rule: refundDate is on or after orderDate.");
  EXPECT_EQ(emitted.report.entries()[1].rule, "refine: refundDate is before orderDate");
  EXPECT_EQ(emitted.report.entries()[1].fate, Fate::description);
}

// The predicate gets the struct extract<T> would return: a default one level down (Limits's, here
// given through a MemberRule) is filled in before the value is converted.
TEST(TypedRules, ObjectRefinementReadsNestedDefaultsAsExtractDoes) {
  const MemberRule limits_with_default{
      [](const Schema&) -> Schema { return typed<Limits>().field(&Limits::retries, defaulted()); }};
  std::optional<std::int32_t> seen;
  const Validator validator(typed<Job>()
                                .field(&Job::limits, limits_with_default)
                                .refine(
                                    [&seen](const Job& job) {
                                      seen = job.limits.retries;
                                      return true;
                                    },
                                    "never fails"));
  EXPECT_TRUE(validator.validate(json{{"name", "nightly"}, {"limits", json::object()}}).empty());
  EXPECT_EQ(seen, 3);
}

TEST(TypedRules, DeclarativeRuleTakesMembersAndEnumsByName) {
  const auto schema = typed<Refund>().rule(
      when(&Refund::currency, Op::eq, Currency::USD).then(&Refund::amount, Op::lte, 500),
      "usd refunds are capped at 500");
  const auto emitted = emit(schema);
  EXPECT_EQ(emitted.json[kRulesKeyword][0]["if"], "currency == \"USD\"");
  const Validator validator(schema);
  json over_cap = refund_with("currency", "USD");
  over_cap["amount"] = 900;
  EXPECT_EQ(validator.validate(over_cap).size(), 1U);
}

TEST(TypedRules, ComparisonBetweenTwoMembersUsesTheirNames) {
  const auto comparison = compare(&Refund::refundDate, Op::gte, &Refund::orderDate);
  EXPECT_EQ(to_string(comparison), "refundDate >= orderDate");
}

TEST(TypedRules, DefaultedMemberTakesTheDefaultFromTheStruct) {
  // Refund{} holds Currency::EUR.
  const auto emitted = emit(typed<Refund>().field(&Refund::currency, defaulted()));
  EXPECT_EQ(emitted.json["properties"]["currency"]["default"], "EUR");
  const auto& required = emitted.json["required"];
  EXPECT_EQ(std::find(required.begin(), required.end(), "currency"), required.end());
}

TEST(TypedRules, TypedSchemaGivesTheSameSchemaNodeEveryTime) {
  // A Client caches a Contract per schema node; a fresh node per call would grow that cache.
  const auto refund = typed<Refund>().field(&Refund::amount, positive());
  EXPECT_EQ(&Schema(refund).node(), &Schema(refund).node());
}

TEST(TypedRules, RuleOnAMemberTheDescriptionLeavesOutIsASchemaError) {
  EXPECT_THROW((void)typed<Partly>().field(&Partly::internal, nonempty()), SchemaError);
}

}  // namespace
}  // namespace accord
