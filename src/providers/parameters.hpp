#pragma once
// The parameters step of every codec: each RequestParameters field at the place the provider's
// request body takes it, then the extra headers, then the extra body merged last.

#include "providers/wire.hpp"

namespace accord::detail {

// How a thinking budget is written at its place.
enum class ThinkingShape {
  number,         // the budget itself (Gemini's thinkingBudget)
  enabled_block,  // {"type": "enabled", "budget_tokens": N} (Anthropic, Bedrock's Claude)
};

// Where a provider's body takes each parameter, as a JSON pointer; nullptr: not taken, and a
// call that sets it is refused before anything is sent.
struct ParameterPlaces {
  const char* temperature = nullptr;
  const char* top_p = nullptr;
  const char* seed = nullptr;
  const char* stop = nullptr;
  const char* reasoning_effort = nullptr;
  const char* thinking_budget = nullptr;
  ThinkingShape thinking = ThinkingShape::number;
  const char* service_tier = nullptr;
  const char* user = nullptr;
  const char* metadata = nullptr;
  // Whether the codec marks cache points itself (mark them before this step).
  bool prompt_cache = false;
};

// The message of `messages` (role and content, as Anthropic and Bedrock take them) a prompt-cache
// point closes: the first user message, the text to extract from, which every correction (whole:
// after the reply; scoped: right after it) keeps and so reads back from the cache. nullopt: none.
[[nodiscard]] std::optional<std::size_t> cached_message(const ojson& messages);

// Puts what `call.parameters` sets into `body` at `places`, adds the extra headers to `headers`
// and merges the extra body into `body`. Throws std::invalid_argument, naming the parameter and
// `provider`, for a parameter the provider does not take, an extra header that would replace the
// request's credentials, or an extra body that is not an object.
void apply_parameters(ojson& body, Headers& headers, const CallSpec& call,
                      const ParameterPlaces& places, std::string_view provider);

}  // namespace accord::detail
