// Corrections scoped to the failing fields and the token budget, over real HTTP against
// accord-mock.
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "accord/providers/provider.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "loop/scoped_correction.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

// A scoped answer for the amount, valid or not.
json patch(double amount) {
  return {{"json", {{"amount", amount}}}};
}

Result<json> extract_refund(const ClientOptions& options) {
  const Client client(options);
  return client.extract(
      {.schema = examples::refund_schema(), .prompt = "Extract the refund.", .name = "refund"});
}

class Scoped : public ::testing::TestWithParam<std::string> {
 protected:
  Result<json> run(const std::vector<json>& replies, TokenBudget budget = {},
                   OutputMode mode = OutputMode::response_format) {
    mock_ = std::make_unique<MockProcess>(scenario(replies));
    // Two corrections: room for the scoped one and its whole fallback.
    const Client client({.provider = GetParam(),
                         .model = "test-model",
                         .base_url = mock_->base_url(),
                         .api_key = "sk-test-scoped",  // Azure's routes refuse a keyless request
                         .corrections = 2,
                         .budget = budget});
    return client.extract({.schema = examples::refund_schema(),
                           .prompt = "Extract the refund.",
                           .name = "refund",
                           .mode = mode});
  }
  json request(std::size_t i) const { return mock_->requests().at(i)["body"]; }

  std::unique_ptr<MockProcess> mock_;
};

TEST_P(Scoped, CorrectionAsksOnlyForTheFailingValueAndMergesIt) {
  auto result = run({{{"json", bad_amount()}}, patch(42.5)});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].note, "correction scoped to amount");
  EXPECT_EQ(attempts[1].role, AttemptRole::scoped_correction);
  EXPECT_EQ(attempts[1].note, "merged amount into the previous object: valid");

  // The correction carries the issue and the one value, not the echoed object or its schema.
  const std::string second = request(1).dump();
  EXPECT_NE(second.find("expected number to be >0"), std::string::npos) << second;
  EXPECT_NE(second.find("-42.5"), std::string::npos) << second;
  EXPECT_EQ(second.find("KT-200"), std::string::npos) << second;
  EXPECT_EQ(second.find("orderId"), std::string::npos) << second;
  EXPECT_LT(attempts[1].usage.input_tokens, attempts[0].usage.input_tokens);
}

TEST_P(Scoped, ForcedToolCorrectionIsScopedToTheToolInput) {
  auto result = run({{{"json", bad_amount()}}, patch(42.5)}, {}, OutputMode::forced_tool);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  EXPECT_EQ(result.trace().attempts.at(1).role, AttemptRole::scoped_correction);
}

TEST_P(Scoped, MergeThatStaysInvalidFallsBackToTheWholeObjectCorrection) {
  auto result = run({{{"json", bad_amount()}}, patch(-1), {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(attempts[1].role, AttemptRole::scoped_correction);
  EXPECT_NE(attempts[1].note.find("still invalid; the correction is sent whole"), std::string::npos)
      << attempts[1].note;
  ASSERT_EQ(attempts[1].issues.size(), 1u);  // the merged object's
  EXPECT_EQ(attempts[2].role, AttemptRole::whole_correction);
  // The fallback is the classic correction of the first reply: echoed, with its issues.
  const std::string third = request(2).dump();
  EXPECT_NE(third.find("Return the corrected JSON only."), std::string::npos) << third;
  EXPECT_NE(third.find("KT-200"), std::string::npos) << third;
}

TEST_P(Scoped, ReplyWithKeysNotAskedForIsNoPatchAndFallsBack) {
  auto result = run({{{"json", bad_amount()}},
                     {{"json", {{"orderId", "ORD-000001"}}}},
                     {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_NE(attempts[1].note.find("not a usable patch (the reply has the key \"orderId\""),
            std::string::npos)
      << attempts[1].note;
  EXPECT_EQ(attempts[2].role, AttemptRole::whole_correction);
}

TEST_P(Scoped, BudgetStopsTheRunBeforeTheFallbackWithEveryAttemptInTheTrace) {
  const std::vector<json> replies = {{{"json", bad_amount()}}, patch(-1), {{"json", kValidRefund}}};
  // The mock's count is deterministic: a run without a budget says what the first two cost.
  const auto unlimited = run(replies);
  ASSERT_TRUE(unlimited.ok()) << unlimited.error().message;
  const auto& spent = unlimited.trace().attempts;
  const std::int64_t two = spent[0].usage.input_tokens + spent[0].usage.output_tokens +
                           spent[1].usage.input_tokens + spent[1].usage.output_tokens;

  auto result = run(replies, TokenBudget{.max_tokens = two + 10});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::budget_exhausted);
  EXPECT_NE(result.error().message.find("the token budget of " + std::to_string(two + 10)),
            std::string::npos)
      << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_NE(result.trace().attempts[1].note.find("stopped by the token budget"), std::string::npos);
  EXPECT_EQ(mock_->requests().size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Providers, Scoped, ::testing::ValuesIn(::accord::provider_names()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

TEST(ScopedCorrection, PatchSchemaHoldsTheValueToItsOwnSubSchema) {
  MockProcess mock(scenario({{{"json", bad_amount()}}, patch(42.5)}));
  auto result = extract_refund({.provider = "openai-chat", .base_url = mock.base_url()});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const json wire = mock.requests().at(0)["body"]["response_format"]["json_schema"]["schema"];
  const json scoped = mock.requests().at(1)["body"]["response_format"]["json_schema"]["schema"];
  EXPECT_EQ(scoped["properties"]["amount"], wire["properties"]["amount"]);
  EXPECT_EQ(scoped["required"], json::array({"amount"}));
  EXPECT_EQ(scoped["properties"].size(), 1u);
}

TEST(ScopedCorrection, RefinementAcrossFieldsIsCorrectedWhole) {
  // "refundDate is before orderDate" points at refundDate, but the fix may be orderDate.
  MockProcess mock(scenario({{{"json", swapped_dates()}}, {{"json", kValidRefund}}}));
  auto result = extract_refund({.provider = "openai-chat", .base_url = mock.base_url()});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_NE(attempts[0].note.find("correction sent whole: an issue is about the whole value"),
            std::string::npos)
      << attempts[0].note;
  EXPECT_EQ(attempts[1].role, AttemptRole::whole_correction);
}

TEST(ScopedCorrection, ReplyThatIsNotJsonIsCorrectedWhole) {
  MockProcess mock(
      scenario({{{"text", R"({"orderId": "ORD-482913", )"}}, {{"json", kValidRefund}}}));
  auto result = extract_refund({.provider = "anthropic", .base_url = mock.root_url()});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].note, "correction sent whole: the reply is not JSON");
  EXPECT_EQ(attempts[1].role, AttemptRole::whole_correction);
}

TEST(ScopedCorrection, WholeObjectStyleEchoesTheReply) {
  MockProcess mock(scenario({{{"json", bad_amount()}}, {{"json", kValidRefund}}}));
  auto result = extract_refund({.provider = "openai-responses",
                                .base_url = mock.base_url(),
                                .correction = {.style = CorrectionStyle::whole_object}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_EQ(result.trace().attempts[1].role, AttemptRole::whole_correction);
  EXPECT_NE(mock.requests().at(1)["body"].dump().find("KT-200"), std::string::npos);
}

// What is asked for, planned from a reply's issues (no HTTP: the plan alone).
namespace plan {

using detail::merge_scoped_reply;
using detail::plan_scoped_correction;

struct Planned {
  Contract contract;
  Issues issues;
  std::optional<detail::ScopedCorrection> scoped;
  std::string why;
};

Planned planned(const Schema& schema, const json& reply) {
  const auto provider = make_provider("openai-chat");
  Planned out{Contract(schema, "x", *provider), {}, std::nullopt, {}};
  out.issues = out.contract.validator().validate(reply);
  out.scoped = plan_scoped_correction(reply, out.issues, out.contract.wire(), 0.5, out.why);
  return out;
}

const Schema kOrder = object({
    {"customer", string()},
    {"note", string()},
    {"items", array(object({{"name", string()}, {"price", number().positive()}})).min(1)},
});

json order() {
  return {{"customer", "Dana"},
          {"note", "leave at the door"},
          {"items", {{{"name", "kettle"}, {"price", 40}}, {{"name", "mug"}, {"price", 5}}}}};
}

TEST(ScopedPlan, ArrayItemIsAskedForAtItsPathAndMerged) {
  json reply = order();
  reply["items"][1]["price"] = -5;
  auto p = planned(kOrder, reply);
  ASSERT_TRUE(p.scoped) << p.why;
  EXPECT_EQ(p.scoped->keys(), "items.1.price");
  EXPECT_EQ(p.scoped->patch.schema["properties"]["items.1.price"],
            p.contract.wire().schema["properties"]["items"]["items"]["properties"]["price"]);
  std::string problem;
  const auto merged = merge_scoped_reply(*p.scoped, reply, R"({"items.1.price": 5})", problem);
  ASSERT_TRUE(merged) << problem;
  EXPECT_EQ(*merged, order());
}

TEST(ScopedPlan, MissingRequiredPropertyIsAskedFor) {
  json reply = order();
  reply.erase("customer");
  auto p = planned(kOrder, reply);
  ASSERT_TRUE(p.scoped) << p.why;
  EXPECT_EQ(p.scoped->keys(), "customer");
  std::string problem;
  const auto merged = merge_scoped_reply(*p.scoped, reply, R"({"customer": "Dana"})", problem);
  ASSERT_TRUE(merged) << problem;
  EXPECT_EQ(*merged, order());
}

TEST(ScopedPlan, IssuesInsideAFailingArrayAreAskedForOnceAtTheArray) {
  std::vector<Field> fields = {
      {"customer", string()},
      {"note", string()},
      {"items", array(object({{"name", string()}, {"price", number().positive()}})).min(3)},
  };
  json reply = order();
  // Enough else in the object that the array is not most of it.
  for (const char* name : {"street", "city", "zip", "country", "phone", "email"}) {
    fields.push_back({name, string().describe(std::string("The customer's ") + name)});
    reply[name] = std::string("the customer's ") + name;
  }
  const Schema schema = object(fields);
  reply["items"][1]["price"] = -5;  // and two items where three are needed
  auto p = planned(schema, reply);
  ASSERT_EQ(p.issues.size(), 2u);
  ASSERT_TRUE(p.scoped) << p.why;
  EXPECT_EQ(p.scoped->keys(), "items");
}

TEST(ScopedPlan, WrongRootIsCorrectedWhole) {
  auto p = planned(kOrder, json::array());
  EXPECT_FALSE(p.scoped);
  EXPECT_EQ(p.why.rfind("an issue is about the whole value", 0), 0u) << p.why;
}

TEST(ScopedPlan, MostOfTheObjectFailingIsCorrectedWhole) {
  const json reply = {{"customer", 1}, {"note", 2}, {"items", 3}};
  auto p = planned(kOrder, reply);
  EXPECT_FALSE(p.scoped);
  EXPECT_NE(p.why.find("of the object and its schema"), std::string::npos) << p.why;
}

TEST(ScopedPlan, KeyThatAPatchCannotNameIsCorrectedWhole) {
  const Schema schema = object({{"unit price", number().positive()}, {"note", string()}});
  auto p = planned(schema, {{"unit price", -1}, {"note", "a long note about the order"}});
  EXPECT_FALSE(p.scoped);
  EXPECT_NE(p.why.find("cannot be named by a patch key"), std::string::npos) << p.why;
}

TEST(ScopedPlan, PatchWithAKeyNotAskedForIsRefused) {
  json reply = order();
  reply["items"][1]["price"] = -5;
  auto p = planned(kOrder, reply);
  ASSERT_TRUE(p.scoped) << p.why;
  std::string problem;
  EXPECT_FALSE(merge_scoped_reply(*p.scoped, reply, R"({"items.0.price": 5})", problem));
  EXPECT_EQ(problem, "the reply has the key \"items.0.price\", which was not asked for");
  EXPECT_FALSE(merge_scoped_reply(*p.scoped, reply, "[5]", problem));
  EXPECT_EQ(problem, "the reply is not a JSON object");
}

}  // namespace plan

}  // namespace
}  // namespace accord
