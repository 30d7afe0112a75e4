// A whole reply's envelope is read without putting its objects' members in key order
// (detail::parse_document_unordered), so a codec must read it by find() and in the text's
// order, never through members(). Each reply here is decoded as written in key order (where the
// text's order is members()'s, as every envelope's was before) and with the members of every
// object reversed: a codec that depended on the order would decode the two apart. The message
// kept and each tool call's arguments are also held, byte for byte, against ordered_json's dump
// of the body at their place, so a codec that wrote them in key order would fail.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "fixtures/codec_calls.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

// `value` with the members of every object in it in reverse order.
ojson with_members_reversed(const ojson& value) {
  if (value.is_array()) {
    ojson items = ojson::array();
    for (const ojson& item : value) items.push_back(with_members_reversed(item));
    return items;
  }
  if (!value.is_object()) return value;
  std::vector<std::pair<std::string, const ojson*>> members;
  for (auto member = value.begin(); member != value.end(); ++member) {
    members.emplace_back(member.key(), &member.value());
  }
  ojson reversed = ojson::object();
  for (auto member = members.rbegin(); member != members.rend(); ++member) {
    reversed[member->first] = with_members_reversed(*member->second);
  }
  return reversed;
}

// Two texts alike, or the same JSON whatever the order of their members (a tool call's
// arguments and the raw message keep the model's order).
void expect_same_json(const std::string& a, const std::string& b) {
  if (a == b) return;
  const auto tree_a = nlohmann::json::parse(a, nullptr, /*allow_exceptions=*/false);
  const auto tree_b = nlohmann::json::parse(b, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(tree_a.is_discarded()) << a;
  EXPECT_EQ(tree_a, tree_b);
}

// Where in a reply its codec finds the assistant message (as ProviderMessage keeps it) and each
// tool call's arguments, as JSON pointers.
struct WrittenAt {
  const char* message;
  std::vector<const char*> arguments = {};
};

// `value` as a reply keeps it: a string as is, anything else as compact JSON.
std::string written_form(const ojson& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// The reply's message and tool arguments are the body's, byte for byte and in the body's member
// order (ordered_json is the oracle): a codec that wrote them from a key-ordered view would not be.
void expect_written_as_in(const std::string& body, const Reply& reply, const WrittenAt& at) {
  const ojson tree = ojson::parse(body);
  EXPECT_EQ(reply.assistant.raw.text(), tree.at(ojson::json_pointer(at.message)).dump());
  ASSERT_EQ(reply.tool_calls.size(), at.arguments.size());
  for (std::size_t i = 0; i < at.arguments.size(); ++i) {
    EXPECT_EQ(reply.tool_calls[i].arguments_text,
              written_form(tree.at(ojson::json_pointer(at.arguments[i]))));
  }
}

void expect_decoded_alike_reversed(const char* provider, const std::string& body,
                                   const WrittenAt& at,
                                   OutputMode mode = OutputMode::response_format) {
  SCOPED_TRACE(provider);
  const std::string in_key_order = nlohmann::json::parse(body).dump();
  const std::string reversed = with_members_reversed(ojson::parse(in_key_order)).dump();
  ASSERT_NE(in_key_order, reversed);
  const Reply a = testing_support::decode(provider, in_key_order, 200, mode);
  const Reply b = testing_support::decode(provider, reversed, 200, mode);
  EXPECT_EQ(to_string(a.status), to_string(b.status));
  expect_same_json(a.text, b.text);
  EXPECT_EQ(a.detail, b.detail);
  EXPECT_EQ(a.error_code, b.error_code);
  EXPECT_TRUE(a.usage == b.usage);
  ASSERT_EQ(a.tool_calls.size(), b.tool_calls.size());
  for (std::size_t i = 0; i < a.tool_calls.size(); ++i) {
    EXPECT_EQ(a.tool_calls[i].id, b.tool_calls[i].id);
    EXPECT_EQ(a.tool_calls[i].name, b.tool_calls[i].name);
  }
  expect_written_as_in(in_key_order, a, at);
  expect_written_as_in(reversed, b, at);
}

TEST(EnvelopeKeyOrder, ChatCompletionsRepliesDecodeAlikeWhateverTheirMembersOrder) {
  expect_decoded_alike_reversed("openai-chat", R"({"id": "chatcmpl-1", "object": "chat.completion",
      "choices": [{"index": 0, "message": {"role": "assistant",
        "content": "{\"orderId\":\"ORD-1\",\"amount\":42.5}", "refusal": null, "annotations": []},
        "logprobs": null, "finish_reason": "stop"}],
      "usage": {"prompt_tokens": 39, "completion_tokens": 41, "total_tokens": 80,
        "prompt_tokens_details": {"cached_tokens": 7, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0}}})",
                                {"/choices/0/message"});
  expect_decoded_alike_reversed(
      "openai-chat", R"({"choices": [{"finish_reason": "tool_calls",
      "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1",
        "type": "function", "function": {"name": "refund",
        "arguments": "{\"orderId\":\"x\",\"amount\":1}"}}]}}],
      "usage": {"prompt_tokens": 5, "completion_tokens": 3}})",
      {"/choices/0/message", {"/choices/0/message/tool_calls/0/function/arguments"}},
      OutputMode::forced_tool);
  expect_decoded_alike_reversed("openai-chat", R"({"choices": [{"finish_reason": "stop",
      "message": {"role": "assistant", "content": null, "refusal": "I cannot."}}]})",
                                {"/choices/0/message"});
}

TEST(EnvelopeKeyOrder, AzureFilterResultsDecodeAlikeWhateverTheirMembersOrder) {
  const std::string filters = R"({"hate": {"filtered": false, "severity": "safe"},
      "violence": {"filtered": true, "severity": "high"}, "sexual": {"filtered": false}})";
  expect_decoded_alike_reversed("azure-openai",
                                R"({"id": "x", "object": "chat.completion",
      "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": )" +
                                    filters +
                                    R"(}], "choices": [{"index": 0,
        "finish_reason": "stop", "message": {"role": "assistant", "content": "{}"},
        "content_filter_results": )" +
                                    filters + R"(}],
      "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}})",
                                {"/choices/0/message"});
}

TEST(EnvelopeKeyOrder, AnthropicRepliesDecodeAlikeWhateverTheirMembersOrder) {
  expect_decoded_alike_reversed("anthropic", R"({"id": "msg_1", "type": "message",
      "role": "assistant", "model": "claude", "content": [{"type": "text",
        "text": "{\"amount\":42.5}", "citations": null}], "stop_reason": "end_turn",
      "usage": {"input_tokens": 19, "output_tokens": 41, "cache_creation_input_tokens": 2,
        "cache_read_input_tokens": 3, "service_tier": "standard"}})",
                                {"/content"});
  expect_decoded_alike_reversed("anthropic", R"({"content": [{"type": "tool_use", "id": "t",
      "name": "refund", "input": {"orderId": "ORD-1", "amount": 1, "note": {"z": 1, "a": 2}}}],
      "stop_reason": "tool_use", "usage": {"input_tokens": 1, "output_tokens": 2}})",
                                {"/content", {"/content/0/input"}}, OutputMode::forced_tool);
}

TEST(EnvelopeKeyOrder, GeminiRepliesDecodeAlikeWhateverTheirMembersOrder) {
  expect_decoded_alike_reversed("gemini", R"({"candidates": [{"content": {"parts": [
        {"text": "{\"amount\":42.5}"}], "role": "model"}, "finishReason": "STOP", "index": 0}],
      "usageMetadata": {"promptTokenCount": 13, "candidatesTokenCount": 41,
        "totalTokenCount": 54, "cachedContentTokenCount": 4},
      "modelVersion": "m", "responseId": "r"})",
                                {"/candidates/0/content/parts"});
  expect_decoded_alike_reversed(
      "gemini", R"({"candidates": [{"content": {"parts": [
        {"functionCall": {"name": "refund", "args": {"orderId": 7, "amount": 2}}}],
        "role": "model"}, "finishReason": "STOP"}]})",
      {"/candidates/0/content/parts", {"/candidates/0/content/parts/0/functionCall/args"}},
      OutputMode::forced_tool);
}

TEST(EnvelopeKeyOrder, BedrockRepliesDecodeAlikeWhateverTheirMembersOrder) {
  expect_decoded_alike_reversed("bedrock", R"({"output": {"message": {"role": "assistant",
        "content": [{"text": "{\"amount\":42.5}"}]}}, "stopReason": "end_turn",
      "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15,
        "cacheReadInputTokens": 1, "cacheWriteInputTokens": 2}, "metrics": {"latencyMs": 9}})",
                                {"/output/message/content"});
  expect_decoded_alike_reversed(
      "bedrock", R"({"output": {"message": {"role": "assistant",
        "content": [{"toolUse": {"toolUseId": "tooluse_1", "name": "order",
          "input": {"orderId": 7, "b": [1, {"y": 1, "x": 2}]}}}]}}, "stopReason": "tool_use",
      "usage": {"inputTokens": 10, "outputTokens": 5}})",
      {"/output/message/content", {"/output/message/content/0/toolUse/input"}},
      OutputMode::forced_tool);
}

TEST(EnvelopeKeyOrder, ResponsesRepliesDecodeAlikeWhateverTheirMembersOrder) {
  expect_decoded_alike_reversed("openai-responses", R"({"status": "completed", "output": [
        {"type": "message", "id": "msg_1", "role": "assistant", "content": [
          {"type": "output_text", "text": "{\"a\":1}", "annotations": []}]},
        {"type": "function_call", "id": "fc_12", "call_id": "call_A1", "name": "lookup",
          "arguments": "{\"base\":\"EUR\"}", "status": "completed"}],
      "usage": {"input_tokens": 3, "output_tokens": 4, "total_tokens": 7,
        "input_tokens_details": {"cached_tokens": 1}}})",
                                {"/output", {"/output/1/arguments"}});
}

TEST(EnvelopeKeyOrder, OllamaRepliesDecodeAlikeWhateverTheirMembersOrder) {
  expect_decoded_alike_reversed("ollama", R"({"model": "m", "message": {"role": "assistant",
        "content": "{\"orderId\": \"ORD-1\"}"}, "done": true, "done_reason": "stop",
      "prompt_eval_count": 3, "eval_count": 5})",
                                {"/message"});
}

}  // namespace
}  // namespace accord
