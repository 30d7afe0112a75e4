#pragma once
// What the extraction loop may spend after a reply that is not yet the answer: how a correction
// is asked for, the token budget over every attempt, and what it does with a truncated reply.
// docs/loop.md shows each one at work with a trace.

#include <cstdint>

namespace accord {

// Every corrective request, scoped or whole, is one of the call's `corrections`
// (ClientOptions::corrections, ExtractRequest::corrections): with 1, a scoped correction whose
// answer does not validate ends the call, and its whole fallback needs 2. A call sends at most
// corrections + 1 requests, not counting truncation recovery's.
enum class CorrectionStyle {
  // Only the failing values are asked for (a JSON object of dotted path -> value, each value held
  // to its own sub-schema), merged into the previous object and the whole re-validated; when the
  // merge does not validate, or the reply is not a usable patch, the same correction is sent
  // whole if a correction is left. Failures at the root, a reply that did not parse, a failing
  // value reached through a map sent as a list of entries, or failing parts that make up most of
  // the object are corrected whole from the start. A stream stopped early is scoped to its
  // failing part and the members not written yet (an open list or map whole).
  scoped,
  // The whole object again: the model's reply echoed back with every issue.
  whole_object,
};

struct CorrectionPolicy {
  CorrectionStyle style = CorrectionStyle::scoped;
  // Scoping is skipped when the failing parts (their current values and sub-schemas) weigh more
  // than this share of the whole object and its schema: asking for them would cost about as much
  // as asking for everything, with a worse view of the whole.
  double max_scoped_share = 0.5;
};

// Input + output tokens over every attempt of one call, as each provider reports them. A
// follow-up (correction, continuation, raised-cap retry) is sent only while the tokens spent
// plus its input (estimated from the previous request's tokens per byte) stay under the cap, and
// its output cap is lowered to what is left; a call stopped by it ends as
// ErrorKind::budget_exhausted. The first request is always sent.
struct TokenBudget {
  std::int64_t max_tokens = 0;  // 0: no cap (corrections are still bounded by their count)
};

// A reply cut at the output-token limit (`length`, `max_tokens`, `max_output_tokens`) is never
// answered with "fix your JSON": its output is continued where the provider allows it (Anthropic
// structured output: the partial text sent back as the last assistant turn, the continuation
// joined to it), otherwise the request is retried once with a higher output cap. When recovery
// fails the call ends as ErrorKind::truncated with every partial text in the Trace.
struct TruncationRecovery {
  bool enabled = true;
  int max_continuations = 2;  // continuation requests per truncated reply
  // The raised cap of the one retry; 0: four times the client's max_tokens.
  int raised_max_tokens = 0;
};

}  // namespace accord
