#include "accord/error.hpp"

namespace accord {

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::refused:
      return "refused";
    case ErrorKind::truncated:
      return "truncated";
    case ErrorKind::content_filtered:
      return "content_filtered";
    case ErrorKind::invalid_after_retries:
      return "invalid_after_retries";
    case ErrorKind::http:
      return "http";
    case ErrorKind::transport:
      return "transport";
    case ErrorKind::bad_reply:
      return "bad_reply";
    case ErrorKind::step_limit:
      return "step_limit";
    case ErrorKind::cancelled:
      return "cancelled";
    case ErrorKind::batch_unanswered:
      return "batch_unanswered";
    case ErrorKind::conversion:
      return "conversion";
    case ErrorKind::budget_exhausted:
      return "budget_exhausted";
  }
  return "unknown";
}

Error conversion_error(Path path, const std::string& message, Trace trace) {
  const auto where = path.to_string();
  return Error{ErrorKind::conversion,
               "the value does not fit the C++ type: " + message +
                   (where.empty() ? "" : " (at " + where + ")"),
               std::move(trace), std::move(path)};
}

ExtractError::ExtractError(Error error)
    : std::runtime_error(std::string(to_string(error.kind)) + ": " + error.message),
      error_(std::move(error)) {}

}  // namespace accord
