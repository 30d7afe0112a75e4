// ClientOptions::hooks over real HTTP against accord-mock, for every provider: each event in the
// order the loop lives it, retries heard before their wait, redacted copies, and a hook that
// throws never breaking the call.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

#include "accord/client.hpp"
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
    options.hooks = recording(std::move(extra));
    client_ = std::make_unique<Client>(options);
    return client_->extract(refund_request());
  }

  Hooks recording(Hooks extra) {
    Hooks hooks;
    hooks.on_request_sent = [this, extra](const RequestSent& e) {
      log(line_of("request", e.attempt, to_string(e.role)));
      ids_.push_back(e.call.id);
      if (extra.on_request_sent) extra.on_request_sent(e);
    };
    hooks.on_reply_received = [this](const ReplyReceived& e) {
      log(line_of("reply", e.attempt, to_string(e.status)));
    };
    hooks.on_issues_found = [this, extra](const IssuesFound& e) {
      log(line_of("issues", e.attempt, std::to_string(e.issues.size())));
      found_.push_back(e);
      if (extra.on_issues_found) extra.on_issues_found(e);
    };
    hooks.on_correction_sent = [this](const RequestSent& e) {
      log(line_of("correction", e.attempt, to_string(e.role)));
    };
    hooks.on_retry_scheduled = [this](const RetryScheduled& e) {
      log(line_of("retry", e.attempt, std::to_string(e.http_status)));
    };
    hooks.on_call_finished = [this](const CallFinished& e) {
      log(line_of("finished", e.attempts, e.error ? std::string(to_string(*e.error)) : "ok"));
      finished_ = e;
    };
    return hooks;
  }

  static std::string line_of(const std::string& what, std::size_t n, std::string_view detail) {
    return what + " " + std::to_string(n) + " " + std::string(detail);
  }
  void log(std::string line) {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(line));
  }

  std::unique_ptr<MockProcess> mock_;
  std::unique_ptr<Client> client_;
  std::mutex mutex_;
  std::vector<std::string> events_;
  std::vector<std::uint64_t> ids_;
  std::vector<IssuesFound> found_;
  std::optional<CallFinished> finished_;
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
  EXPECT_EQ(events_, expected);
}

TEST_P(Hooked, EveryEventOfOneCallCarriesOneIdentity) {
  auto result = run({{{"json", bad_amount()}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(ids_.size(), 2u);
  EXPECT_EQ(ids_[0], ids_[1]);
  ASSERT_TRUE(finished_);
  EXPECT_EQ(finished_->call.id, ids_[0]);
  EXPECT_EQ(finished_->call.provider, GetParam());
  EXPECT_EQ(finished_->call.model, "test-model");
  EXPECT_EQ(finished_->call.schema, "refund");
  EXPECT_EQ(finished_->call.server, "127.0.0.1");
  EXPECT_EQ(finished_->call.port, mock_->port());
  EXPECT_EQ(finished_->usage, result.trace().usage);
}

TEST_P(Hooked, RetryIsHeardBeforeTheRequestIsTriedAgain) {
  auto result = run({{{"status", 503}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::vector<std::string> expected = {"request 1 first", "retry 1 503", "reply 1 ok",
                                             "finished 1 ok"};
  EXPECT_EQ(events_, expected);
}

TEST_P(Hooked, FailedCallEndsWithItsErrorKind) {
  auto result = run({{{"status", 400}}});
  ASSERT_FALSE(result.ok());
  ASSERT_TRUE(finished_);
  EXPECT_EQ(finished_->error, result.error().kind);
  EXPECT_EQ(events_.back(), "finished 1 " + std::string(to_string(result.error().kind)));
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
  ASSERT_EQ(found_.size(), 1u);
  const auto& issues = found_[0].issues;
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
