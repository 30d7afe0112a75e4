// A request refused before it is sent (a parameter the provider does not take) is never reported
// to ClientOptions::hooks as sent, on the blocking and the asynchronous path; what is sent is
// reported once, after it was encoded. Over real HTTP against accord-mock.
#include <gtest/gtest.h>

#include <stdexcept>

#include "accord/client.hpp"
#include "fixtures/hook_recorder.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

class RefusedBeforeSending : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_MOCK();
    mock_ = std::make_unique<MockProcess>(scenario({{{"json", kValidRefund}}}));
    auto options = testing_support::mock_client_options("anthropic", mock_->base_url());
    options.hooks = recorded_.hooks();
    client_ = std::make_unique<Client>(options);
  }

  // The refund request with a seed, which Anthropic does not take.
  static ExtractRequest with_seed() {
    auto request = refund_request();
    request.parameters.seed = 7;
    return request;
  }

  std::unique_ptr<MockProcess> mock_;
  testing_support::HookRecorder recorded_;
  std::unique_ptr<Client> client_;
};

TEST_F(RefusedBeforeSending, BlockingCallReportsNoRequestSent) {
  EXPECT_THROW((void)client_->extract(with_seed()), std::invalid_argument);
  EXPECT_TRUE(recorded_.events.empty()) << recorded_.events.front();
  EXPECT_TRUE(mock_->requests().empty());
}

TEST_F(RefusedBeforeSending, AsynchronousCallReportsNoRequestSent) {
  EXPECT_THROW((void)client_->extract_async(with_seed()), std::invalid_argument);
  EXPECT_TRUE(recorded_.events.empty()) << recorded_.events.front();
  EXPECT_TRUE(mock_->requests().empty());
}

TEST_F(RefusedBeforeSending, RequestTakenIsReportedSentOnce) {
  auto result = client_->extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::vector<std::string> expected = {"request 1 first", "reply 1 ok", "finished 1 ok"};
  EXPECT_EQ(recorded_.events, expected);
}

}  // namespace
}  // namespace accord
