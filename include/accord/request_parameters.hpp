#pragma once
// What a request asks of the model beyond the conversation and the schema: sampling, reasoning,
// service tier, who the end user is, prompt caching, and the raw escape hatches (extra headers,
// an extra body merged last). Set per client (ClientOptions::parameters) and per call
// (ExtractRequest::parameters); docs/configuration.md#request-parameters has the table of which
// provider takes which.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "accord/http.hpp"

namespace accord {

struct RequestParameters {
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<std::int64_t> seed;
  std::optional<std::vector<std::string>> stop;  // stop sequences
  // "low", "medium", "high" (or what the provider names): OpenAI's reasoning effort, Ollama's
  // `think` level.
  std::optional<std::string> reasoning_effort;
  // Tokens the model may think for: Anthropic's (and Bedrock's Claude) `thinking` budget,
  // Gemini's thinkingBudget.
  std::optional<std::int64_t> thinking_budget;
  std::optional<std::string> service_tier;  // "auto", "default", "flex", "priority", ...
  std::optional<std::string> user;          // an id for the end user (abuse monitoring)
  std::optional<std::map<std::string, std::string>> metadata;  // string tags on the request
  // Cache points on the system prompt, the tools and the caller's own turns (Anthropic's
  // `cache_control`, Bedrock's `cachePoint`); other providers cache on their own and refuse it.
  std::optional<bool> prompt_cache;
  // Sent with the request; one the provider's request already has is replaced, but one that
  // carries credentials (Authorization, x-api-key, ...) is refused. Never recorded in the Trace.
  Headers extra_headers;
  // An RFC 7386 JSON merge patch applied to the encoded body last: members are added or
  // replaced, a null removes one. Null: nothing.
  nlohmann::json extra_body;

  friend bool operator==(const RequestParameters&, const RequestParameters&) = default;
};

// `call` over `client`, field by field: a field `call` sets wins; extra headers of the same name
// are the call's; the extra bodies compose as the client's patch then the call's.
[[nodiscard]] RequestParameters merged(const RequestParameters& client,
                                       const RequestParameters& call);

// The parameters' names as the table and the errors spell them, in the order of the fields.
[[nodiscard]] std::vector<std::string> parameter_names();
// Which of parameter_names() the provider takes (the extra headers and body go to every
// provider); empty for an unknown provider.
[[nodiscard]] std::vector<std::string> parameters_taken(std::string_view provider);

}  // namespace accord
