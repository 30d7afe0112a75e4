#include "prompt_cache.hpp"

#include <algorithm>
#include <optional>

namespace accord_mock {
namespace {

using nlohmann::json;

bool marked(const json& block, const char* mark) {
  return block.is_object() && block.contains(mark);
}

bool any_marked(const json& blocks, const char* mark) {
  return blocks.is_array() && std::any_of(blocks.begin(), blocks.end(),
                                          [&](const json& block) { return marked(block, mark); });
}

// The request up to its last mark (tools, then system, then messages: the order the APIs cache
// in), or nullopt when nothing is marked.
std::optional<json> cached_prefix(const json& request, const char* mark, const json& tools) {
  json prefix = {{"model", request.value("model", json())}, {"tools", tools}};
  const json system = request.value("system", json());
  bool any = any_marked(tools, mark) || any_marked(system, mark);
  prefix["system"] = system;
  json messages = json::array();
  const json all = request.value("messages", json::array());
  std::size_t last = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].is_object() && any_marked(all[i].value("content", json()), mark)) last = i + 1;
  }
  if (last == 0 && !any) return std::nullopt;
  for (std::size_t i = 0; i < last; ++i) messages.push_back(all[i]);
  if (last > 0) {
    // The marked message only up to its last mark: what follows it is not cached.
    auto& content = messages.back()["content"];
    std::size_t end = 0;
    for (std::size_t i = 0; i < content.size(); ++i) {
      if (marked(content[i], mark)) end = i + 1;
    }
    content.erase(content.begin() + static_cast<std::ptrdiff_t>(end), content.end());
  }
  prefix["messages"] = std::move(messages);
  return prefix;
}

}  // namespace

Reply PromptCache::with_cache_usage(Endpoint endpoint, const json& request,
                                    std::size_t request_bytes, Reply reply) {
  const bool anthropic = endpoint == Endpoint::messages;
  if (!anthropic && endpoint != Endpoint::converse) return reply;
  const json tools = anthropic ? request.value("tools", json())
                     : request.contains(json::json_pointer("/toolConfig/tools"))
                         ? request[json::json_pointer("/toolConfig/tools")]
                         : json();
  const auto prefix = cached_prefix(request, anthropic ? "cache_control" : "cachePoint", tools);
  if (!prefix) return reply;
  const std::string text = prefix->dump();
  bool seen = false;
  {
    std::lock_guard lock(mutex_);
    seen = !prefixes_.insert(text).second;
  }
  const auto cached = tokens_for(text.size());
  const auto rest = std::max<std::int64_t>(tokens_for(request_bytes) - cached, 1);
  json usage =
      anthropic ? json{{"input_tokens", rest},
                       {seen ? "cache_read_input_tokens" : "cache_creation_input_tokens", cached}}
                : json{{"inputTokens", rest},
                       {seen ? "cacheReadInputTokens" : "cacheWriteInputTokens", cached}};
  if (reply.usage.is_object()) usage.merge_patch(reply.usage);
  reply.usage = std::move(usage);
  return reply;
}

}  // namespace accord_mock
