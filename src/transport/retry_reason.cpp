#include "transport/retry_reason.hpp"

namespace accord::detail {

std::string describe_result(const TransportResult& result) {
  if (result.response) return std::to_string(result.response->status);
  if (!result.error) return "empty result";
  switch (result.error->failure) {
    case TransportFailure::connect:
      return "connect failure";
    case TransportFailure::timeout:
      return "timeout";
    case TransportFailure::dropped:
      return "dropped connection";
    case TransportFailure::too_large:
      return "response too large";
    case TransportFailure::tls:
      return "TLS failure";
    case TransportFailure::cancelled:
      return "cancelled";
    case TransportFailure::other:
      return "transport failure";
  }
  return "transport failure";
}

RetryDecision not_retried(const std::string& what, std::string_view why) {
  return RetryDecision{false, std::chrono::milliseconds{0},
                       what + ", not retried: " + std::string(why)};
}

}  // namespace accord::detail
