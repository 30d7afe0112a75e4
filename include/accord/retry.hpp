#pragma once
// Transport retries (429, 5xx, dropped connections), kept apart from the loop's corrective
// retries: which results are tried again, after what wait, and the sending loop under a deadline.

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "accord/http.hpp"
#include "accord/transport.hpp"

namespace accord {

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
// Told of each retry before its wait: the try that failed, the decision, and the number of the
// try to come (2 for the first retry). ClientOptions::hooks hear of retries through it.
using RetryObserver = std::function<void(const TransportResult& failed,
                                         const RetryDecision& decision, std::size_t next_try)>;
using Deadline = std::chrono::steady_clock::time_point;

// Sends with transport retries. `sleep` defaults to std::this_thread::sleep_for. Every try and
// wait fits before `deadline`: each try gets what is left as its timeout, a retry whose wait would
// end past it is not made, and a deadline already passed is a timeout without a request.
[[nodiscard]] Delivery deliver(Transport& transport, const HttpRequest& request,
                               const RetryPolicy& policy, const Sleeper& sleep = {},
                               Deadline deadline = Deadline::max(),
                               const RetryObserver& on_retry = {});

}  // namespace accord
