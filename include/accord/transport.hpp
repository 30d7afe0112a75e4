#pragma once
// HTTP for provider calls: one POST per attempt (a batch job also GETs) through a Transport, and
// transport retries (429, 5xx, dropped connections) kept apart from the loop's corrective retries.

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace accord {

using Headers = std::vector<std::pair<std::string, std::string>>;

// Takes a response body as it arrives (a streamed reply). One reader serves every try of a
// request: begin() starts each try afresh. Called on the thread running the transfer.
class BodyReader {
 public:
  virtual ~BodyReader() = default;
  virtual void begin() = 0;
  // The next bytes of a 2xx body (a failure's body is only collected). false stops the transfer,
  // which then ends with the response read so far, not with an error.
  virtual bool read(std::string_view bytes) = 0;
};

struct HttpRequest {
  std::string url;
  Headers headers;  // may carry credentials: never log them; see redacted_headers()
  std::string body;
  // This try's time limit when shorter than TransportOptions::total_timeout (what is left of a
  // call's deadline); 0: the transport's own limit. CurlTransport honours it.
  std::chrono::milliseconds timeout{0};
  // "POST" (every provider call) or "GET" (a batch job's status and results), which sends no body.
  std::string method = "POST";
  // Streamed replies: the body is also handed to this reader as it arrives. CurlTransport honours
  // it; a transport that does not still fills HttpResponse::body.
  std::shared_ptr<BodyReader> body_reader;
};

struct HttpResponse {
  long status = 0;
  Headers headers;  // names lower-cased
  std::string body;
  [[nodiscard]] std::optional<std::string> header(std::string_view name) const;
};

// `cancelled`: the caller cancelled the call (or its client shut down) before the try ended.
enum class TransportFailure { connect, timeout, dropped, too_large, tls, cancelled, other };
[[nodiscard]] std::string_view to_string(TransportFailure failure);

struct TransportError {
  TransportFailure failure = TransportFailure::other;
  std::string message;  // never contains credentials
};

// Exactly one of response / error is set.
struct TransportResult {
  std::optional<HttpResponse> response;
  std::optional<TransportError> error;
  std::chrono::milliseconds elapsed{0};
};

struct TransportOptions {
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds total_timeout{120'000};
  std::size_t max_response_bytes = 16 * 1024 * 1024;  // a bigger body is a too_large error
  std::string ca_bundle;                        // PEM file for corporate proxies; empty: system
  bool insecure_skip_tls_verification = false;  // never on by default; named to be noticed
  // A streamed reply (HttpRequest::body_reader) that sends no byte for this long ends as a
  // timeout: a stall mid-stream never hangs until total_timeout. Whole seconds (curl's unit),
  // rounded up; 0: only total_timeout.
  std::chrono::milliseconds stream_stall_timeout{30'000};
};

// One try started without waiting for it (Transport::post_async).
struct AsyncPost {
  HttpRequest request;
  std::chrono::milliseconds delay{0};  // start this long from now (a transport retry's backoff)
  // Once set, the try ends soon with TransportFailure::cancelled.
  std::shared_ptr<const std::atomic<bool>> cancelled;
  std::function<void(TransportResult)> done;  // called exactly once
};

class Transport {
 public:
  virtual ~Transport() = default;
  // One attempt, no retries. Must be safe to call from several threads at once.
  [[nodiscard]] virtual TransportResult post(const HttpRequest& request) = 0;
  // One attempt, its result handed to `post.done`, possibly on another thread. This default
  // waits and posts in the calling thread; CurlTransport runs thousands at once on one thread.
  virtual void post_async(AsyncPost post);
};

// libcurl: a pool of easy handles, so connections are kept alive and reused across calls and
// threads; proxy variables (https_proxy, no_proxy, ...) honoured as curl does.
class CurlTransport final : public Transport {
 public:
  explicit CurlTransport(TransportOptions options = {});
  ~CurlTransport() override;
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;
  [[nodiscard]] TransportResult post(const HttpRequest& request) override;
  // On curl multi handles driven by two threads of this transport's own (started on first use);
  // `done` runs on one of them, so it must not block.
  void post_async(AsyncPost post) override;

 private:
  struct Pool;
  class Multi;
  std::unique_ptr<Pool> pool_;
  std::once_flag multi_started_;
  std::shared_ptr<Multi> multi_;
};

struct RetryPolicy {
  int max_retries = 2;
  std::chrono::milliseconds initial_backoff{500};
  std::chrono::milliseconds max_backoff{8'000};
  double jitter = 0.25;                               // up to this fraction is taken off each wait
  std::chrono::milliseconds max_retry_after{60'000};  // longer server-asked waits are not honoured
};

// Why a result is (not) retried; `wait` is how long before the next attempt.
struct RetryDecision {
  bool retry = false;
  std::chrono::milliseconds wait{0};
  std::string reason;  // "429 with retry-after: 2", "insufficient_quota is not retried", ...
};

// 408, 409, 429, 5xx (529 included) and connection failures are retried; `x-should-retry`
// overrides for failures (a 2xx is a billed answer and is never retried); OpenAI's
// `insufficient_quota` never is. Waits honour retry-after-ms, then retry-after (seconds or an HTTP
// date), else exponential backoff with jitter.
[[nodiscard]] RetryDecision decide_retry(const TransportResult& result, int retries_done,
                                         const RetryPolicy& policy);

struct Delivery {
  std::vector<TransportResult> tries;    // every try, in order; the last one is the outcome
  std::vector<RetryDecision> decisions;  // one per try
  [[nodiscard]] const TransportResult& last() const { return tries.back(); }
};

using Sleeper = std::function<void(std::chrono::milliseconds)>;
using Deadline = std::chrono::steady_clock::time_point;

// One request's transport retries as steps, so deliver() and an asynchronous caller follow the
// same rules: next_try() gives the request to send (its timeout cut to what is left of the
// deadline after `wait`), or nullopt, recorded as a timeout, when the deadline leaves no room;
// record() takes the try's result and says whether to try again and after what wait.
class DeliverySteps {
 public:
  DeliverySteps(HttpRequest request, const RetryPolicy& policy, Deadline deadline);
  [[nodiscard]] std::optional<HttpRequest> next_try(std::chrono::milliseconds wait = {});
  const RetryDecision& record(TransportResult result);
  [[nodiscard]] Delivery take() { return std::move(delivery_); }

 private:
  HttpRequest request_;
  RetryPolicy policy_;
  Deadline deadline_;
  Delivery delivery_;
};

// Sends with transport retries. `sleep` defaults to std::this_thread::sleep_for. Every try and
// wait fits before `deadline`: each try gets what is left as its timeout, a retry whose wait would
// end past it is not made, and a deadline already passed is a timeout without a request.
[[nodiscard]] Delivery deliver(Transport& transport, const HttpRequest& request,
                               const RetryPolicy& policy, const Sleeper& sleep = {},
                               Deadline deadline = Deadline::max());

// Header list with credential values (authorization, x-api-key, api-key, cookies, and any name
// containing "key", "token" or "secret") replaced by "[redacted]".
[[nodiscard]] Headers redacted_headers(const Headers& headers);

}  // namespace accord
