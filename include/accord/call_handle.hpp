#pragma once
// A handle on a call started with Client::extract_async: it can ask the call to stop.

#include <atomic>
#include <memory>

namespace accord {

class CallHandle {
 public:
  CallHandle() = default;
  explicit CallHandle(std::shared_ptr<std::atomic<bool>> cancelled)
      : cancelled_(std::move(cancelled)) {}
  // The call ends soon with ErrorKind::cancelled (its attempts so far in the Trace), unless it
  // has already ended. Safe from any thread, any number of times.
  void cancel() const {
    if (cancelled_) cancelled_->store(true);
  }

 private:
  std::shared_ptr<std::atomic<bool>> cancelled_;
};

}  // namespace accord
