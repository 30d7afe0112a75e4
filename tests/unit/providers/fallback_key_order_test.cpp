// A reply the tape reader refuses (a repeated key, an integer of 19 or more digits) is read by
// nlohmann instead; the arguments of its tool call keep the model's member order all the same,
// as every other reply's do.

#include <gtest/gtest.h>

#include <string>

#include "accord/providers/provider.hpp"
#include "fixtures/codec_calls.hpp"

namespace accord {
namespace {

// An Anthropic forced-tool reply whose tool input is `input`.
Reply forced_tool_reply_with_input(const std::string& input) {
  return testing_support::decode(
      "anthropic",
      R"({"content": [{"type": "tool_use", "id": "t", "name": "refund", "input": )" + input +
          R"(}], "stop_reason": "tool_use"})",
      200, OutputMode::forced_tool);
}

TEST(FallbackKeyOrder, ARepeatedKeyKeepsTheModelsMemberOrder) {
  const Reply reply = forced_tool_reply_with_input(
      R"({"orderId": "ORD-1", "amount": 1, "note": {"z": 1, "a": 2}, "amount": 2})");
  ASSERT_EQ(reply.status, ReplyStatus::ok) << reply.detail;
  ASSERT_EQ(reply.tool_calls.size(), 1U);
  // nlohmann keeps a repeated key's last value, at the place of its first.
  EXPECT_EQ(reply.tool_calls[0].arguments_text,
            R"({"orderId":"ORD-1","amount":2,"note":{"z":1,"a":2}})");
  EXPECT_EQ(reply.text, reply.tool_calls[0].arguments_text);
}

TEST(FallbackKeyOrder, ALongIntegerKeepsTheModelsMemberOrder) {
  const Reply reply =
      forced_tool_reply_with_input(R"({"orderId": "ORD-1", "amount": 12345678901234567890})");
  ASSERT_EQ(reply.status, ReplyStatus::ok) << reply.detail;
  ASSERT_EQ(reply.tool_calls.size(), 1U);
  EXPECT_EQ(reply.tool_calls[0].arguments_text,
            R"({"orderId":"ORD-1","amount":12345678901234567890})");
}

}  // namespace
}  // namespace accord
