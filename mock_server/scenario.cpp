#include "scenario.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>

namespace accord_mock {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 8> kKindKeys = {
    "json", "text", "refusal", "truncated", "content_filter", "empty", "tool_calls", "status"};
constexpr std::array<std::string_view, 25> kKnownKeys = {"json",
                                                         "text",
                                                         "refusal",
                                                         "truncated",
                                                         "content_filter",
                                                         "empty",
                                                         "tool_calls",
                                                         "status",
                                                         "body",
                                                         "error",
                                                         "content_type",
                                                         "headers",
                                                         "delay_ms",
                                                         "drop",
                                                         "stall_after_headers_ms",
                                                         "partial_body",
                                                         "pad_bytes",
                                                         "nest_depth",
                                                         "invalid_utf8",
                                                         "usage",
                                                         "batch_expired",
                                                         "batch_missing",
                                                         "obey_max_tokens",
                                                         "stream_chunk_chars",
                                                         "stream_fault"};

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

bool known_key(const std::string& key) {
  for (auto k : kKnownKeys)
    if (k == key) return true;
  return false;
}

std::int64_t non_negative_int(const json& r, const char* key, const std::string& where) {
  if (!r.contains(key)) return 0;
  const auto& v = r.at(key);
  if (!v.is_number_integer() || v.get<std::int64_t>() < 0)
    fail(where, std::string("\"") + key + "\" must be a non-negative integer");
  return v.get<std::int64_t>();
}

bool flag(const json& r, const char* key, const std::string& where) {
  if (!r.contains(key)) return false;
  if (!r.at(key).is_boolean()) fail(where, std::string("\"") + key + "\" must be true or false");
  return r.at(key).get<bool>();
}

std::string string_field(const json& r, const char* key, const std::string& where) {
  if (!r.at(key).is_string()) fail(where, std::string("\"") + key + "\" must be a string");
  return r.at(key).get<std::string>();
}

StreamFault parse_stream_fault(const json& f, const std::string& where) {
  const std::string at = where + ".stream_fault";
  if (!f.is_object() || !f.contains("kind") || !f.at("kind").is_string())
    fail(at, "needs a \"kind\": drop, stall or malformed");
  for (const auto& [key, _] : f.items())
    if (key != "kind" && key != "after_events" && key != "stall_ms")
      fail(at, "unknown key \"" + key + "\"");
  StreamFault fault;
  const auto kind = f.at("kind").get<std::string>();
  if (kind == "drop") {
    fault.kind = StreamFaultKind::drop;
  } else if (kind == "stall") {
    fault.kind = StreamFaultKind::stall;
  } else if (kind == "malformed") {
    fault.kind = StreamFaultKind::malformed;
  } else {
    fail(at, "\"kind\" must be drop, stall or malformed");
  }
  fault.after_events = static_cast<std::size_t>(non_negative_int(f, "after_events", at));
  fault.stall_ms = non_negative_int(f, "stall_ms", at);
  if (fault.kind == StreamFaultKind::stall && fault.stall_ms == 0) fault.stall_ms = 60'000;
  return fault;
}

Reply parse_reply(const json& r, const std::string& where) {
  if (!r.is_object()) fail(where, "a reply must be a JSON object");
  for (const auto& [key, _] : r.items())
    if (!known_key(key)) fail(where, "unknown key \"" + key + "\"");

  // "body" alone is an http reply with status 200, so it counts as a kind when "status" is absent.
  std::string kind_key;
  for (auto k : kKindKeys) {
    if (!r.contains(std::string(k))) continue;
    if (!kind_key.empty())
      fail(where, "has both \"" + kind_key + "\" and \"" + std::string(k) + "\"; pick one kind");
    kind_key = k;
  }
  if (kind_key.empty() && r.contains("body")) kind_key = "status";
  // A dropped connection or an expired or missing batch item never sends a reply, so
  // {"drop": true} or {"batch_expired": true} alone needs no kind.
  if (kind_key.empty() && (r.value("drop", false) || r.value("batch_expired", false) ||
                           r.value("batch_missing", false)))
    kind_key = "empty";
  if (kind_key.empty())
    fail(where,
         "needs one of json, text, refusal, truncated, content_filter, empty, tool_calls, status");
  if (kind_key != "status" &&
      (r.contains("body") || r.contains("error") || r.contains("content_type")))
    fail(where, "\"body\", \"error\" and \"content_type\" belong to a status reply");

  Reply reply;
  if (kind_key == "json") {
    reply.kind = ReplyKind::json;
    reply.value = r.at("json");
  } else if (kind_key == "text") {
    reply.kind = ReplyKind::text;
    reply.text = string_field(r, "text", where);
  } else if (kind_key == "refusal") {
    reply.kind = ReplyKind::refusal;
    reply.text = string_field(r, "refusal", where);
  } else if (kind_key == "truncated") {
    reply.kind = ReplyKind::truncated;
    reply.text = string_field(r, "truncated", where);
  } else if (kind_key == "content_filter") {
    reply.kind = ReplyKind::content_filter;
    const auto& v = r.at("content_filter");
    if (v.is_string()) {
      reply.text = v.get<std::string>();
    } else if (v != json(true)) {
      fail(where, "\"content_filter\" must be true or the partial text");
    }
  } else if (kind_key == "empty") {
    reply.kind = ReplyKind::empty;
    if (r.contains("empty") && r.at("empty") != json(true)) fail(where, "\"empty\" must be true");
  } else if (kind_key == "tool_calls") {
    reply.kind = ReplyKind::tool_calls;
    const auto& calls = r.at("tool_calls");
    if (!calls.is_array() || calls.empty()) fail(where, "\"tool_calls\" must be a non-empty array");
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const auto& c = calls[i];
      const auto at = where + ".tool_calls[" + std::to_string(i) + "]";
      if (!c.is_object() || !c.contains("name") || !c.at("name").is_string())
        fail(at, "needs a string \"name\"");
      for (const auto& [key, _] : c.items())
        if (key != "name" && key != "arguments" && key != "id")
          fail(at, "unknown key \"" + key + "\"");
      ToolCallSpec call;
      call.name = c.at("name").get<std::string>();
      call.arguments = c.value("arguments", json::object());
      if (c.contains("id")) call.id = string_field(c, "id", at);
      reply.tool_calls.push_back(std::move(call));
    }
  } else {
    reply.kind = ReplyKind::http;
    if (r.contains("status")) {
      const auto& s = r.at("status");
      if (!s.is_number_integer() || s.get<int>() < 100 || s.get<int>() > 599)
        fail(where, "\"status\" must be an integer HTTP status (100-599)");
      reply.status = s.get<int>();
    }
    if (r.contains("body")) reply.body = r.at("body");
    if (r.contains("error")) {
      if (!r.at("error").is_object()) fail(where, "\"error\" must be an object");
      reply.error_fields = r.at("error");
    }
    if (r.contains("content_type")) reply.content_type = string_field(r, "content_type", where);
  }

  if (r.contains("headers")) {
    const auto& h = r.at("headers");
    if (!h.is_object()) fail(where, "\"headers\" must be an object of strings");
    for (const auto& [name, value] : h.items()) {
      if (value.is_string()) {
        reply.headers.emplace_back(name, value.get<std::string>());
      } else if (value.is_number()) {
        reply.headers.emplace_back(name, value.dump());
      } else {
        fail(where, "header \"" + name + "\" must be a string or a number");
      }
    }
  }
  reply.delay_ms = non_negative_int(r, "delay_ms", where);
  reply.drop = flag(r, "drop", where);
  reply.stall_after_headers_ms = non_negative_int(r, "stall_after_headers_ms", where);
  reply.partial_body = flag(r, "partial_body", where);
  reply.pad_bytes = static_cast<std::size_t>(non_negative_int(r, "pad_bytes", where));
  reply.nest_depth = static_cast<std::size_t>(non_negative_int(r, "nest_depth", where));
  reply.invalid_utf8 = flag(r, "invalid_utf8", where);
  reply.batch_expired = flag(r, "batch_expired", where);
  reply.batch_missing = flag(r, "batch_missing", where);
  reply.obey_max_tokens = flag(r, "obey_max_tokens", where);
  if (reply.obey_max_tokens && reply.kind != ReplyKind::json && reply.kind != ReplyKind::text)
    fail(where, "\"obey_max_tokens\" applies to a json or text reply");
  if (r.contains("usage")) {
    if (!r.at("usage").is_object()) fail(where, "\"usage\" must be an object");
    reply.usage = r.at("usage");
  }
  if (r.contains("stream_chunk_chars")) {
    reply.stream_chunk_chars =
        static_cast<std::size_t>(non_negative_int(r, "stream_chunk_chars", where));
    if (reply.stream_chunk_chars == 0) fail(where, "\"stream_chunk_chars\" must be at least 1");
  }
  if (r.contains("stream_fault"))
    reply.stream_fault = parse_stream_fault(r.at("stream_fault"), where);
  return reply;
}

}  // namespace

Scenario parse_scenario(const json& document) {
  if (!document.is_object() || !document.contains("replies"))
    fail("scenario", "must be an object with a \"replies\" array");
  for (const auto& [key, _] : document.items())
    if (key != "replies" && key != "batch_polls" && key != "batch_poll_failures")
      fail("scenario", "unknown key \"" + key + "\"");
  const auto& replies = document.at("replies");
  if (!replies.is_array() || replies.empty())
    fail("scenario", "\"replies\" must be a non-empty array");
  Scenario scenario;
  if (document.contains("batch_polls")) {
    const auto& polls = document.at("batch_polls");
    if (!polls.is_number_integer() || polls.get<std::int64_t>() < 1)
      fail("scenario", "\"batch_polls\" must be an integer >= 1");
    scenario.batch_polls = polls.get<int>();
  }
  scenario.batch_poll_failures =
      static_cast<int>(non_negative_int(document, "batch_poll_failures", "scenario"));
  for (std::size_t i = 0; i < replies.size(); ++i)
    scenario.replies.push_back(parse_reply(replies[i], "replies[" + std::to_string(i) + "]"));
  return scenario;
}

Scenario default_scenario() {
  return parse_scenario(json::parse(R"({"replies":[{"json":{}}]})"));
}

Reply ReplyQueue::next() {
  std::lock_guard lock(mutex_);
  const auto index = std::min(position_, scenario_.replies.size() - 1);
  if (position_ < scenario_.replies.size()) ++position_;
  return scenario_.replies[index];
}

int ReplyQueue::batch_polls() {
  std::lock_guard lock(mutex_);
  return scenario_.batch_polls;
}

int ReplyQueue::batch_poll_failures() {
  std::lock_guard lock(mutex_);
  return scenario_.batch_poll_failures;
}

void ReplyQueue::replace(Scenario scenario) {
  std::lock_guard lock(mutex_);
  scenario_ = std::move(scenario);
  position_ = 0;
}

}  // namespace accord_mock
