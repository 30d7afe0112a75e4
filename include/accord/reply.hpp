#pragma once
// A provider's reply, classified status-first, and the provider-neutral conversation.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/content.hpp"
#include "accord/provider_message.hpp"

namespace accord {

struct Usage {
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t total_tokens = 0;
  // Some counts are accord's estimate (a quarter token per byte), not the provider's: a stream
  // stopped early or cut off never got the usage, which providers send last.
  bool estimated = false;
  // Of input_tokens, those read from the provider's prompt cache and those written to it (0 when
  // the provider reports none).
  std::int64_t cache_read_input_tokens = 0;
  std::int64_t cache_write_input_tokens = 0;
  Usage& operator+=(const Usage& other);
  friend bool operator==(const Usage&, const Usage&) = default;
};

struct ToolCall {
  std::string id;
  std::string name;
  std::string
      arguments_text;  // as sent: a JSON string on OpenAI, the serialised object on Anthropic
};

struct ToolResult {
  std::string call_id;
  std::string name;
  std::string content;
  bool is_error = false;
};

// One turn of the conversation. An assistant turn keeps the provider's own message (`raw`, its
// JSON text, members in the provider's order) so it can be sent back as received.
struct Turn {
  enum class Role { system, user, assistant, tool_results };
  Role role = Role::user;
  std::string text;
  std::vector<ToolCall> tool_calls;  // assistant
  std::vector<ToolResult> results;   // tool_results
  ProviderMessage raw;               // assistant: the provider's message/items; empty otherwise
  // user: images, documents and more text, read after `text` (each provider's limits apply:
  // docs/configuration.md#images-and-documents).
  std::vector<ContentPart> parts;
};

enum class ReplyStatus {
  ok,         // text holds the model's output
  refusal,    // text holds the refusal
  truncated,  // text holds what arrived before the limit
  content_filtered,
  empty,       // no output at all
  tool_calls,  // the model called tools instead of answering
  http_error,  // non-2xx: detail holds the provider's message
  bad_reply,   // 2xx but not the provider's shape
};
[[nodiscard]] std::string_view to_string(ReplyStatus status);

struct Reply {
  ReplyStatus status = ReplyStatus::bad_reply;
  std::string text;
  std::vector<ToolCall> tool_calls;
  Usage usage;
  std::string detail;  // stop reason, provider error message (never credentials), shape problem
  std::string
      error_code;  // provider error type/code, e.g. `insufficient_quota`, `overloaded_error`
  Turn assistant;  // the reply as a turn to append to the conversation
};

}  // namespace accord
