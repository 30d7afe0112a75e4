#pragma once
// Streamed replies: the output read as the provider sends it (server-sent events), each part
// validated against the original rules the moment it closes. The verdict on the whole reply is
// the same as without streaming; streaming adds partial values and, if asked, an early stop.

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>

#include "accord/path.hpp"

namespace accord {

struct StreamOptions {
  // Ask for a streamed reply (openai-chat, openai-responses, anthropic and generic all stream).
  bool enabled = false;
  // Stop reading when a part that has closed already breaks a rule, and send the correction at
  // once: the tokens of the rest are not paid for. A part is judged early only when its rules do
  // not depend on the rest of the value (no union, allOf or conditional on the way to it), so an
  // early stop never rejects a reply the whole-value validation would accept; the correction
  // names the issues found so far. Off by default: a correction then sees every issue at once.
  bool stop_at_first_issue = false;
  // The event stream's bytes, framing included, before the attempt ends as a bad reply: a bound
  // on a hostile stream. The output itself (the joined text) counts against
  // TransportOptions::max_response_bytes, as a reply read whole does; the framing around a
  // token-sized delta is 40-60 times its text, so this bound is much larger.
  std::size_t max_stream_bytes = 128 * 1024 * 1024;
};

// A part of the output that has just closed (a scalar, or an object or array whose bracket just
// arrived), in the shape the provider writes it: before a Contract's lowering is undone (an
// optional field may be null, a non-object root sits under "value"; see Lowering).
struct PartialValue {
  const Path& path;              // where the part sits in the output
  const nlohmann::json& part;    // the part
  const nlohmann::json& so_far;  // the whole output read so far: closed parts in open containers
  std::size_t attempt = 1;       // 1 for the first request, 2 for the first correction, ...
};

// Called on the thread that reads the reply (the transport's own for extract_async), as parts
// close; it must not block for long or throw (a throw stops the stream and the attempt ends as a
// bad reply naming it). A dropped connection that is retried starts its values again.
using PartialValueCallback = std::function<void(const PartialValue&)>;

}  // namespace accord
