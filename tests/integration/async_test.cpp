// Client::extract_async over real HTTP against accord-mock: the same loop as extract(), driven
// from the transport's thread instead of the caller's.
#include <dirent.h>
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <vector>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

using namespace testing_documents;

ClientOptions options_for(const MockProcess& mock) {
  ClientOptions options{.provider = "openai-chat",
                        .model = "test-model",
                        .base_url = mock.base_url(),
                        .api_key = "sk-test-SENTINEL-123"};
  options.retry.initial_backoff = 5ms;
  options.transport.total_timeout = 10s;
  return options;
}

std::size_t threads_of_this_process() {
  std::size_t count = 0;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (const dirent* entry = readdir(dir)) count += entry->d_name[0] != '.';
    closedir(dir);
  }
  return count;
}

TEST(ExtractAsync, FutureHoldsTheValidValue) {
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client(options_for(mock));
  auto result = client.extract_async(refund_request()).get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  EXPECT_EQ(result.trace().attempts.size(), 1u);
}

TEST(ExtractAsync, InvalidReplyIsCorrectedOnTheSecondAttempt) {
  MockProcess mock(scenario({{{"json", swapped_dates()}}, {{"json", kValidRefund}}}));
  const Client client(options_for(mock));
  auto result = client.extract_async(refund_request()).get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_EQ(result.trace().attempts[0].issues.size(), 1u);
}

TEST(ExtractAsync, StillInvalidAfterTheCorrectionCountsBothAttempts) {
  MockProcess mock(scenario({{{"json", swapped_dates()}}}));
  const Client client(options_for(mock));
  auto result = client.extract_async(refund_request()).get();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::invalid_after_retries);
  EXPECT_NE(result.error().message.find("after 2 attempts"), std::string::npos)
      << result.error().message;
  EXPECT_EQ(result.trace().attempts.size(), 2u);
}

TEST(ExtractAsync, TransportRetryFollowsA503) {
  MockProcess mock(scenario({{{"status", 503}}, {{"json", kValidRefund}}}));
  const Client client(options_for(mock));
  auto result = client.extract_async(refund_request()).get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 1u);
  EXPECT_EQ(result.trace().attempts[0].transport_log.size(), 2u);
}

TEST(ExtractAsync, HundredsInFlightNeedNoThreadEach) {
  MockProcess mock(scenario({{{"json", kValidRefund}, {"delay_ms", 300}}}));
  const Client client(options_for(mock));
  const std::size_t threads_before = threads_of_this_process();
  std::vector<std::future<Result<json>>> calls;
  for (int i = 0; i < 200; ++i) calls.push_back(client.extract_async(refund_request()));
  // All 200 are waiting on the mock's delay now; the transport runs them on one thread.
  EXPECT_LE(threads_of_this_process(), threads_before + 2);
  for (auto& call : calls) {
    auto result = call.get();
    EXPECT_TRUE(result.ok()) << result.error().message;
  }
}

TEST(ExtractAsync, CancelEndsAWaitingCallAsCancelled) {
  MockProcess mock(scenario({{{"json", kValidRefund}, {"delay_ms", 60000}}}));
  const Client client(options_for(mock));
  std::promise<Result<json>> ended;
  const CallHandle call = client.extract_async(
      refund_request(), [&](Result<json> result) { ended.set_value(std::move(result)); });
  call.cancel();
  auto future = ended.get_future();
  ASSERT_EQ(future.wait_for(5s), std::future_status::ready);
  const auto result = future.get();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::cancelled);
  EXPECT_EQ(result.trace().attempts.size(), 1u);
}

TEST(ExtractAsync, CallDeadlineEndsAStalledCall) {
  MockProcess mock(scenario({{{"json", kValidRefund}, {"delay_ms", 60000}}}));
  auto options = options_for(mock);
  options.call_timeout = 300ms;
  const Client client(options);
  auto future = client.extract_async(refund_request());
  ASSERT_EQ(future.wait_for(5s), std::future_status::ready);
  const auto result = future.get();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::transport);
}

TEST(ExtractAsync, CallOutlivesTheClientThatStartedIt) {
  MockProcess mock(scenario({{{"json", kValidRefund}, {"delay_ms", 200}}}));
  std::future<Result<json>> future;
  {
    const Client client(options_for(mock));
    future = client.extract_async(refund_request());
  }
  const auto result = future.get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
}

TEST(ExtractAsync, BadRequestThrowsBeforeAnythingIsSent) {
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client(options_for(mock));
  auto request = refund_request();
  request.corrections = -1;
  EXPECT_THROW((void)client.extract_async(request), std::invalid_argument);
}

}  // namespace
}  // namespace accord
