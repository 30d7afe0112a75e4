#pragma once
// What a call returns: the value with its Trace, or the Error (which carries the Trace too).
//
//   Result<Refund> result = client.extract<Refund>(request);
//   if (!result) std::cerr << to_string(result.error().kind) << ": " << result.error().message;

#include <utility>
#include <variant>

#include "accord/error.hpp"
#include "accord/trace.hpp"

namespace accord {

template <class T>
struct Extraction {
  T value;
  Trace trace;
};

template <class T>
class Result {
 public:
  Result(Extraction<T> ok) : state_(std::move(ok)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}    // NOLINT
  [[nodiscard]] bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const T& value() const { return std::get<0>(state_).value; }
  [[nodiscard]] const Error& error() const { return std::get<1>(state_); }
  [[nodiscard]] const Trace& trace() const {
    return ok() ? std::get<0>(state_).trace : std::get<1>(state_).trace;
  }

 private:
  std::variant<Extraction<T>, Error> state_;
};

}  // namespace accord
