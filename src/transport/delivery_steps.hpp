#pragma once
// One request's transport retries as steps, so deliver() and Client::extract_async follow the
// same rules without one of them blocking a thread.

#include <chrono>
#include <optional>
#include <utility>

#include "accord/http.hpp"
#include "accord/retry.hpp"

namespace accord {

// next_try() gives the request to send (its timeout cut to what is left of the deadline after
// `wait`), or nullopt, recorded as a timeout, when the deadline leaves no room; record() takes
// the try's result and says whether to try again and after what wait.
class DeliverySteps {
 public:
  DeliverySteps(HttpRequest request, const RetryPolicy& policy, Deadline deadline,
                RetryObserver on_retry = {});
  [[nodiscard]] std::optional<HttpRequest> next_try(std::chrono::milliseconds wait = {});
  const RetryDecision& record(TransportResult result);
  [[nodiscard]] Delivery take() { return std::move(delivery_); }

 private:
  HttpRequest request_;
  RetryPolicy policy_;
  Deadline deadline_;
  RetryObserver on_retry_;
  Delivery delivery_;
};

}  // namespace accord
