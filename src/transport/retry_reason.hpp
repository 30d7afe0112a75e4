#pragma once
// How a retry decision words what happened, shared by decide_retry and DeliverySteps so every
// reason in a transport log reads the same.

#include <string>
#include <string_view>

#include "accord/retry.hpp"

namespace accord::detail {

// A try's result in a few words: the HTTP status, or the kind of transport failure.
[[nodiscard]] std::string describe_result(const TransportResult& result);
// The decision not to retry, with its reason: "<what>, not retried: <why>".
[[nodiscard]] RetryDecision not_retried(const std::string& what, std::string_view why);

}  // namespace accord::detail
