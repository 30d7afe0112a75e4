#include "thinking_shape.hpp"

#include <algorithm>

namespace accord_mock {
namespace {

using nlohmann::json;

bool thinking_on(const json& request) {
  const auto thinking = request.find("thinking");
  return thinking != request.end() && thinking->is_object() &&
         thinking->value("type", "") == "enabled";
}

// An assistant message whose content does not open with a thinking block.
bool assistant_without_thinking_first(const json& message) {
  if (!message.is_object() || message.value("role", "") != "assistant") return false;
  const auto content = message.find("content");
  if (content == message.end() || !content->is_array() || content->empty()) return true;
  const auto& first = content->front();
  const std::string type = first.is_object() ? first.value("type", "") : "";
  return type != "thinking" && type != "redacted_thinking";
}

// A last assistant message that does not open with a thinking block: what the model would have
// to continue without thinking first.
bool ends_in_prefill(const json& request) {
  const auto messages = request.find("messages");
  if (messages == request.end() || !messages->is_array() || messages->empty()) return false;
  return assistant_without_thinking_first(messages->back());
}

// Tool results (the last user message) after an assistant message that does not open with a
// thinking block: with thinking on, Anthropic wants the turn whose tool calls they answer echoed
// with its signed thinking first ("a final assistant message must start with a thinking block,
// preceding the lastmost set of tool_use and tool_result blocks").
bool tool_turn_without_thinking(const json& request) {
  const auto messages = request.find("messages");
  if (messages == request.end() || !messages->is_array() || messages->size() < 2) return false;
  const auto& last = messages->back();
  if (!last.is_object() || last.value("role", "") != "user") return false;
  const auto results = last.find("content");
  if (results == last.end() || !results->is_array() ||
      std::none_of(results->begin(), results->end(), [](const json& block) {
        return block.is_object() && block.value("type", "") == "tool_result";
      })) {
    return false;
  }
  return assistant_without_thinking_first((*messages)[messages->size() - 2]);
}

constexpr const char* kForcedTool = "Thinking may not be enabled when tool_choice forces tool use.";

// A temperature other than 1 or a top_p below 0.95 in `sampling`, under the names its API uses.
std::optional<std::string> refused_sampling(const json& sampling, const char* temperature,
                                            const char* top_p) {
  if (const auto t = sampling.find(temperature);
      t != sampling.end() && t->is_number() && t->get<double>() != 1.0)
    return "temperature may only be set to 1 when thinking is enabled.";
  if (const auto p = sampling.find(top_p);
      p != sampling.end() && p->is_number() && p->get<double>() < 0.95)
    return "top_p must be between 0.95 and 1 when thinking is enabled.";
  return std::nullopt;
}

// Claude on Bedrock: thinking in additionalModelRequestFields, a forced tool as toolChoice.tool
// (or .any), sampling in inferenceConfig.
std::optional<std::string> refused_beside_converse_thinking(const json& request) {
  const auto fields = request.find("additionalModelRequestFields");
  if (fields == request.end() || !thinking_on(*fields)) return std::nullopt;
  const json choice = request.value("/toolConfig/toolChoice"_json_pointer, json());
  if (choice.is_object() && (choice.contains("tool") || choice.contains("any"))) return kForcedTool;
  return refused_sampling(request.value("inferenceConfig", json::object()), "temperature", "topP");
}

}  // namespace

std::optional<std::string> refused_beside_thinking(Endpoint endpoint, const json& request) {
  if (endpoint == Endpoint::converse) return refused_beside_converse_thinking(request);
  if (endpoint != Endpoint::messages || !thinking_on(request)) return std::nullopt;
  if (const auto choice = request.find("tool_choice");
      choice != request.end() && choice->is_object()) {
    const std::string type = choice->value("type", "");
    if (type == "any" || type == "tool") return kForcedTool;
  }
  if (auto refused = refused_sampling(request, "temperature", "top_p")) return refused;
  if (ends_in_prefill(request)) {
    return "When thinking is enabled, a final assistant message must start with a thinking "
           "block: an assistant prefill cannot be continued with thinking on.";
  }
  if (tool_turn_without_thinking(request)) {
    return "When thinking is enabled, a final assistant message must start with a thinking "
           "block (preceding the lastmost set of tool_use and tool_result blocks).";
  }
  return std::nullopt;
}

}  // namespace accord_mock
