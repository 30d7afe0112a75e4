#pragma once
// Prompt caching as Anthropic and Bedrock report it: a request whose marked prefix (up to its
// last cache_control or cachePoint) was seen before reads it from the cache, one not seen writes
// it; the reply's usage says how many input tokens each was.

#include <mutex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "render.hpp"
#include "scenario.hpp"

namespace accord_mock {

class PromptCache {
 public:
  // `reply` with cache usage for `request` merged under the scenario's own usage (which wins);
  // unchanged for other endpoints and requests without a mark.
  [[nodiscard]] Reply with_cache_usage(Endpoint endpoint, const nlohmann::json& request,
                                       std::size_t request_bytes, Reply reply);

 private:
  std::mutex mutex_;
  std::set<std::string> prefixes_;
};

}  // namespace accord_mock
