#pragma once
// A task queue for httplib that starts a worker only when every worker is busy. httplib serves a
// connection on one worker for as long as it is kept alive, so a fixed pool of N workers makes the
// N+1st client wait for some idle connection's keep-alive timeout: with 64 workers, 512 callers
// collapsed to 15 calls/s. A real API holds thousands of idle keep-alive connections; so does this.

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace accord_mock {

class GrowingPool : public httplib::TaskQueue {
 public:
  // `max_workers` bounds the threads (each holds one connection); jobs beyond it wait in line.
  explicit GrowingPool(std::size_t max_workers) : max_workers_(max_workers) {}
  GrowingPool(const GrowingPool&) = delete;
  GrowingPool& operator=(const GrowingPool&) = delete;
  ~GrowingPool() override = default;

  void enqueue(std::function<void()> job) override {
    std::unique_lock lock(mutex_);
    jobs_.push_back(std::move(job));
    if (idle_ < jobs_.size() && workers_.size() < max_workers_) {
      workers_.emplace_back([this] { work(); });
    }
    lock.unlock();
    ready_.notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (auto& worker : workers_) worker.join();
  }

 private:
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      ++idle_;
      ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      --idle_;
      if (jobs_.empty()) return;  // stopping, and nothing left to run
      auto job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }

  const std::size_t max_workers_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> workers_;  // only grows, under mutex_; joined at shutdown
  std::size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace accord_mock
