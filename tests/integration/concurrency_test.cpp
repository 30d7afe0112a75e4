// One Client shared by several threads: extractions, corrections, the contract cache and the
// transport pool are safe to use at once (tests/tsan.sh runs this file under ThreadSanitizer).
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "accord/client.hpp"
#include "accord/providers/provider.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"
#include "schemas/transfer.hpp"

namespace accord {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

constexpr int kThreads = 8;
constexpr int kCallsPerThread = 6;

using namespace testing_documents;

ClientOptions options_for(const std::string& provider, const MockProcess& mock) {
  ClientOptions options{.provider = provider,
                        .model = "test-model",
                        .base_url = mock.base_url(),
                        .api_key = "sk-test-concurrency",
                        .retry = {.max_retries = 2, .initial_backoff = milliseconds(5)}};
  options.transport.total_timeout = milliseconds(20'000);  // ThreadSanitizer is slow
  return options;
}

// Runs `body(thread_index)` on kThreads threads started together.
template <class Body>
void on_threads(Body body) {
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ++ready;
      while (ready.load() < kThreads) std::this_thread::yield();
      body(t);
    });
  }
  for (auto& thread : threads) thread.join();
}

class Concurrency : public ::testing::TestWithParam<std::string> {};

TEST_P(Concurrency, EightThreadsSharingOneClientEachGetEveryExtraction) {
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}}.dump());
  const Client client(options_for(GetParam(), mock));
  const Schema schema = examples::refund_schema();
  std::atomic<int> ok{0};
  std::atomic<int> attempts{0};
  on_threads([&](int t) {
    for (int i = 0; i < kCallsPerThread; ++i) {
      auto result = client.extract({.schema = schema,
                                    .prompt = "Extract refund " + std::to_string(t * 100 + i),
                                    .name = "refund"});
      if (result.ok() && result.value() == kValidRefund) ++ok;
      attempts += static_cast<int>(result.trace().attempts.size());
    }
  });
  EXPECT_EQ(ok.load(), kThreads * kCallsPerThread);
  EXPECT_EQ(attempts.load(), kThreads * kCallsPerThread);
  EXPECT_EQ(mock.requests().size(), static_cast<std::size_t>(kThreads * kCallsPerThread));
}

TEST_P(Concurrency, ConcurrentCorrectionsKeepEachConversationApart) {
  // Every reply is invalid, so each call (two corrections) sends a scoped correction carrying its
  // own value back, then the whole-object fallback carrying its own first reply.
  json invalid = kValidRefund;
  invalid["orderId"] = "bad";
  MockProcess mock(json{{"replies", {{{"json", invalid}}}}}.dump());
  const Client client(options_for(GetParam(), mock));
  const Schema schema = examples::refund_schema();
  std::atomic<int> failed_right{0};
  on_threads([&](int t) {
    for (int i = 0; i < kCallsPerThread / 2; ++i) {
      auto result = client.extract({.schema = schema,
                                    .prompt = "call " + std::to_string(t) + "-" + std::to_string(i),
                                    .name = "refund",
                                    .corrections = 2});
      if (!result.ok() && result.error().kind == ErrorKind::invalid_after_retries &&
          result.trace().attempts.size() == 3)
        ++failed_right;
    }
  });
  EXPECT_EQ(failed_right.load(), kThreads * (kCallsPerThread / 2));
  // Each call's three requests carry its own prompt and no other: no conversation leaked.
  const json requests = mock.requests();
  ASSERT_EQ(requests.size(), static_cast<std::size_t>(kThreads * (kCallsPerThread / 2) * 3));
  std::map<std::string, int> requests_per_prompt;
  for (const auto& request : requests) {
    const std::string body = request["body"].dump();
    std::set<std::string> prompts;
    for (auto at = body.find("call "); at != std::string::npos; at = body.find("call ", at + 1))
      prompts.insert(body.substr(at, body.find_first_of("\\\"", at) - at));
    ASSERT_EQ(prompts.size(), 1u) << body;
    ++requests_per_prompt[*prompts.begin()];
  }
  EXPECT_EQ(requests_per_prompt.size(), static_cast<std::size_t>(kThreads * (kCallsPerThread / 2)));
  for (const auto& [prompt, count] : requests_per_prompt) EXPECT_EQ(count, 3) << prompt;
}

TEST_P(Concurrency, ContractCacheBuildsOneContractPerSchemaUnderContention) {
  const Client client({.provider = GetParam(), .base_url = "http://127.0.0.1:9"});
  const Schema refund = examples::refund_schema();
  const Schema transfer = examples::transfer_schema();
  std::vector<std::shared_ptr<const Contract>> seen(kThreads * 2);
  on_threads([&](int t) {
    seen[t * 2] = client.contract(refund, "refund");
    seen[t * 2 + 1] = client.contract(transfer, "transfer");
  });
  for (int t = 1; t < kThreads; ++t) {
    EXPECT_EQ(seen[t * 2], seen[0]);
    EXPECT_EQ(seen[t * 2 + 1], seen[1]);
  }
  EXPECT_NE(seen[0], seen[1]);
}

INSTANTIATE_TEST_SUITE_P(Providers, Concurrency, ::testing::ValuesIn(::accord::provider_names()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

TEST(ConcurrentValidator, OneValidatorJudgesFromEightThreadsAlike) {
  const Validator validator(examples::transfer_schema());
  const json good = {
      {"accountId", "acct_1"}, {"email", "a@b.co"}, {"amount", 20}, {"currency", "usd"}};
  const json bad = {{"accountId", "x"}, {"email", "nope"}, {"amount", 0}, {"currency", "eur"}};
  const std::size_t bad_issues = validator.validate(bad).size();
  std::atomic<int> agreed{0};
  on_threads([&](int) {
    for (int i = 0; i < 50; ++i) {
      if (validator.validate(good).empty() && validator.validate(bad).size() == bad_issues)
        ++agreed;
    }
  });
  EXPECT_EQ(agreed.load(), kThreads * 50);
}

}  // namespace
}  // namespace accord
