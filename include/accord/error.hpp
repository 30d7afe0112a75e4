#pragma once
// A failed call: what kind of failure, one line saying why, and every attempt.

#include <stdexcept>
#include <string>

#include "accord/path.hpp"
#include "accord/trace.hpp"

namespace accord {

enum class ErrorKind {
  refused,                // the model declined
  truncated,              // the output hit a token limit
  content_filtered,       // the provider's filter stopped the output
  invalid_after_retries,  // still invalid after every correction
  http,                   // the provider answered with an error status
  transport,              // no usable answer: connection, timeout, size limit
  bad_reply,              // an answer that is not the provider's shape, or empty output
  step_limit,             // a tool run reached its step limit without a final answer
  cancelled,              // the caller cancelled it (CallHandle::cancel)
  batch_unanswered,       // a batch job ended without this item's answer (expired, cancelled,
                          // failed, or its poll deadline passed)
  conversion,             // the value passed its schema but does not fit the C++ type (extract<T>)
  budget_exhausted,       // the token budget (TokenBudget) left no room for the next attempt
};
[[nodiscard]] std::string_view to_string(ErrorKind kind);

struct Error {
  ErrorKind kind = ErrorKind::bad_reply;
  std::string message;  // one line
  Trace trace;
  Path path;  // conversion: where in the value the part that did not fit sits
};

// The Error of a value that passed its schema but does not fit the C++ type asked for.
[[nodiscard]] Error conversion_error(Path path, const std::string& message, Trace trace);

class ExtractError : public std::runtime_error {
 public:
  explicit ExtractError(Error error);
  [[nodiscard]] const Error& error() const { return error_; }

 private:
  Error error_;
};

}  // namespace accord
