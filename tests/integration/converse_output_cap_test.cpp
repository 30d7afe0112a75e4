// accord-mock holds a Converse reply to inferenceConfig.maxTokens under "obey_max_tokens", as it
// does Chat, Messages and Gemini replies to theirs, so a Bedrock extraction with a small cap is
// truncated and the loop's raised-cap retry follows. Over real HTTP.
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

TEST(ConverseOutputCap, SmallCapIsTruncatedByTheMockAndRetriedWithARaisedCap) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}, {"obey_max_tokens", true}}}));
  auto options = testing_support::mock_client_options("bedrock", mock.base_url());
  // Listed for native structured output: the answer is text, which the cap cuts.
  options.model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
  options.max_tokens = 20;  // 80 bytes: under the refund's JSON; the raised 80 tokens hold it
  const auto result = Client(options).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].status, ReplyStatus::truncated);
  EXPECT_EQ(attempts[1].role, AttemptRole::raised_cap);
  EXPECT_EQ(mock.requests().at(1)["body"]["inferenceConfig"]["maxTokens"], 80);
}

}  // namespace
}  // namespace accord
