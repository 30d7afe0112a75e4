#include "ollama_shape.hpp"

#include "render_parts.hpp"

#include "stream.hpp"

namespace accord_mock {
namespace {

using json = nlohmann::ordered_json;  // keys in the order Ollama sends them

// Ollama writes times as RFC 3339 with nanoseconds; the mock's are fixed, which no client reads.
constexpr const char* kCreatedAt = "2026-01-01T00:00:00.000000000Z";

// A tool call's arguments as Ollama sends them: an object (a string that is not one goes as the
// string, a wrongly shaped call on purpose).
std::string arguments_json(const Reply& reply, const ToolCallSpec& call) {
  if (!call.arguments.is_string()) return payload_text(reply, call.arguments.dump());
  const auto& text = call.arguments.get_ref<const std::string&>();
  const auto parsed = nlohmann::json::parse(text, nullptr, false);
  return parsed.is_object() ? payload_text(reply, text)
                            : json_string_literal(payload_text(reply, text));
}

}  // namespace

RenderedReply render_ollama_chat(const Reply& reply, const nlohmann::json& request,
                                 std::size_t request_bytes) {
  std::string content;
  std::string calls;
  switch (reply.kind) {
    case ReplyKind::json:
      content = payload_text(reply, reply.value.dump());
      break;
    case ReplyKind::tool_calls:
      for (const auto& call : reply.tool_calls) {
        // An id only when the scenario gives one: Ollama's calls may come without.
        const std::string id = call.id ? R"("id":)" + json(*call.id).dump() + "," : "";
        calls += std::string(calls.empty() ? "" : ",") + "{" + id + R"("function":{"name":)" +
                 json(call.name).dump() + R"(,"arguments":)" + arguments_json(reply, call) + "}}";
      }
      break;
    case ReplyKind::empty:
    case ReplyKind::http:
      break;
    default:  // text, and what Ollama has no signal for (a refusal, a filter): the words alone
      content = payload_text(reply, reply.text);
      break;
  }
  json counts = {
      {"prompt_eval_count", tokens_for(request_bytes)},
      {"eval_count", reply.kind == ReplyKind::empty ? 0 : tokens_for(content_bytes(reply))}};
  if (reply.usage.is_object()) counts.merge_patch(json(reply.usage));
  // Written as text so invalid UTF-8 and deep nesting reach the wire as scripted.
  std::string message = R"({"role":"assistant","content":)" + json_string_literal(content);
  if (!calls.empty()) message += R"(,"tool_calls":[)" + calls + "]";
  message += "}";
  RenderedReply out;
  out.body = R"({"model":)" + json(model_of(request)).dump() + R"(,"created_at":")" + kCreatedAt +
             R"(","message":)" + message + R"(,"done":true,"done_reason":)" +
             (reply.kind == ReplyKind::truncated ? R"("length")" : R"("stop")") +
             R"(,"total_duration":1000000,"load_duration":1000,)" + counts.dump().substr(1);
  out.headers = reply.headers;
  return out;
}

RenderedReply render_ollama_error(int status, const std::string& message,
                                  const nlohmann::json& fields) {
  std::string text = message;
  if (const auto given = fields.find("message"); given != fields.end() && given->is_string()) {
    text = given->get<std::string>();
  }
  RenderedReply out;
  out.status = status;
  out.body = json{{"error", text}}.dump(-1, ' ', false, json::error_handler_t::replace);
  return out;
}

std::vector<std::string> ollama_stream_lines(const nlohmann::json& body, std::size_t chunk_chars) {
  std::vector<std::string> out;
  const auto& message = body.at("message");
  const json head = {{"model", body.value("model", "")}, {"created_at", kCreatedAt}};
  const auto line = [&](json piece) {
    json l = head;
    l["message"] = std::move(piece);
    l["done"] = false;
    out.push_back(l.dump() + "\n");
  };
  for (auto& piece : pieces(message.value("content", ""), chunk_chars)) {
    line({{"role", "assistant"}, {"content", std::move(piece)}});
  }
  if (message.contains("tool_calls")) {
    line({{"role", "assistant"}, {"content", ""}, {"tool_calls", message["tool_calls"]}});
  }
  json last = json(body);
  last["message"] = {{"role", "assistant"}, {"content", ""}};
  out.push_back(last.dump() + "\n");
  return out;
}

}  // namespace accord_mock
