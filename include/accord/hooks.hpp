#pragma once
// Seeing each call as it happens: callbacks on the extraction loop's events, for logs, metrics
// and traces (accord/telemetry.hpp builds OpenTelemetry spans on them). Every event is a copy
// made for the hook, with the client's key taken out; a hook that throws is caught and counted
// (Client::hook_exceptions), and the call goes on as if it had returned.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "accord/error.hpp"
#include "accord/issue.hpp"
#include "accord/repair.hpp"
#include "accord/reply.hpp"
#include "accord/trace.hpp"

namespace accord {

// Which call an event belongs to: calls in flight at once (extract_async, batches) interleave.
// After a fallback (docs/loop.md#fallbacks) the provider, model and server are the fallback's;
// the id stays the call's.
struct CallIdentity {
  std::uint64_t id = 0;  // unique within the process, in the order calls started
  std::string provider;  // accord's name: "openai-chat", "anthropic", ...
  std::string system;    // the provider's OpenTelemetry gen_ai.provider.name: "openai", ...
  std::string model;     // as requested
  std::string schema;    // the schema's name on the wire
  std::string server;    // the host the requests go to
  int port = 0;          // and its port
};

// The loop hands a request over to be sent (the first, a correction, a continuation...).
struct RequestSent {
  CallIdentity call;
  std::size_t attempt = 0;  // 1 for the first request of the call
  AttemptRole role = AttemptRole::first;
  int max_tokens = 0;  // the output cap this request asks for
  bool streamed = false;
  // The sampling the request asks for, when the call or the client sets it (the OpenTelemetry
  // gen_ai.request.temperature, top_p and seed).
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<std::int64_t> seed;
};

// A reply is in (after the transport's retries), before it is judged.
struct ReplyReceived {
  CallIdentity call;
  std::size_t attempt = 0;
  AttemptRole role = AttemptRole::first;
  long http_status = 0;  // 0 when no reply arrived
  ReplyStatus status = ReplyStatus::bad_reply;
  Usage usage;
  std::chrono::milliseconds latency{0};  // every transport try of this attempt
  std::size_t transport_tries = 0;
};

// The reply was judged invalid: its issues (as a correction would quote them) and the repairs
// tried first.
struct IssuesFound {
  CallIdentity call;
  std::size_t attempt = 0;
  Issues issues;
  Repairs repairs;
};

// The transport will try the same request again after `wait` (429, 5xx, a dropped connection).
struct RetryScheduled {
  CallIdentity call;
  std::size_t attempt = 0;
  std::size_t next_try = 0;  // 2 for the first retry
  long http_status = 0;      // of the try that failed; 0 when none arrived
  std::chrono::milliseconds wait{0};
  std::string reason;  // "503", "connection refused", ...
};

// The call is over, with a value or an error.
struct CallFinished {
  CallIdentity call;
  std::optional<ErrorKind> error;  // none: the value was valid
  std::size_t attempts = 0;
  Usage usage;  // summed over the attempts
  std::chrono::milliseconds elapsed{0};
};

// ClientOptions::hooks. Each may be empty. They run on the thread that drives the call (the
// caller's for extract(), the transport's for extract_async): keep them short, and lock what
// they share.
struct Hooks {
  std::function<void(const RequestSent&)> on_request_sent;
  std::function<void(const ReplyReceived&)> on_reply_received;
  std::function<void(const IssuesFound&)> on_issues_found;
  // A corrective request (scoped or whole) is about to be sent; on_request_sent follows.
  std::function<void(const RequestSent&)> on_correction_sent;
  std::function<void(const RetryScheduled&)> on_retry_scheduled;
  std::function<void(const CallFinished&)> on_call_finished;
};

}  // namespace accord
