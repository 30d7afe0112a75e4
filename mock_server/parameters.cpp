#include "parameters.hpp"

#include <initializer_list>
#include <set>

namespace accord_mock {
namespace {

using nlohmann::json;
using Problem = std::optional<std::string>;

// Each check returns the problem with the member at `pointer`, when present.
Problem number_in(const json& request, const std::string& pointer, double low, double high) {
  const json::json_pointer at(pointer);
  if (!request.contains(at)) return std::nullopt;
  const auto& value = request[at];
  if (!value.is_number() || value.get<double>() < low || value.get<double>() > high) {
    return pointer + ": must be a number from " + json(low).dump() + " to " + json(high).dump();
  }
  return std::nullopt;
}

Problem integer(const json& request, const std::string& pointer) {
  const json::json_pointer at(pointer);
  if (!request.contains(at) || request[at].is_number_integer()) return std::nullopt;
  return pointer + ": must be an integer";
}

Problem strings(const json& request, const std::string& pointer, std::size_t most) {
  const json::json_pointer at(pointer);
  if (!request.contains(at)) return std::nullopt;
  const auto& value = request[at];
  bool ok = value.is_array() && value.size() <= most;
  for (const auto& item : value) ok = ok && item.is_string();
  if (!ok) return pointer + ": must be an array of at most " + std::to_string(most) + " strings";
  return std::nullopt;
}

Problem one_of(const json& request, const std::string& pointer,
               const std::set<std::string>& values) {
  const json::json_pointer at(pointer);
  if (!request.contains(at)) return std::nullopt;
  const auto& value = request[at];
  if (!value.is_string() || !values.contains(value.get<std::string>())) {
    std::string list;
    for (const auto& v : values) list += (list.empty() ? "" : ", ") + v;
    return pointer + ": must be one of " + list;
  }
  return std::nullopt;
}

Problem string_map(const json& request, const std::string& pointer) {
  const json::json_pointer at(pointer);
  if (!request.contains(at)) return std::nullopt;
  const auto& value = request[at];
  bool ok = value.is_object() && value.size() <= 16;
  for (const auto& [key, item] : value.items()) ok = ok && item.is_string();
  if (!ok) return pointer + ": must be an object of at most 16 string values";
  return std::nullopt;
}

Problem string_at(const json& request, const std::string& pointer) {
  const json::json_pointer at(pointer);
  if (!request.contains(at) || request[at].is_string()) return std::nullopt;
  return pointer + ": must be a string";
}

// A member the API does not take: refused, as OpenAI ("Unknown parameter") and Anthropic ("Extra
// inputs are not permitted") refuse them.
Problem absent(const json& request, const std::string& member) {
  if (!request.contains(member)) return std::nullopt;
  return member + ": Extra inputs are not permitted (unknown parameter)";
}

// Anthropic's extended thinking: {"type": "enabled", "budget_tokens" >= 1024 and < max_tokens}.
Problem thinking_block(const json& request, const std::string& pointer, const json& max_tokens) {
  const json::json_pointer at(pointer);
  if (!request.contains(at)) return std::nullopt;
  const auto& thinking = request[at];
  const auto budget = thinking.is_object() ? thinking.value("budget_tokens", json()) : json();
  if (!thinking.is_object() || thinking.value("type", "") != "enabled" ||
      !budget.is_number_integer() || budget.get<std::int64_t>() < 1024) {
    return pointer + ": must be {\"type\": \"enabled\", \"budget_tokens\": >= 1024}";
  }
  if (max_tokens.is_number_integer() &&
      budget.get<std::int64_t>() >= max_tokens.get<std::int64_t>())
    return pointer + ".budget_tokens: must be less than max_tokens";
  return std::nullopt;
}

// cache_control on Anthropic's system blocks, tools and message blocks only: {"type":
// "ephemeral"} (a ttl of "5m" or "1h" allowed), at most 4 in a request.
Problem cache_marks(const json& request) {
  int marks = 0;
  std::optional<std::string> problem;
  const auto check = [&](const json& block, const std::string& where) {
    if (!block.is_object() || !block.contains("cache_control")) return;
    ++marks;
    const auto& mark = block["cache_control"];
    const bool ok = mark.is_object() && mark.value("type", "") == "ephemeral" &&
                    (!mark.contains("ttl") || mark["ttl"] == "5m" || mark["ttl"] == "1h");
    if (!ok && !problem) problem = where + ".cache_control: must be {\"type\": \"ephemeral\"}";
  };
  if (request.contains("cache_control")) return "cache_control: not a top-level member";
  if (const auto system = request.find("system"); system != request.end() && system->is_array()) {
    for (const auto& block : *system) check(block, "system[]");
  }
  if (const auto tools = request.find("tools"); tools != request.end() && tools->is_array()) {
    for (const auto& tool : *tools) check(tool, "tools[]");
  }
  if (const auto messages = request.find("messages"); messages != request.end()) {
    for (const auto& message : *messages) {
      if (!message.is_object()) continue;
      if (message.contains("cache_control")) return "messages[].cache_control: goes on a block";
      const auto content = message.find("content");
      if (content == message.end() || !content->is_array()) continue;
      for (const auto& block : *content) check(block, "messages[].content[]");
    }
  }
  if (problem) return problem;
  if (marks > 4)
    return "A maximum of 4 blocks with cache_control may be provided. Found " +
           std::to_string(marks) + ".";
  return std::nullopt;
}

// Bedrock's cachePoint blocks: {"cachePoint": {"type": "default"}} and nothing beside it.
Problem cache_points(const json& request) {
  std::optional<std::string> problem;
  const auto check = [&](const json& blocks, const std::string& where) {
    if (!blocks.is_array()) return;
    for (const auto& block : blocks) {
      if (!block.is_object() || !block.contains("cachePoint") || problem) continue;
      if (block.size() != 1 || block["cachePoint"] != json{{"type", "default"}})
        problem = where + ".cachePoint: must be a block of its own, {\"type\": \"default\"}";
    }
  };
  check(request.value("system", json()), "system[]");
  if (request.contains(json::json_pointer("/toolConfig/tools")))
    check(request[json::json_pointer("/toolConfig/tools")], "toolConfig.tools[]");
  for (const auto& message : request.value("messages", json::array())) {
    if (message.is_object()) check(message.value("content", json()), "messages[].content[]");
  }
  return problem;
}

// The first of an API's checks that found a problem.
Problem first_problem(std::initializer_list<Problem> problems) {
  for (const auto& problem : problems) {
    if (problem) return problem;
  }
  return std::nullopt;
}

const std::set<std::string> kReasoningEfforts = {"none",   "minimal", "low",
                                                 "medium", "high",    "xhigh"};
const std::set<std::string> kServiceTiers = {"auto", "default", "flex", "scale", "priority"};

Problem chat_parameters(const json& r) {
  return first_problem({number_in(r, "/temperature", 0, 2), number_in(r, "/top_p", 0, 1),
                        integer(r, "/seed"), integer(r, "/random_seed"), strings(r, "/stop", 4),
                        one_of(r, "/reasoning_effort", kReasoningEfforts),
                        one_of(r, "/service_tier", kServiceTiers), string_at(r, "/user"),
                        string_map(r, "/metadata")});
}

Problem responses_parameters(const json& r) {
  return first_problem({number_in(r, "/temperature", 0, 2), number_in(r, "/top_p", 0, 1),
                        absent(r, "seed"), absent(r, "stop"), absent(r, "reasoning_effort"),
                        one_of(r, "/reasoning/effort", kReasoningEfforts),
                        one_of(r, "/service_tier", kServiceTiers), string_at(r, "/user"),
                        string_map(r, "/metadata")});
}

Problem messages_parameters(const json& r) {
  if (const auto metadata = r.find("metadata"); metadata != r.end()) {
    if (!metadata->is_object() || metadata->size() != 1 || !metadata->contains("user_id") ||
        !(*metadata)["user_id"].is_string())
      return std::string("metadata: only {\"user_id\": string} is taken");
  }
  return first_problem({number_in(r, "/temperature", 0, 1), number_in(r, "/top_p", 0, 1),
                        absent(r, "seed"), absent(r, "stop"), absent(r, "reasoning_effort"),
                        absent(r, "user"), strings(r, "/stop_sequences", 8191),
                        thinking_block(r, "/thinking", r.value("max_tokens", json())),
                        one_of(r, "/service_tier", {"auto", "standard_only"}), cache_marks(r)});
}

Problem gemini_parameters(const json& r) {
  return first_problem(
      {number_in(r, "/generationConfig/temperature", 0, 2),
       number_in(r, "/generationConfig/topP", 0, 1), integer(r, "/generationConfig/seed"),
       strings(r, "/generationConfig/stopSequences", 5),
       integer(r, "/generationConfig/thinkingConfig/thinkingBudget"),
       one_of(r, "/generationConfig/thinkingConfig/thinkingLevel", {"low", "medium", "high"}),
       absent(r, "temperature"), absent(r, "seed")});
}

Problem converse_parameters(const json& r) {
  return first_problem(
      {number_in(r, "/inferenceConfig/temperature", 0, 1),
       number_in(r, "/inferenceConfig/topP", 0, 1), strings(r, "/inferenceConfig/stopSequences", 4),
       thinking_block(r, "/additionalModelRequestFields/thinking",
                      r.contains(json::json_pointer("/inferenceConfig/maxTokens"))
                          ? r[json::json_pointer("/inferenceConfig/maxTokens")]
                          : json()),
       string_map(r, "/requestMetadata"), absent(r, "temperature"), cache_points(r)});
}

Problem ollama_parameters(const json& r) {
  if (const auto think = r.find("think"); think != r.end() && !think->is_boolean()) {
    if (auto problem = one_of(r, "/think", {"low", "medium", "high"})) return problem;
  }
  return first_problem({number_in(r, "/options/temperature", 0, 2),
                        number_in(r, "/options/top_p", 0, 1), integer(r, "/options/seed"),
                        strings(r, "/options/stop", 64)});
}

}  // namespace

std::optional<std::string> refused_parameters(Endpoint endpoint, const json& request) {
  switch (endpoint) {
    case Endpoint::chat_completions:
    case Endpoint::azure_chat_completions:
      return chat_parameters(request);
    case Endpoint::responses:
      return responses_parameters(request);
    case Endpoint::messages:
      return messages_parameters(request);
    case Endpoint::gemini:
      return gemini_parameters(request);
    case Endpoint::converse:
      return converse_parameters(request);
    case Endpoint::ollama_chat:
      return ollama_parameters(request);
  }
  return std::nullopt;
}

}  // namespace accord_mock
