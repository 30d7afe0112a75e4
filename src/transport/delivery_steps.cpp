#include "transport/delivery_steps.hpp"

#include <algorithm>
#include <thread>

#include "transport/retry_reason.hpp"

namespace accord {

using std::chrono::milliseconds;

namespace {

milliseconds left_until(Deadline deadline) {
  if (deadline == Deadline::max()) return milliseconds::max();
  return std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now());
}

}  // namespace

DeliverySteps::DeliverySteps(HttpRequest request, const RetryPolicy& policy, Deadline deadline,
                             RetryObserver on_retry)
    : request_(std::move(request)),
      timeout_(request_.timeout),
      policy_(policy),
      deadline_(deadline),
      on_retry_(std::move(on_retry)) {}

const HttpRequest* DeliverySteps::next_request(milliseconds wait) {
  const milliseconds left = left_until(deadline_);
  if (left != milliseconds::max() && left <= wait) {
    delivery_.tries.push_back(TransportResult{
        std::nullopt, TransportError{TransportFailure::timeout, "the call's deadline passed"},
        milliseconds{0}});
    delivery_.decisions.push_back(detail::not_retried("timeout", "the call's deadline passed"));
    return nullptr;
  }
  request_.timeout = timeout_;
  if (left != milliseconds::max()) {
    const milliseconds after_wait = left - wait;
    request_.timeout = timeout_.count() == 0 ? after_wait : std::min(after_wait, timeout_);
  }
  return &request_;
}

std::optional<HttpRequest> DeliverySteps::next_try(milliseconds wait) {
  const HttpRequest* request = next_request(wait);
  if (request == nullptr) return std::nullopt;
  return *request;
}

const RetryDecision& DeliverySteps::record(TransportResult result) {
  const int retries_done = static_cast<int>(delivery_.tries.size());
  delivery_.tries.push_back(std::move(result));
  delivery_.decisions.push_back(decide_retry(delivery_.tries.back(), retries_done, policy_));
  RetryDecision& decision = delivery_.decisions.back();
  if (decision.retry && decision.wait >= left_until(deadline_)) {
    decision = detail::not_retried(detail::describe_result(delivery_.tries.back()),
                                   "the call's deadline comes first");
  }
  if (decision.retry && on_retry_)
    on_retry_(delivery_.tries.back(), decision, delivery_.tries.size() + 1);
  return decision;
}

Delivery deliver_all(Transport& transport, DeliverySteps steps, const Sleeper& sleep) {
  for (const auto* next = steps.next_request(); next; next = steps.next_request()) {
    const RetryDecision& decision = steps.record(transport.post(*next));
    if (!decision.retry) break;
    if (sleep) {
      sleep(decision.wait);
    } else {
      std::this_thread::sleep_for(decision.wait);
    }
  }
  return steps.take();
}

}  // namespace accord
