#pragma once
// One request's transport retries as steps, so deliver() and Client::extract_async follow the
// same rules without one of them blocking a thread.

#include <chrono>
#include <optional>
#include <utility>

#include "accord/http.hpp"
#include "accord/retry.hpp"
#include "accord/transport.hpp"

namespace accord {

// next_request() gives the request to send (its timeout cut to what is left of the deadline after
// `wait`), or null, recorded as a timeout, when the deadline leaves no room; next_try() gives a
// copy of it, since Transport::post_async owns its request while the steps keep theirs for the
// tries after it; record() takes the try's result and says whether to try again and after what
// wait.
class DeliverySteps {
 public:
  DeliverySteps(HttpRequest request, const RetryPolicy& policy, Deadline deadline,
                RetryObserver on_retry = {});
  // Valid until the next call of next_request() or next_try().
  [[nodiscard]] const HttpRequest* next_request(std::chrono::milliseconds wait = {});
  [[nodiscard]] std::optional<HttpRequest> next_try(std::chrono::milliseconds wait = {});
  const RetryDecision& record(TransportResult result);
  [[nodiscard]] Delivery take() { return std::move(delivery_); }

 private:
  HttpRequest request_;                // its timeout is the next try's
  std::chrono::milliseconds timeout_;  // the request's own
  RetryPolicy policy_;
  Deadline deadline_;
  RetryObserver on_retry_;
  Delivery delivery_;
};

// deliver()'s tries, from steps made by the caller: one that is done with its request moves it in,
// and no try copies it. `sleep` as deliver()'s.
[[nodiscard]] Delivery deliver_all(Transport& transport, DeliverySteps steps, const Sleeper& sleep);

}  // namespace accord
