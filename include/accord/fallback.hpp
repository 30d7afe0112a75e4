#pragma once
// Fallbacks: other providers (or models, or endpoints) a call moves on to when the one it is
// using is unavailable or refuses (docs/loop.md#fallbacks). Each gets its own Contract, lowered
// for it, and its own corrections; the Trace keeps every attempt of every one tried.

#include <string>
#include <vector>

namespace accord {

// One provider to try after those before it.
struct Fallback {
  std::string provider;  // accord's name: "anthropic", "gemini", ...
  std::string model;     // empty: the provider profile's default
  std::string base_url;  // empty: the provider's base-URL variable, else its public endpoint
  std::string api_key;   // empty: the provider's key variable
};

// What moves a call on to its next fallback. It is judged on the attempt that ended the
// provider's turn, after the transport's own retries (ClientOptions::retry): a 503 retried
// three times falls back once, at the end.
struct FallbackPolicy {
  // HTTP statuses that mean "not available now", rate limits and quotas included.
  std::vector<long> statuses{408, 429, 500, 502, 503, 504, 529};
  // No HTTP answer at all: connection refused, a timeout, a reset.
  bool on_transport_failure = true;
  // The model declined (ReplyStatus::refusal): another model may answer.
  bool on_refusal = true;
};

}  // namespace accord
