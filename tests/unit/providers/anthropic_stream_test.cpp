// Anthropic's stream assembled into the Messages body a correction echoes: a thinking block keeps
// its text and signature, since with thinking on Anthropic wants the echoed assistant turn to
// open with that signed block.
#include <gtest/gtest.h>

#include <string>

#include "accord/providers/provider.hpp"
#include "providers/stream_assembly.hpp"

namespace accord {
namespace {

TEST(AnthropicStream, AThinkingBlockKeepsItsTextAndSignature) {
  auto stream = detail::make_stream_assembler("anthropic", OutputMode::forced_tool);
  const auto take = [&](const char* type, const std::string& data) {
    (void)stream->take({type, data});
  };
  take("message_start", R"({"type":"message_start","message":{"role":"assistant"}})");
  take(
      "content_block_start",
      R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}})");
  take(
      "content_block_delta",
      R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The dates "}})");
  take(
      "content_block_delta",
      R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"are in order."}})");
  take(
      "content_block_delta",
      R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}})");
  take("content_block_stop", R"({"type":"content_block_stop","index":0})");
  take("message_stop", R"({"type":"message_stop"})");
  const auto body = stream->body();
  const auto& block = body["content"][0];
  EXPECT_EQ(block["type"], "thinking");
  EXPECT_EQ(block["thinking"], "The dates are in order.");
  EXPECT_EQ(block["signature"], "EqQBCgIYAhIM");
}

}  // namespace
}  // namespace accord
