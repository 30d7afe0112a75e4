// A corrective request echoes the model's reply with its signed thinking block first, whatever
// the size: with thinking on, Anthropic refuses a tool result after an assistant turn that does
// not open with its thinking block (accord-mock refuses it too: mock_server/thinking_shape.cpp).
// Only the visible output is cut past the echo's limit. Over real HTTP against accord-mock.
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

// Over twice the 16 KiB a correction repeats of a reply.
const std::string kLongThinking(40 * 1024, 't');
constexpr const char* kThinkingSignature = "EqQBCgIYAhIMsignedthinking";

// An Anthropic message with thinking on, as the API sends it: the signed thinking block, then
// the forced tool's call with `input`.
json thinking_reply(const json& input) {
  return {
      {"body",
       {{"id", "msg_1"},
        {"type", "message"},
        {"role", "assistant"},
        {"model", "claude-sonnet-4-5"},
        {"content",
         {{{"type", "thinking"}, {"thinking", kLongThinking}, {"signature", kThinkingSignature}},
          {{"type", "tool_use"}, {"id", "toolu_1"}, {"name", "refund"}, {"input", input}}}},
        {"stop_reason", "tool_use"},
        {"stop_sequence", nullptr},
        {"usage", {{"input_tokens", 100}, {"output_tokens", 100}}}}}};
}

Result<json> extract_with_thinking(const MockProcess& mock) {
  ClientOptions options{.provider = "anthropic", .base_url = mock.root_url(), .max_tokens = 2048};
  options.parameters.thinking_budget = 1024;
  auto request = refund_request();
  request.mode = OutputMode::forced_tool;
  request.correction = CorrectionPolicy{.style = CorrectionStyle::whole_object};
  return Client(options).extract(request);
}

TEST(ThinkingEcho, LongThinkingBlockIsEchoedWholeAndFirstInTheCorrection) {
  REQUIRE_MOCK();
  MockProcess mock(
      scenario({thinking_reply(swapped_dates()),
                {{"tool_calls", {{{"name", "refund"}, {"arguments", kValidRefund}}}}}}));
  const auto result = extract_with_thinking(mock);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const auto requests = mock.requests();
  ASSERT_EQ(requests.size(), 2u);
  const json& echoed = requests[1]["body"]["messages"].at(1);
  EXPECT_EQ(echoed["role"], "assistant");
  const json& thinking = echoed["content"].at(0);
  EXPECT_EQ(thinking["type"], "thinking");
  EXPECT_EQ(thinking["thinking"], kLongThinking);
  EXPECT_EQ(thinking["signature"], kThinkingSignature);
  EXPECT_EQ(echoed["content"].at(1)["input"], swapped_dates());
}

TEST(ThinkingEcho, VisibleTextPastTheLimitIsCutBesideAWholeThinkingBlock) {
  REQUIRE_MOCK();
  json reply = thinking_reply(swapped_dates());
  const std::string long_text(20 * 1024, 'v');
  reply["body"]["content"].push_back({{"type", "text"}, {"text", long_text}});
  MockProcess mock(
      scenario({reply, {{"tool_calls", {{{"name", "refund"}, {"arguments", kValidRefund}}}}}}));
  const auto result = extract_with_thinking(mock);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const json content = mock.requests().at(1)["body"]["messages"].at(1)["content"];
  EXPECT_EQ(content.at(0)["thinking"], kLongThinking);
  const std::string echoed_text = content.at(2)["text"];
  EXPECT_LT(echoed_text.size(), long_text.size());
  EXPECT_NE(echoed_text.find("more bytes of the reply not repeated"), std::string::npos);
}

}  // namespace
}  // namespace accord
