#pragma once
// Jobs run on a few threads, their results handed back on the caller's thread in the order the
// jobs were given (`accord validate --jobs N`: verdicts print in input order). With one thread
// each job runs when it is given.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace accord_cli {

template <class Result>
class InOrderPool {
 public:
  using Job = std::function<Result()>;
  using Deliver = std::function<void(Result&&)>;

  // At most `max_pending` jobs are given and not yet delivered: give() waits past that, which
  // bounds the memory the results hold.
  InOrderPool(std::size_t threads, std::size_t max_pending, Deliver deliver)
      : max_pending_(max_pending), deliver_(std::move(deliver)) {
    for (std::size_t i = 0; threads > 1 && i < threads; ++i)
      workers_.emplace_back([this] { work(); });
  }
  InOrderPool(const InOrderPool&) = delete;
  InOrderPool& operator=(const InOrderPool&) = delete;
  // Jobs not yet delivered are dropped (a caller that stops early does not want them).
  ~InOrderPool() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
      waiting_.clear();
    }
    work_ready_.notify_all();
    for (auto& worker : workers_) worker.join();
  }

  // Runs `job` (here when there are no threads), delivering the results that are ready in order.
  void give(Job job) {
    if (workers_.empty()) {
      deliver_(job());
      return;
    }
    auto slot = std::make_shared<Slot>();
    slot->job = std::move(job);
    {
      const std::lock_guard lock(mutex_);
      pending_.push_back(slot);
      waiting_.push_back(slot);
    }
    work_ready_.notify_one();
    deliver_ready(max_pending_);
  }
  // Delivers every result given so far, waiting for the jobs still running.
  void drain() { deliver_ready(0); }

 private:
  struct Slot {
    Job job;
    std::optional<Result> result;
    std::exception_ptr failure;
    bool done = false;
  };

  // Delivers the finished results at the front, then waits for more until at most `keep` remain.
  void deliver_ready(std::size_t keep) {
    for (;;) {
      std::shared_ptr<Slot> front;
      {
        std::unique_lock lock(mutex_);
        if (pending_.empty()) return;
        if (!pending_.front()->done) {
          if (pending_.size() <= keep) return;
          done_.wait(lock, [&] { return pending_.front()->done; });
        }
        front = std::move(pending_.front());
        pending_.pop_front();
      }
      if (front->failure) std::rethrow_exception(front->failure);
      deliver_(std::move(*front->result));
    }
  }

  void work() {
    for (;;) {
      std::shared_ptr<Slot> slot;
      {
        std::unique_lock lock(mutex_);
        work_ready_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
        if (waiting_.empty()) return;
        slot = std::move(waiting_.front());
        waiting_.pop_front();
      }
      try {
        slot->result.emplace(slot->job());
      } catch (...) {
        slot->failure = std::current_exception();
      }
      // Only the front's result lets the caller deliver: a wakeup for another would be wasted.
      bool front = false;
      {
        const std::lock_guard lock(mutex_);
        slot->done = true;
        front = pending_.front() == slot;
      }
      if (front) done_.notify_all();
    }
  }

  std::size_t max_pending_;
  Deliver deliver_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable done_;
  std::deque<std::shared_ptr<Slot>> pending_;  // given, not delivered, in order
  std::deque<std::shared_ptr<Slot>> waiting_;  // given, not started
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace accord_cli
