// A correction the model refuses ends the call as `refused`, whatever kind of correction it was
// (scoped, whole) and whether a token budget is set: the refusal is what happened, not a spent
// budget or a string of invalid replies. Over real HTTP against accord-mock.
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using testing_documents::bad_amount;

struct RefusedCorrectionCase {
  CorrectionStyle style;
  std::int64_t budget;  // TokenBudget::max_tokens; 0 for none
};

class RefusedCorrection : public ::testing::TestWithParam<std::string> {
 protected:
  // An invalid reply, then a refusal of the correction.
  static Result<nlohmann::json> refused_after_an_invalid_reply(RefusedCorrectionCase given) {
    MockProcess mock(testing_documents::scenario(
        {{{"json", bad_amount()}}, {{"refusal", "I will not fill that in."}}}));
    const Client client(testing_support::mock_client_options(GetParam(), mock.base_url()));
    auto request = testing_documents::refund_request();
    request.correction = CorrectionPolicy{.style = given.style};
    if (given.budget > 0) request.budget = TokenBudget{.max_tokens = given.budget};
    return client.extract(request);
  }
  static void expect_refused(const Result<nlohmann::json>& result) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, ErrorKind::refused) << result.error().message;
    EXPECT_NE(result.error().message.find("I will not fill that in."), std::string::npos)
        << result.error().message;
    EXPECT_EQ(result.error().trace.attempts.size(), 2U);
  }
};

TEST_P(RefusedCorrection, ARefusedScopedCorrectionEndsAsRefused) {
  REQUIRE_MOCK();
  expect_refused(refused_after_an_invalid_reply({CorrectionStyle::scoped, 0}));
}

TEST_P(RefusedCorrection, ARefusedWholeCorrectionEndsAsRefused) {
  REQUIRE_MOCK();
  expect_refused(refused_after_an_invalid_reply({CorrectionStyle::whole_object, 0}));
}

TEST_P(RefusedCorrection, ARefusedCorrectionUnderATokenBudgetEndsAsRefused) {
  REQUIRE_MOCK();
  expect_refused(refused_after_an_invalid_reply({CorrectionStyle::scoped, 100'000}));
}

// The providers with a refusal signal in accord-mock's replies (mock_server/README.md).
INSTANTIATE_TEST_SUITE_P(Providers, RefusedCorrection,
                         ::testing::Values("openai-chat", "openai-responses", "anthropic"),
                         testing_support::ProviderParamName{});

}  // namespace
}  // namespace accord
