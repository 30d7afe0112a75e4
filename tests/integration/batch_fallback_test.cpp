// run_batch and ClientOptions::fallbacks: one provider's batch carries every item, so an item the
// provider answered 503 ends as that error, and the fallback is never asked.
#include <gtest/gtest.h>

#include <chrono>

#include "accord/batch.hpp"
#include "fixtures/batch_mock.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using namespace testing_documents;
using namespace testing_batches;

class BatchFallback : public ::testing::TestWithParam<std::string> {};

TEST_P(BatchFallback, ItemUnavailableInTheBatchDoesNotFallBack) {
  MockProcess mock(json{{"replies", {{{"status", 503}}}}, {"batch_polls", 1}}.dump());
  MockProcess fallback(scenario({{{"json", kValidRefund}}}));
  ClientOptions with_fallback{
      .provider = GetParam(), .model = "test-model", .base_url = mock.base_url(), .api_key = kKey};
  with_fallback.fallbacks = {{.provider = "anthropic", .base_url = fallback.root_url()}};
  BatchOptions polls;
  polls.first_poll = 2ms;
  polls.max_poll_interval = 10ms;
  polls.deadline = 20s;
  const auto results = run_batch(Client(with_fallback), {refund_request()}, polls);
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().kind, ErrorKind::http);
  EXPECT_EQ(results[0].trace().attempts.size(), 1u);
  EXPECT_EQ(results[0].trace().provider(), GetParam());
  EXPECT_EQ(fallback.requests().size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Providers, BatchFallback, batch_providers(), provider_test_name);

}  // namespace
}  // namespace accord
