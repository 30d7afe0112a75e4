#pragma once
// SIGINT and SIGTERM as a stop request: while a SignalStop lives, both are blocked in every thread
// the process starts and a watcher thread takes them, so a long wait ends through a std::stop_token
// instead of the process dying with its job half-recorded. A second signal ends the process at
// once (exit 128 + signal).

#include <atomic>
#include <stop_token>
#include <thread>

namespace accord_cli {

class SignalStop {
 public:
  // Call before any other thread is started (they inherit the blocked signals).
  SignalStop();
  ~SignalStop();
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;

  [[nodiscard]] std::stop_token token() const { return source_.get_token(); }
  // The first signal received, 0 for none.
  [[nodiscard]] int signal() const { return signal_.load(); }

 private:
  std::stop_source source_;
  std::atomic<int> signal_{0};
  std::jthread watcher_;
};

}  // namespace accord_cli
