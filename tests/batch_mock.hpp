#pragma once
// What the batch tests share: a client for one provider aimed at accord-mock, where that provider's
// batches live, and counting the batch API requests the mock received.

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "accord/client.hpp"
#include "mock_process.hpp"

namespace accord::testing_batches {

// The key the batch tests give their clients; no trace or message may hold it.
inline constexpr const char* kKey = "sk-test-SENTINEL-123";

// `provider` against `mock`, with fast transport retries.
inline Client batch_client(const std::string& provider, const MockProcess& mock,
                           const std::string& key) {
  using namespace std::chrono_literals;
  ClientOptions options{
      .provider = provider, .model = "test-model", .base_url = mock.base_url(), .api_key = key};
  options.retry.initial_backoff = 5ms;
  options.transport.total_timeout = 10s;
  return Client(std::move(options));
}

inline std::string batches_path(const std::string& provider) {
  return provider == "anthropic" ? "/v1/messages/batches" : "/v1/batches";
}

// The requests the mock received on `method` whose path starts with `path_prefix` and ends with
// `path_suffix`.
inline std::size_t count_requests(const MockProcess& mock, const std::string& method,
                                  const std::string& path_prefix,
                                  const std::string& path_suffix = "") {
  std::size_t count = 0;
  for (const auto& entry : mock.requests()) {
    const std::string path = entry["path"];
    if (entry["method"] == method && path.starts_with(path_prefix) && path.ends_with(path_suffix)) {
      ++count;
    }
  }
  return count;
}

// For INSTANTIATE_TEST_SUITE_P: the providers with a batch API, and test names without dashes.
inline auto batch_providers() {
  return ::testing::Values("openai-chat", "openai-responses", "anthropic");
}
inline std::string provider_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::erase(name, '-');
  return name;
}

}  // namespace accord::testing_batches
