// extract_async when a step of the call throws. Before anything is sent, both forms throw what
// extract() throws for the same request (a parameter the provider does not take), to the caller,
// and the callback is never called. Once the call runs on the transport's thread, a throw there
// (here a custom transport's post_async failing on the corrective request) ends the call through
// its callback or future, with the attempts so far, instead of ending the process. Over real
// HTTP against accord-mock.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <stdexcept>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

// A seed, which Anthropic does not take: refused before sending.
ExtractRequest seeded_refund() {
  auto request = refund_request();
  request.parameters.seed = 7;
  return request;
}

std::string what_extract_throws(const Client& client, const ExtractRequest& request) {
  try {
    (void)client.extract(request);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "extract() threw nothing";
}

// CurlTransport, but for asynchronous tries after the first, which fail as a transport whose
// pool was shut down would.
class FirstTryOnlyTransport final : public Transport {
 public:
  TransportResult post(const HttpRequest& request) override { return curl_.post(request); }
  void post_async(AsyncPost post) override {
    if (++tries_ > 1) throw std::runtime_error("the transport's pool is shut down");
    curl_.post_async(std::move(post));
  }

 private:
  CurlTransport curl_;
  std::atomic<int> tries_{0};
};

// As FirstTryOnlyTransport, its refusal quoting the request's headers.
class HeaderQuotingTransport final : public Transport {
 public:
  TransportResult post(const HttpRequest& request) override { return curl_.post(request); }
  void post_async(AsyncPost post) override {
    if (++tries_ > 1) {
      std::string headers;
      for (const auto& [name, value] : post.request.headers) headers += name + ": " + value + "; ";
      throw std::runtime_error("cannot send " + headers);
    }
    curl_.post_async(std::move(post));
  }

 private:
  CurlTransport curl_;
  std::atomic<int> tries_{0};
};

class AsyncRefusal : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_MOCK();
    // An invalid first reply, so the call goes on to a corrective request.
    mock_ = std::make_unique<MockProcess>(
        scenario({{{"json", bad_amount()}}, {{"json", kValidRefund}}}));
  }
  [[nodiscard]] Client anthropic(std::shared_ptr<Transport> transport = nullptr) const {
    auto options = testing_support::mock_client_options("anthropic", mock_->base_url());
    options.custom_transport = std::move(transport);
    return Client(options);
  }
  // The Error a call that failed on the transport's thread ended with.
  static void expect_ended_on_the_transport_thread(const Result<json>& result) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, ErrorKind::transport);
    EXPECT_NE(result.error().message.find("the transport's pool is shut down"), std::string::npos)
        << result.error().message;
    EXPECT_EQ(result.error().trace.attempts.size(), 1u);  // the invalid first reply
  }

  std::unique_ptr<MockProcess> mock_;
};

TEST_F(AsyncRefusal, CallbackFormThrowsWhatExtractThrowsBeforeSending) {
  const Client client = anthropic();
  const std::string expected = what_extract_throws(client, seeded_refund());
  std::atomic<bool> called{false};
  try {
    (void)client.extract_async(seeded_refund(), [&](const Result<json>&) { called = true; });
    FAIL() << "extract_async threw nothing";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
  EXPECT_FALSE(called.load());
  EXPECT_TRUE(mock_->requests().empty());
}

TEST_F(AsyncRefusal, FutureFormThrowsWhatExtractThrowsBeforeSending) {
  const Client client = anthropic();
  const std::string expected = what_extract_throws(client, seeded_refund());
  try {
    (void)client.extract_async(seeded_refund());
    FAIL() << "extract_async threw nothing";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
  EXPECT_TRUE(mock_->requests().empty());
}

TEST_F(AsyncRefusal, ThrowOnTheTransportThreadEndsTheCallThroughItsCallback) {
  const Client client = anthropic(std::make_shared<FirstTryOnlyTransport>());
  std::promise<Result<json>> delivered;
  (void)client.extract_async(refund_request(),
                             [&](Result<json> result) { delivered.set_value(std::move(result)); });
  expect_ended_on_the_transport_thread(delivered.get_future().get());
}

TEST_F(AsyncRefusal, ThrowOnTheTransportThreadEndsTheCallThroughItsFuture) {
  const Client client = anthropic(std::make_shared<FirstTryOnlyTransport>());
  expect_ended_on_the_transport_thread(client.extract_async(refund_request()).get());
}

TEST_F(AsyncRefusal, AThrowQuotingAnExtraHeadersSecretEndsTheCallWithoutIt) {
  auto options = testing_support::mock_client_options("anthropic", mock_->base_url());
  options.custom_transport = std::make_shared<HeaderQuotingTransport>();
  options.parameters.extra_headers = {{"x-gateway-token", "gw-SECRET-42"}};
  const auto result = Client(options).extract_async(refund_request()).get();
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("x-gateway-token: [redacted]"), std::string::npos)
      << result.error().message;
  EXPECT_EQ(result.error().message.find("gw-SECRET-42"), std::string::npos)
      << result.error().message;
}

}  // namespace
}  // namespace accord
