#pragma once
// What tests that run once per provider profile against accord-mock share.

#include <chrono>
#include <string>

#include "accord/client.hpp"

namespace accord::testing_support {

// Options for a client talking to accord-mock: a sentinel key (to prove it never leaks), quick
// transport retries, and a timeout that fails a hung test rather than the suite.
inline ClientOptions mock_client_options(std::string provider, std::string base_url) {
  ClientOptions options{.provider = std::move(provider),
                        .model = "test-model",
                        .base_url = std::move(base_url),
                        .api_key = "sk-test-SENTINEL-123"};
  options.retry.initial_backoff = std::chrono::milliseconds(5);
  options.transport.total_timeout = std::chrono::milliseconds(5000);
  return options;
}

// gtest parameter names may not contain '-': "openai-chat" -> "openai_chat".
struct ProviderParamName {
  template <class Info>
  std::string operator()(const Info& info) const {
    std::string name = info.param;
    for (char& c : name) {
      if (c == '-') c = '_';
    }
    return name;
  }
};

}  // namespace accord::testing_support
