// run_tools with a final schema on a model that takes no response format (a Bedrock model not
// listed for native structured output, or a client set to the forced tool): the final schema goes
// as one more tool, final_answer, beside the run's tools, with a tool choice that makes the model
// call a tool; a call of it is the final answer, judged and corrected like any tool input. Over
// real HTTP against accord-mock, which refuses outputConfig for such a Bedrock model.
#include <gtest/gtest.h>

#include <stdexcept>

#include "accord/hooks.hpp"
#include "accord/tools.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"
#include "fixtures/transfer_replies.hpp"
#include "schemas/refund.hpp"
#include "schemas/transfer.hpp"

namespace accord {
namespace {

using nlohmann::json;
using testing_documents::kValidRefund;
using testing_documents::swapped_dates;
using namespace testing_transfer;

// Not among the models AWS lists for native structured output.
constexpr const char* kFinalToolBedrockModel = "meta.llama3-3-70b-instruct-v1:0";

Toolset transfer_tools(int& handler_runs) {
  return Toolset{Tool("transfer", "Moves money to an account.", examples::transfer_schema(),
                      [&handler_runs](const json&) {
                        ++handler_runs;
                        return ToolOutput::ok({{"transferId", "tr_1"}, {"status", "sent"}});
                      })};
}

ToolRequest refund_run() {
  return {.prompt = "Send 450 eur to acct_9f3k2, then report the refund.",
          .final_schema = examples::refund_schema()};
}

class FinalAnswerTool : public ::testing::Test {
 protected:
  Result<ToolRun> run(const std::string& provider, const std::vector<json>& replies,
                      const ClientOptions& changes = {}) {
    mock_ = std::make_unique<MockProcess>(json{{"replies", replies}}.dump());
    auto options = testing_support::mock_client_options(provider, mock_->base_url());
    options.model = provider == "bedrock" ? kFinalToolBedrockModel : options.model;
    options.mode = changes.mode;
    options.max_tokens = changes.max_tokens;
    options.parameters = changes.parameters;
    options.hooks = changes.hooks;
    return run_tools(Client(options), refund_run(), transfer_tools(handler_runs_));
  }
  [[nodiscard]] json body(std::size_t n) const { return mock_->requests().at(n)["body"]; }

  std::unique_ptr<MockProcess> mock_;
  int handler_runs_ = 0;
};

TEST_F(FinalAnswerTool, BedrockModelWithoutNativeOutputEndsWithTheValidatedFinalValue) {
  REQUIRE_MOCK();
  const auto result = run("bedrock", {calls({call("tu_1", kValid)}),
                                      calls({call("tu_2", kValidRefund, "final_answer")})});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().final_value, kValidRefund);
  EXPECT_EQ(handler_runs_, 1);
  const json first = body(0);
  EXPECT_FALSE(first.contains("outputConfig")) << first.dump();
  // Llama takes no toolChoice (AWS's ToolChoice reference): final_answer is offered, not forced.
  EXPECT_FALSE(first["toolConfig"].contains("toolChoice")) << first.dump();
  const auto& tools = first["toolConfig"]["tools"];
  ASSERT_EQ(tools.size(), 2u);
  EXPECT_EQ(tools[0]["toolSpec"]["name"], "transfer");
  EXPECT_EQ(tools[1]["toolSpec"]["name"], "final_answer");
  const auto& note = result.value().steps.at(0).attempt.note;
  EXPECT_NE(note.find("the final schema went as the tool final_answer"), std::string::npos) << note;
  EXPECT_NE(note.find("not listed for native structured output"), std::string::npos) << note;
}

TEST_F(FinalAnswerTool, InvalidFinalInputIsCorrectedAsAnErrorToolResult) {
  REQUIRE_MOCK();
  const auto result = run("bedrock", {calls({call("tu_1", swapped_dates(), "final_answer")}),
                                      calls({call("tu_2", kValidRefund, "final_answer")})});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().final_value, kValidRefund);
  const auto& steps = result.value().steps;
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_FALSE(steps[0].attempt.issues.empty());
  EXPECT_EQ(steps[1].attempt.role, AttemptRole::whole_correction);
  const json answer = body(1)["messages"].back()["content"].at(0)["toolResult"];
  EXPECT_EQ(answer["toolUseId"], "tu_1");
  EXPECT_EQ(answer["status"], "error");
  const std::string said = answer["content"][0]["text"];
  EXPECT_NE(said.find("That final answer failed validation"), std::string::npos) << said;
  EXPECT_NE(said.find("refundDate"), std::string::npos) << said;
}

TEST_F(FinalAnswerTool, FinalInputStillInvalidAfterItsCorrectionsEndsTheRun) {
  REQUIRE_MOCK();
  const auto result = run("bedrock", {calls({call("tu_1", swapped_dates(), "final_answer")})});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::invalid_after_retries);
  EXPECT_EQ(mock_->requests().size(), 2u);  // the first answer and its one correction
}

TEST_F(FinalAnswerTool, UserToolNamedFinalAnswerIsRefusedBeforeSending) {
  REQUIRE_MOCK();
  MockProcess mock(testing_documents::scenario({calls({call("tu_1", kValid)})}));
  auto options = testing_support::mock_client_options("bedrock", mock.base_url());
  options.model = kFinalToolBedrockModel;
  const Toolset clashing{Tool("final_answer", "Files the answer.", examples::transfer_schema(),
                              [](const json&) { return ToolOutput::ok("filed"); })};
  try {
    (void)run_tools(Client(options), refund_run(), clashing);
    FAIL() << "the run was sent";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the tool \"final_answer\""), std::string::npos) << message;
    EXPECT_NE(message.find("the final schema"), std::string::npos) << message;
  }
  EXPECT_TRUE(mock.requests().empty());
}

TEST_F(FinalAnswerTool, AnthropicClientInForcedToolModeAsksForAnyTool) {
  REQUIRE_MOCK();
  ClientOptions forced;
  forced.mode = OutputMode::forced_tool;
  const auto result =
      run("anthropic", {calls({call("toolu_1", kValidRefund, "final_answer")})}, forced);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().final_value, kValidRefund);
  const json first = body(0);
  EXPECT_FALSE(first.contains("output_config")) << first.dump();
  EXPECT_EQ(first["tool_choice"], json({{"type", "any"}}));
  EXPECT_EQ(first["tools"].back()["name"], "final_answer");
}

TEST_F(FinalAnswerTool, WithThinkingTheToolChoiceIsAuto) {
  REQUIRE_MOCK();
  ClientOptions thinking;
  thinking.mode = OutputMode::forced_tool;
  thinking.max_tokens = 2048;
  thinking.parameters.thinking_budget = 1024;
  const auto result =
      run("anthropic", {calls({call("toolu_1", kValidRefund, "final_answer")})}, thinking);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(body(0)["tool_choice"], json({{"type", "auto"}}));
}

// A server may give every call the same empty id: the final answer is known by its place.
TEST_F(FinalAnswerTool, ACallBesideTheFinalAnswerWithTheSameEmptyIdStillRuns) {
  REQUIRE_MOCK();
  const auto result =
      run("bedrock", {calls({call("", swapped_dates(), "final_answer"), call("", kValid)}),
                      calls({call("tu_2", kValidRefund, "final_answer")})});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(handler_runs_, 1);
  ASSERT_FALSE(result.value().calls.empty());
  EXPECT_EQ(result.value().calls.front().call.name, "transfer");
}

TEST_F(FinalAnswerTool, TheIssuesHookHearsTheFinalAnswerAndTheCallsBesideItOnce) {
  REQUIRE_MOCK();
  std::vector<Issues> heard;
  ClientOptions hooked;
  hooked.hooks.on_issues_found = [&](const IssuesFound& found) { heard.push_back(found.issues); };
  const auto result =
      run("bedrock",
          {calls({call("tu_1", swapped_dates(), "final_answer"), call("tu_2", over_cap())}),
           calls({call("tu_3", kValidRefund, "final_answer")})},
          hooked);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(heard.size(), 1u);
  const Issues& issues = heard.front();
  ASSERT_GE(issues.size(), 2u);
  EXPECT_EQ(issues.front().message, "refundDate is before orderDate");
  EXPECT_EQ(issues, result.value().steps.front().attempt.issues);
}

}  // namespace
}  // namespace accord
