// Anthropic with extended thinking (RequestParameters::thinking_budget), over real HTTP against
// accord-mock, which refuses what Anthropic refuses beside thinking: a forced tool and an
// assistant prefill. The forced-tool mode offers its tool with tool_choice auto, a truncated
// output is retried with a raised cap instead of continued, and a prefill is refused before
// sending.
#include <gtest/gtest.h>

#include <stdexcept>

#include "accord/client.hpp"
#include "fixtures/mock_http.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

// Anthropic's thinking budget is at least 1024 tokens and below max_tokens.
constexpr std::int64_t kBudget = 1024;
constexpr int kMaxTokens = 2048;

const json kThinking = {{"type", "enabled"}, {"budget_tokens", kBudget}};

Client thinking_client(const MockProcess& mock) {
  ClientOptions options{
      .provider = "anthropic", .base_url = mock.root_url(), .max_tokens = kMaxTokens};
  options.parameters.thinking_budget = kBudget;
  return Client(std::move(options));
}

// A Messages request with thinking on, as a client other than accord would send it.
mock_http::Result post_messages(const MockProcess& mock, const json& extra) {
  json body = {{"model", "claude-sonnet-4-5"},
               {"max_tokens", kMaxTokens},
               {"thinking", kThinking},
               {"messages", {{{"role", "user"}, {"content", "Extract it."}}}}};
  body.update(extra);
  return mock_http::post(mock.base_url() + "/messages", body.dump());
}

TEST(AnthropicThinking, MockRefusesAForcedToolBesideThinking) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  for (const char* type : {"tool", "any"}) {
    json choice = {{"type", type}};
    if (std::string(type) == "tool") choice["name"] = "refund";
    const auto result = post_messages(
        mock, {{"tools", {{{"name", "refund"}, {"input_schema", {{"type", "object"}}}}}},
               {"tool_choice", choice}});
    EXPECT_EQ(result.status, 400) << type;
    EXPECT_NE(result.body.find("tool_choice forces tool use"), std::string::npos) << result.body;
  }
  // tool_choice auto is what thinking takes.
  const auto taken = post_messages(
      mock, {{"tools", {{{"name", "refund"}, {"input_schema", {{"type", "object"}}}}}},
             {"tool_choice", {{"type", "auto"}}}});
  EXPECT_EQ(taken.status, 200) << taken.body;
}

TEST(AnthropicThinking, MockRefusesAnAssistantPrefillBesideThinking) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const auto result =
      post_messages(mock, {{"messages",
                            {{{"role", "user"}, {"content", "Extract it."}},
                             {{"role", "assistant"}, {"content", "{\"orderId\""}}}}});
  EXPECT_EQ(result.status, 400);
  EXPECT_NE(result.body.find("thinking block"), std::string::npos) << result.body;
}

TEST(AnthropicThinking, MockRefusesSamplingThinkingDoesNotTake) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const auto hot = post_messages(mock, {{"temperature", 0.5}});
  EXPECT_EQ(hot.status, 400);
  EXPECT_NE(hot.body.find("temperature may only be set to 1"), std::string::npos) << hot.body;
  const auto narrow = post_messages(mock, {{"top_p", 0.5}});
  EXPECT_EQ(narrow.status, 400);
  EXPECT_NE(narrow.body.find("top_p"), std::string::npos) << narrow.body;
  EXPECT_EQ(post_messages(mock, {{"temperature", 1}, {"top_p", 0.95}}).status, 200);
}

TEST(AnthropicThinking, SamplingThinkingDoesNotTakeIsRefusedBeforeSending) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  ClientOptions options{
      .provider = "anthropic", .base_url = mock.root_url(), .max_tokens = kMaxTokens};
  options.parameters = {.temperature = 0.2, .thinking_budget = kBudget};
  const auto why = Client(options).unusable_reason();
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("temperature 0.2 (only 1) cannot be sent with thinking_budget set"),
            std::string::npos)
      << *why;
  auto request = refund_request();
  request.parameters.top_p = 0.5;
  EXPECT_THROW((void)thinking_client(mock).extract(request), std::invalid_argument);
  EXPECT_TRUE(mock.requests().empty());
}

TEST(AnthropicThinking, ForcedToolModeOffersTheToolWithToolChoiceAuto) {
  REQUIRE_MOCK();
  MockProcess mock(
      scenario({{{"tool_calls", {{{"name", "refund"}, {"arguments", kValidRefund}}}}}}));
  auto request = refund_request();
  request.mode = OutputMode::forced_tool;
  auto result = thinking_client(mock).extract(request);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const json sent = mock.requests().at(0)["body"];
  EXPECT_EQ(sent["tool_choice"], json({{"type", "auto"}}));
  EXPECT_EQ(sent["tools"].back()["name"], "refund");
  EXPECT_EQ(sent["thinking"], kThinking);
}

TEST(AnthropicThinking, TruncatedOutputIsRetriedWithARaisedCapNotContinued) {
  REQUIRE_MOCK();
  const std::string cut = kValidRefund.dump().substr(0, 40);
  MockProcess mock(scenario({{{"truncated", cut}}, {{"json", kValidRefund}}}));
  auto result = thinking_client(mock).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[1].role, AttemptRole::raised_cap);
  EXPECT_NE(attempts[0].note.find("not continued: anthropic: a conversation ending in an "
                                  "assistant turn"),
            std::string::npos)
      << attempts[0].note;
  const auto requests = mock.requests();
  ASSERT_EQ(requests.size(), 2u);
  const json second = requests[1]["body"];
  EXPECT_EQ(second["max_tokens"], 4 * kMaxTokens);
  EXPECT_EQ(second["messages"], requests[0]["body"]["messages"]);
  EXPECT_EQ(second["messages"].back()["role"], "user");
}

TEST(AnthropicThinking, APrefillBesideThinkingIsRefusedBeforeSending) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  CallSpec call{.turns = {Turn{.role = Turn::Role::user, .text = "Extract it."},
                          Turn{.role = Turn::Role::assistant, .text = "{\"orderId\""}}};
  try {
    (void)thinking_client(mock).exchange(call);
    FAIL() << "the prefill was sent";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("prefill"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("thinking_budget"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(mock.requests().empty());
}

}  // namespace
}  // namespace accord
