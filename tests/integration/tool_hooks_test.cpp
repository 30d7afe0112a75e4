// ClientOptions::hooks and genai_tracing in run_tools, over real HTTP against accord-mock for
// every provider: a tool run fires the events an extraction does, the refused input's error
// result going back as the correction.
#include <gtest/gtest.h>

#include "accord/telemetry.hpp"
#include "accord/tools.hpp"
#include "fixtures/hook_recorder.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/recording_tracer.hpp"
#include "fixtures/transfer_replies.hpp"
#include "schemas/transfer.hpp"

namespace accord {
namespace {

using nlohmann::json;

using namespace testing_transfer;

// One reply calling the transfer tool once.
json transfer_calls(const std::string& id, const json& arguments) {
  return calls({call(id, arguments)});
}

Toolset transfer_tools() {
  return Toolset{
      Tool("transfer", "Moves money to an account.", examples::transfer_schema(), [](const json&) {
        return ToolOutput::ok({{"status", "sent"}});
      })};
}

class ToolHooked : public ::testing::TestWithParam<std::string> {
 protected:
  Result<ToolRun> run(const std::vector<json>& replies, Hooks hooks) {
    mock_ = std::make_unique<MockProcess>(json{{"replies", replies}}.dump());
    auto options = testing_support::mock_client_options(GetParam(), mock_->base_url());
    options.hooks = std::move(hooks);
    client_ = std::make_unique<Client>(options);
    return run_tools(*client_, {.prompt = "Send 450 eur to acct_9f3k2."}, transfer_tools());
  }

  // Every event as one line, in the order heard.
  Result<ToolRun> run_recorded(const std::vector<json>& replies) {
    return run(replies, recorded_.hooks());
  }

  std::unique_ptr<MockProcess> mock_;
  std::unique_ptr<Client> client_;
  testing_support::HookRecorder recorded_;
};

TEST_P(ToolHooked, EachEventArrivesInTheOrderTheRunLivesIt) {
  auto result = run_recorded({transfer_calls("call_a", over_cap()),
                              transfer_calls("call_b", kValid), final_text("Sent.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::vector<std::string> expected = {"request 1 first",
                                             "reply 1 tool_calls",
                                             "issues 1 1",
                                             "correction 2 whole_correction",
                                             "request 2 whole_correction",
                                             "reply 2 tool_calls",
                                             "request 3 tool_results",
                                             "reply 3 ok",
                                             "finished 3 ok"};
  EXPECT_EQ(recorded_.events, expected);
}

TEST_P(ToolHooked, EveryEventOfOneRunCarriesOneIdentity) {
  auto result = run_recorded({transfer_calls("call_a", kValid), final_text("Sent.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(recorded_.ids.size(), 2u);
  EXPECT_EQ(recorded_.ids[0], recorded_.ids[1]);
  ASSERT_TRUE(recorded_.finished);
  EXPECT_EQ(recorded_.finished->call.id, recorded_.ids[0]);
  EXPECT_EQ(recorded_.finished->call.provider, GetParam());
  EXPECT_EQ(recorded_.finished->call.model, "test-model");
  EXPECT_EQ(recorded_.finished->call.port, mock_->port());
  EXPECT_EQ(recorded_.finished->usage, result.trace().usage);
  EXPECT_EQ(recorded_.finished->attempts, result.value().steps.size());
}

TEST_P(ToolHooked, InvalidArgumentsReachTheHookAsTheirIssues) {
  auto result = run_recorded({transfer_calls("call_a", over_cap()),
                              transfer_calls("call_b", kValid), final_text("Sent.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(recorded_.found.size(), 1u);
  EXPECT_EQ(recorded_.found[0].issues, result.value().calls[0].issues);
}

TEST_P(ToolHooked, RetryIsHeardBeforeTheStepIsTriedAgain) {
  auto result =
      run_recorded({{{"status", 503}}, transfer_calls("call_a", kValid), final_text("Sent.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_GE(recorded_.events.size(), 3u);
  EXPECT_EQ(recorded_.events[1], "retry 1 503");
  EXPECT_EQ(recorded_.events[2], "reply 1 tool_calls");
}

TEST_P(ToolHooked, FailedRunEndsWithItsErrorKind) {
  auto result = run_recorded({{{"status", 400}}});
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(recorded_.ended_with(result.error().kind));
}

TEST_P(ToolHooked, ThrowingHookNeverBreaksTheRun) {
  Hooks throwing;
  throwing.on_request_sent = [](const RequestSent&) { throw std::runtime_error("hook bug"); };
  throwing.on_reply_received = [](const ReplyReceived&) { throw 42; };
  auto result = run({transfer_calls("call_a", kValid), final_text("Sent.")}, throwing);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().final_text, "Sent.");
  EXPECT_EQ(client_->hook_exceptions(), 4u);  // two requests, two replies
}

TEST_P(ToolHooked, StepRolesInTheTraceMatchTheEvents) {
  auto result = run_recorded({transfer_calls("call_a", over_cap()),
                              transfer_calls("call_b", kValid), final_text("Sent.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(attempts[0].role, AttemptRole::first);
  EXPECT_EQ(attempts[1].role, AttemptRole::whole_correction);
  EXPECT_EQ(attempts[2].role, AttemptRole::tool_results);
}

INSTANTIATE_TEST_SUITE_P(Providers, ToolHooked, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

class ToolTraced : public ::testing::TestWithParam<std::string> {
 protected:
  Result<ToolRun> run(const std::vector<json>& replies) {
    mock_ = std::make_unique<MockProcess>(json{{"replies", replies}}.dump());
    auto options = testing_support::mock_client_options(GetParam(), mock_->base_url());
    options.hooks = genai_tracing(tracer_);
    const Client client(options);
    return run_tools(client, {.prompt = "Send 450 eur to acct_9f3k2."}, transfer_tools());
  }

  std::unique_ptr<MockProcess> mock_;
  std::shared_ptr<RecordingTracer> tracer_ = std::make_shared<RecordingTracer>();
};

TEST_P(ToolTraced, RunSpanParentsOneChatSpanPerStep) {
  auto result = run({transfer_calls("call_a", kValid), final_text("Sent.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& spans = tracer_->spans;
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].name, "extract tools");
  EXPECT_EQ(spans[0].parent, -1);
  EXPECT_EQ(span_number(spans[0], "accord.attempts"), 2);
  for (std::size_t i = 1; i < spans.size(); ++i) {
    EXPECT_EQ(spans[i].name, "chat test-model");
    EXPECT_EQ(spans[i].parent, 0);
    EXPECT_EQ(span_text(spans[i], "gen_ai.provider.name"),
              make_provider(GetParam())->telemetry_name());
    EXPECT_EQ(span_number(spans[i], "accord.attempt"), static_cast<std::int64_t>(i));
  }
  const auto reasons = spans[1].attributes.find("gen_ai.response.finish_reasons");
  ASSERT_NE(reasons, spans[1].attributes.end());
  EXPECT_EQ(std::get<std::vector<std::string>>(reasons->second),
            std::vector<std::string>{"tool_calls"});
  for (const auto& span : spans) EXPECT_TRUE(span.ended) << span.name;
}

TEST_P(ToolTraced, RefusedArgumentsMarkTheirChatSpanAsAnError) {
  auto result = run({transfer_calls("call_a", over_cap()), transfer_calls("call_b", kValid),
                     final_text("Sent.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(tracer_->spans.size(), 4u);
  EXPECT_EQ(tracer_->spans[1].error, "invalid_output");
  EXPECT_TRUE(tracer_->spans[2].error.empty());
  EXPECT_TRUE(tracer_->spans[0].error.empty());
}

INSTANTIATE_TEST_SUITE_P(Providers, ToolTraced, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

}  // namespace
}  // namespace accord
