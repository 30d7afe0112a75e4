#pragma once
// How provider calls reach the network: one try per call of a Transport (a batch job also GETs),
// with CurlTransport as the default. Retries are retry.hpp's, kept apart from the loop's
// corrective turns.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "accord/http.hpp"

namespace accord {

struct TransportOptions {
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds total_timeout{120'000};
  std::size_t max_response_bytes = 16 * 1024 * 1024;  // a bigger body is a too_large error
  std::string ca_bundle;                        // PEM file for corporate proxies; empty: system
  bool insecure_skip_tls_verification = false;  // never on by default; named to be noticed
  // A streamed reply (HttpRequest::body_reader) that sends no byte for this long ends as a
  // timeout: a stall mid-stream never hangs until total_timeout. Whole seconds (curl's unit),
  // rounded up; 0: only total_timeout.
  std::chrono::milliseconds stream_stall_timeout{30'000};
};

// One try started without waiting for it (Transport::post_async).
struct AsyncPost {
  HttpRequest request;
  std::chrono::milliseconds delay{0};  // start this long from now (a transport retry's backoff)
  // Once set, the try ends soon with TransportFailure::cancelled.
  std::shared_ptr<const std::atomic<bool>> cancelled;
  std::function<void(TransportResult)> done;  // called exactly once
};

class Transport {
 public:
  virtual ~Transport() = default;
  // One attempt, no retries. Must be safe to call from several threads at once.
  [[nodiscard]] virtual TransportResult post(const HttpRequest& request) = 0;
  // One attempt, its result handed to `post.done`, possibly on another thread. This default
  // waits and posts in the calling thread; CurlTransport runs thousands at once on one thread.
  virtual void post_async(AsyncPost post);
};

// libcurl: a pool of easy handles, so connections are kept alive and reused across calls and
// threads; proxy variables (https_proxy, no_proxy, ...) honoured as curl does.
class CurlTransport final : public Transport {
 public:
  explicit CurlTransport(TransportOptions options = {});
  ~CurlTransport() override;
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;
  [[nodiscard]] TransportResult post(const HttpRequest& request) override;
  // On curl multi handles driven by two threads of this transport's own (started on first use);
  // `done` runs on one of them, so it must not block.
  void post_async(AsyncPost post) override;

 private:
  struct Pool;
  class Multi;
  std::unique_ptr<Pool> pool_;
  std::once_flag multi_started_;
  std::shared_ptr<Multi> multi_;
};

}  // namespace accord
