// A JSON Schema if/then/else is stated to the model as the condition it is, and a property a
// condition asks for is reported as "required when ...", not in Zod's internal words.
#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

const ojson kAccount = ojson::parse(R"({
  "type": "object",
  "properties": {
    "account": {"type": "string"},
    "account_type": {"enum": ["iban", "domestic"]},
    "sort_code": {"type": "string"}
  },
  "required": ["account"],
  "if": {"properties": {"account_type": {"const": "domestic"}}, "required": ["account_type"]},
  "then": {"required": ["sort_code"]},
  "else": {"properties": {"sort_code": {"maxLength": 0}}}
})");

std::string description_for(const std::string& provider, const ojson& schema) {
  const auto wire = make_provider(provider)->lower(schema, Report{});
  return wire.schema.value("description", "");
}

TEST(ConditionalWords, IfThenElseIsDescribedAsOneCondition) {
  for (const std::string provider : {"openai-chat", "anthropic"}) {
    const auto words = description_for(provider, kAccount);
    EXPECT_EQ(words,
              "If \"account_type\" is \"domestic\", then \"sort_code\" must be present; "
              "otherwise \"sort_code\", when present, must be at most 0 characters long.")
        << provider;
  }
}

TEST(ConditionalWords, IfThenWithoutElseIsDescribedAsOneCondition) {
  ojson schema = kAccount;
  schema.erase("else");
  const auto words = description_for("anthropic", schema);
  EXPECT_EQ(words, "If \"account_type\" is \"domestic\", then \"sort_code\" must be present.");
  EXPECT_EQ(words.find("Must also satisfy"), std::string::npos);
}

TEST(ConditionalWords, AnIfWithNeitherThenNorElseIsReportedAsAssertingNothing) {
  ojson schema = kAccount;
  schema.erase("then");
  schema.erase("else");
  for (const std::string provider : {"openai-chat", "anthropic"}) {
    const auto wire = make_provider(provider)->lower(schema, Report{});
    EXPECT_EQ(wire.schema.value("description", ""), "") << provider;
    EXPECT_FALSE(wire.schema.contains("if")) << provider;
    const auto* row = wire.report.find(RuleId("", "if"));
    ASSERT_NE(row, nullptr) << provider;
    EXPECT_EQ(row->fate, Fate::dropped) << provider;
    EXPECT_EQ(row->why.find("stated in the description"), std::string::npos) << provider;
    EXPECT_NE(row->why.find("asserts nothing"), std::string::npos) << provider;
  }
}

TEST(ConditionalWords, AThenWithoutAnIfIsReportedAsAssertingNothing) {
  ojson schema = kAccount;
  schema.erase("if");
  schema.erase("else");
  const auto wire = make_provider("anthropic")->lower(schema, Report{});
  EXPECT_EQ(wire.schema.value("description", ""), "");
  const auto* row = wire.report.find(RuleId("", "then"));
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->fate, Fate::dropped);
  EXPECT_NE(row->why.find("asserts nothing"), std::string::npos);
}

TEST(ConditionalWords, AThenUnderAnIfIsStatedInTheIfsSentence) {
  const auto wire = make_provider("openai-chat")->lower(kAccount, Report{});
  const auto* row = wire.report.find(RuleId("", "then"));
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->fate, Fate::description);
}

std::vector<Issue> issues_of(const ojson& schema, const char* value) {
  return Validator::from_json_schema(schema).validate(nlohmann::json::parse(value));
}

TEST(ConditionalWords, APropertyThenRequiresIsRequiredWhenTheIfHolds) {
  const auto issues = issues_of(kAccount, R"({"account": "31926819", "account_type": "domestic"})");
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].path, (Path{"sort_code"}));
  EXPECT_EQ(issues[0].message, "\"sort_code\" is required when \"account_type\" is \"domestic\"");
}

TEST(ConditionalWords, APropertyElseRequiresIsRequiredUnlessTheIfHolds) {
  const auto schema = ojson::parse(R"({
    "type": "object",
    "if": {"properties": {"kind": {"const": "iban"}}, "required": ["kind"]},
    "else": {"required": ["sort_code"]}})");
  const auto issues = issues_of(schema, R"({"kind": "domestic"})");
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].message, "\"sort_code\" is required unless \"kind\" is \"iban\"");
}

TEST(ConditionalWords, ADependentRequiredPropertyIsRequiredWhenItsTriggerIsPresent) {
  const auto schema = ojson::parse(R"({
    "type": "object",
    "dependentRequired": {"account_type": ["sort_code"]}})");
  const auto issues = issues_of(schema, R"({"account_type": "domestic"})");
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].path, (Path{"sort_code"}));
  EXPECT_EQ(issues[0].message, "\"sort_code\" is required when \"account_type\" is present");
}

TEST(ConditionalWords, APlainRequiredPropertyKeepsZodsWords) {
  const auto typed = issues_of(kAccount, "{}");
  ASSERT_EQ(typed.size(), 1U);
  EXPECT_EQ(typed[0].message, "Invalid input: expected string, received undefined");
  const auto untyped = issues_of(ojson::parse(R"({"type": "object", "required": ["a"]})"), "{}");
  ASSERT_EQ(untyped.size(), 1U);
  EXPECT_EQ(untyped[0].message, "Invalid input: expected nonoptional, received undefined");
}

}  // namespace
}  // namespace accord
