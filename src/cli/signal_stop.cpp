#include "signal_stop.hpp"

#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <string>

namespace accord_cli {
namespace {

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

SignalStop::SignalStop() {
  const sigset_t set = stop_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  watcher_ = std::jthread([this](const std::stop_token& done) {
    const sigset_t watched = stop_signals();
    const timespec tick{0, 50'000'000};  // how soon the watcher notices it is no longer needed
    while (!done.stop_requested()) {
      const int received = sigtimedwait(&watched, nullptr, &tick);
      if (received <= 0) continue;
      if (signal_.load() != 0) {
        const std::string note = "accord: second " +
                                 std::string(received == SIGINT ? "SIGINT" : "SIGTERM") +
                                 ": exiting now\n";
        (void)!::write(STDERR_FILENO, note.data(), note.size());
        std::_Exit(128 + received);
      }
      signal_.store(received);
      source_.request_stop();
    }
  });
}

SignalStop::~SignalStop() {
  watcher_.request_stop();
  watcher_.join();
  const sigset_t set = stop_signals();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace accord_cli
