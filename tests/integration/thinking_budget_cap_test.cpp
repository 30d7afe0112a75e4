// Claude takes max_tokens only above the thinking budget (the thinking counts towards it). A cap
// the caller set at or below it is refused before sending, naming both numbers; a token budget
// whose remainder would cut a later request's cap that low ends the call as budget_exhausted
// (nothing sent), rather than a request Anthropic answers 400 or a thinking budget cut behind
// the caller's back. Over real HTTP against accord-mock, which refuses such a request as
// Anthropic does.
#include <gtest/gtest.h>

#include <stdexcept>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

constexpr std::int64_t kCapTestThinkingBudget = 1024;

ClientOptions thinking_options(const MockProcess& mock, int max_tokens) {
  ClientOptions options{
      .provider = "anthropic", .base_url = mock.root_url(), .max_tokens = max_tokens};
  options.parameters.thinking_budget = kCapTestThinkingBudget;
  return options;
}

TEST(ThinkingBudgetCap, MaxTokensNotAboveTheThinkingBudgetIsRefusedBeforeSending) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client(thinking_options(mock, 1024));
  const auto why = client.unusable_reason();
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("max_tokens 1024 is not above thinking_budget 1024"), std::string::npos)
      << *why;
  EXPECT_THROW((void)client.extract(refund_request()), std::invalid_argument);
  EXPECT_TRUE(mock.requests().empty());
}

TEST(ThinkingBudgetCap, BudgetLeavingACapNotAboveTheThinkingBudgetEndsTheCallUnsent) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", bad_amount()}}, {{"json", kValidRefund}}}));
  const Client client(thinking_options(mock, 4096));
  auto request = refund_request();
  // The first attempt and the correction's input leave a few hundred tokens: under the thinking
  // budget.
  request.budget = TokenBudget{.max_tokens = 1200};
  const auto result = client.extract(request);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::budget_exhausted);
  const std::string& message = result.error().message;
  EXPECT_NE(message.find("the token budget of 1200 leaves the"), std::string::npos) << message;
  EXPECT_NE(message.find("thinking_budget 1024"), std::string::npos) << message;
  EXPECT_EQ(mock.requests().size(), 1u);
  ASSERT_EQ(result.error().trace.attempts.size(), 1u);
  EXPECT_NE(result.error().trace.attempts[0].note.find("stopped by the token budget"),
            std::string::npos)
      << result.error().trace.attempts[0].note;
}

}  // namespace
}  // namespace accord
