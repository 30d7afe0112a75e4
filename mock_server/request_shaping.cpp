#include "request_shaping.hpp"

#include "converse_output.hpp"
#include "message_shape.hpp"
#include "thinking_shape.hpp"

namespace accord_mock {
namespace {

using nlohmann::json;

// The text of the last message when it is the assistant's (a prefill), else nullopt.
std::optional<std::string> prefill(const json& request) {
  const auto messages = request.find("messages");
  if (messages == request.end() || !messages->is_array() || messages->empty()) return std::nullopt;
  const auto& last = messages->back();
  if (!last.is_object() || last.value("role", "") != "assistant") return std::nullopt;
  const auto content = last.find("content");
  if (content == last.end()) return std::string();
  if (content->is_string()) return content->get<std::string>();
  std::string text;
  if (content->is_array()) {
    for (const auto& block : *content) {
      if (block.is_object() && block.value("type", "") == "text") text += block.value("text", "");
    }
  }
  return text;
}

std::optional<std::int64_t> output_cap(const json& request) {
  for (const char* key : {"max_tokens", "max_completion_tokens", "max_output_tokens"}) {
    const auto found = request.find(key);
    if (found != request.end() && found->is_number_integer()) return found->get<std::int64_t>();
  }
  // Gemini's cap sits in generationConfig, Converse's in inferenceConfig.
  for (const auto& [config_key, key] : {std::pair{"generationConfig", "maxOutputTokens"},
                                        std::pair{"inferenceConfig", "maxTokens"}}) {
    const auto config = request.find(config_key);
    if (config == request.end() || !config->is_object()) continue;
    const auto found = config->find(key);
    if (found != config->end() && found->is_number_integer()) return found->get<std::int64_t>();
  }
  return std::nullopt;
}

// `text` cut to at most `bytes`, back to a UTF-8 character boundary.
std::string cut(const std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return text.substr(0, bytes);
}

}  // namespace

std::optional<std::string> refused_request(Endpoint endpoint, const json& request) {
  if (auto malformed = malformed_messages(endpoint, request)) return malformed;
  if (auto refused = refused_beside_thinking(endpoint, request)) return refused;
  if (endpoint == Endpoint::converse) return refused_output_config(request);
  if (endpoint != Endpoint::messages || !prefill(request)) return std::nullopt;
  const auto config = request.find("output_config");
  if (config == request.end() || !config->is_object() || !config->contains("format"))
    return std::nullopt;
  return "Prefilling the assistant message is not supported with output_config.format.";
}

Reply shaped_by_request(Reply reply, Endpoint endpoint, const json& request) {
  if (!reply.obey_max_tokens) return reply;
  std::string output = reply.kind == ReplyKind::json ? reply.value.dump() : reply.text;
  if (endpoint == Endpoint::messages) {
    if (const auto given = prefill(request); given && output.starts_with(*given)) {
      output.erase(0, given->size());
    }
  }
  const auto cap = output_cap(request);
  const bool cut_off =
      cap && *cap >= 0 && output.size() > static_cast<std::size_t>(*cap) * kBytesPerToken;
  reply.kind = cut_off ? ReplyKind::truncated : ReplyKind::text;
  reply.text = cut_off ? cut(output, static_cast<std::size_t>(*cap) * kBytesPerToken) : output;
  return reply;
}

}  // namespace accord_mock
