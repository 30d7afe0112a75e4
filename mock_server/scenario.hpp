#pragma once
// The scenario: the scripted list of replies accord-mock gives, one per provider request.
// The format is documented in mock_server/README.md.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace accord_mock {

enum class ReplyKind { json, text, refusal, truncated, content_filter, empty, http, tool_calls };

struct ToolCallSpec {
  std::string name;
  nlohmann::json arguments;  // any JSON value; a string is "raw arguments text"
  std::optional<std::string> id;
};

// A fault in a streamed reply, after `after_events` events have been sent.
enum class StreamFaultKind { none, drop, stall, malformed };
struct StreamFault {
  StreamFaultKind kind = StreamFaultKind::none;
  std::size_t after_events = 0;
  std::int64_t stall_ms = 0;  // stall: how long nothing is sent before the stream goes on
};

struct Reply {
  ReplyKind kind = ReplyKind::json;
  nlohmann::json value = nlohmann::json::object();  // json
  std::string text;                                 // text, refusal, truncated, content_filter
  std::vector<ToolCallSpec> tool_calls;             // tool_calls
  int status = 200;                                 // http
  std::optional<nlohmann::json> body;               // http: sent as given (a string verbatim)
  nlohmann::json error_fields = nlohmann::json::object();  // http: merged into the default envelope
  std::optional<std::string> content_type;                 // http: overrides application/json

  // Modifiers, valid on every kind.
  std::vector<std::pair<std::string, std::string>> headers;
  std::int64_t delay_ms = 0;
  bool drop = false;
  std::int64_t stall_after_headers_ms = 0;
  bool partial_body = false;
  std::size_t pad_bytes = 0;
  std::size_t nest_depth = 0;
  bool invalid_utf8 = false;
  nlohmann::json usage;  // null or an object merged over the computed usage
  // In a batch: the item ends unanswered, as expired (the rest of the reply is ignored).
  // A direct call ignores it.
  bool batch_expired = false;
  // In a batch: the item gets no result at all, as if the provider lost it (the rest of the
  // reply is ignored). A direct call ignores it.
  bool batch_missing = false;
  // The output (json or text, not a forced tool call) is held to the request's output cap: cut
  // there and sent as truncated when longer, and after an Anthropic assistant prefill that it
  // starts with, only the rest is sent (see request_shaping.hpp).
  bool obey_max_tokens = false;
  // Streamed replies (a request with "stream": true): how many characters of output each delta
  // event carries, and a fault mid-stream.
  std::size_t stream_chunk_chars = 8;
  StreamFault stream_fault;
};

struct Scenario {
  std::vector<Reply> replies;
  // How many retrieves a batch takes: the batch reports that it has ended on this one.
  int batch_polls = 1;
  // How many status requests of each batch answer 503 first (not counted in batch_polls).
  int batch_poll_failures = 0;
};

// Throws std::invalid_argument naming the offending reply ("replies[2]: ...").
[[nodiscard]] Scenario parse_scenario(const nlohmann::json& document);
[[nodiscard]] Scenario default_scenario();

// Hands out replies in order, repeating the last one. Safe across threads.
class ReplyQueue {
 public:
  explicit ReplyQueue(Scenario scenario) : scenario_(std::move(scenario)) {}
  [[nodiscard]] Reply next();
  [[nodiscard]] int batch_polls();
  [[nodiscard]] int batch_poll_failures();
  void replace(Scenario scenario);

 private:
  std::mutex mutex_;
  Scenario scenario_;
  std::size_t position_ = 0;
};

}  // namespace accord_mock
