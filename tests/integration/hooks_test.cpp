// ClientOptions::hooks over real HTTP against accord-mock, for every provider: each event in the
// order the loop lives it, retries heard before their wait, redacted copies, and a hook that
// throws never breaking the call.
#include <gtest/gtest.h>

#include <algorithm>

#include "accord/client.hpp"
#include "fixtures/hook_recorder.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

class Hooked : public ::testing::TestWithParam<std::string> {
 protected:
  // Runs one refund extraction against `replies`, recording every hook's event as one line.
  Result<json> run(const std::vector<json>& replies, Hooks extra = {}) {
    mock_ = std::make_unique<MockProcess>(scenario(replies));
    auto options = testing_support::mock_client_options(GetParam(), mock_->base_url());
    options.hooks = recorded_.hooks(std::move(extra));
    client_ = std::make_unique<Client>(options);
    return client_->extract(refund_request());
  }

  std::unique_ptr<MockProcess> mock_;
  std::unique_ptr<Client> client_;
  testing_support::HookRecorder recorded_;
};

TEST_P(Hooked, EachEventArrivesInTheOrderTheLoopLivesIt) {
  auto result = run({{{"json", bad_amount()}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::vector<std::string> expected = {"request 1 first",
                                             "reply 1 ok",
                                             "issues 1 1",
                                             "correction 2 scoped_correction",
                                             "request 2 scoped_correction",
                                             "reply 2 ok",
                                             "finished 2 ok"};
  EXPECT_EQ(recorded_.events, expected);
}

TEST_P(Hooked, EveryEventOfOneCallCarriesOneIdentity) {
  auto result = run({{{"json", bad_amount()}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(recorded_.ids.size(), 2u);
  EXPECT_EQ(recorded_.ids[0], recorded_.ids[1]);
  ASSERT_TRUE(recorded_.finished);
  EXPECT_EQ(recorded_.finished->call.id, recorded_.ids[0]);
  EXPECT_EQ(recorded_.finished->call.provider, GetParam());
  EXPECT_EQ(recorded_.finished->call.model, "test-model");
  EXPECT_EQ(recorded_.finished->call.schema, "refund");
  EXPECT_EQ(recorded_.finished->call.server, "127.0.0.1");
  EXPECT_EQ(recorded_.finished->call.port, mock_->port());
  EXPECT_EQ(recorded_.finished->usage, result.trace().usage);
}

TEST_P(Hooked, RetryIsHeardBeforeTheRequestIsTriedAgain) {
  auto result = run({{{"status", 503}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::vector<std::string> expected = {"request 1 first", "retry 1 503", "reply 1 ok",
                                             "finished 1 ok"};
  EXPECT_EQ(recorded_.events, expected);
}

TEST_P(Hooked, FailedCallEndsWithItsErrorKind) {
  auto result = run({{{"status", 400}}});
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(recorded_.ended_with(result.error().kind));
}

TEST_P(Hooked, ThrowingHookNeverBreaksTheCall) {
  Hooks throwing;
  throwing.on_request_sent = [](const RequestSent&) { throw std::runtime_error("hook bug"); };
  throwing.on_issues_found = [](const IssuesFound&) { throw 42; };
  auto result = run({{{"json", bad_amount()}}, {{"json", kValidRefund}}}, throwing);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  EXPECT_EQ(client_->hook_exceptions(), 3u);  // two requests, one set of issues
}

// The model echoes the key as an unknown field: the issue a correction would quote names it, the
// hook's copy does not.
TEST_P(Hooked, IssuesReachTheHookWithoutTheKey) {
  json echoed = bad_amount();
  echoed["sk-test-SENTINEL-123"] = true;
  auto result = run({{{"json", echoed}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(recorded_.found.size(), 1u);
  const auto& issues = recorded_.found[0].issues;
  EXPECT_TRUE(std::any_of(issues.begin(), issues.end(), [](const Issue& issue) {
    return issue.code == IssueCode::unrecognized_keys;
  }));
  for (const auto& issue : issues) {
    EXPECT_EQ(issue.message.find("SENTINEL"), std::string::npos) << issue.message;
    EXPECT_EQ(issue.path.to_string().find("SENTINEL"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(Providers, Hooked, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

}  // namespace
}  // namespace accord
