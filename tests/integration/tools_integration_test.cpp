// Validated tool calling over real HTTP against accord-mock, for every provider profile.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>

#include "accord/providers/provider.hpp"
#include "accord/tools.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/transfer_replies.hpp"
#include "schemas/transfer.hpp"

namespace accord {
namespace {

using nlohmann::json;

using namespace testing_transfer;

// The transfer case: 900 eur (over the cap), then 450 eur, then the answer.
std::vector<json> rejected_then_valid() {
  return {calls({call("call_a", over_cap())}), calls({call("call_b", kValid)}),
          final_text("Sent 450 eur instead.")};
}

// One tool result as a request carried it, whatever the provider's shape.
struct SentResult {
  std::string id;
  std::string content;
  bool is_error = false;
};

// Whether the provider's wire holds a conditional rule as keywords (OpenAI's anyOf branches, a
// local server's if/then), by its capabilities.
bool sends_conditionals(const Provider& provider) {
  const auto& caps = provider.schema_capabilities();
  if (caps.rule_branches) return true;
  const auto handling = caps.keyword_handling.find("if");
  return caps.full_schema && (handling == caps.keyword_handling.end() ||
                              handling->second == KeywordHandling::enforced ||
                              handling->second == KeywordHandling::unknown);
}

class ToolLoop : public ::testing::TestWithParam<std::string> {
 protected:
  Result<ToolRun> run(const std::vector<json>& replies, ToolRequest request = {},
                      const std::string& api_key = "") {
    mock_ = std::make_unique<MockProcess>(json{{"replies", replies}}.dump());
    auto options = testing_support::mock_client_options(GetParam(), mock_->base_url());
    if (!api_key.empty()) options.api_key = api_key;
    const Client client(options);
    if (request.prompt.empty()) request.prompt = "Send 450 eur to acct_9f3k2.";
    return run_tools(client, request, toolset());
  }

  Toolset toolset() {
    return Toolset{
        Tool("transfer", "Moves money to an account.", examples::transfer_schema(),
             [this](const json& input) {
               ++handler_runs_;
               inputs_.push_back(input);
               if (fail_handler_) return ToolOutput::failure("the bank is closed");
               return ToolOutput::ok(
                   {{"transferId", "tr_" + std::to_string(handler_runs_)}, {"status", "sent"}});
             }),
        Tool("balance", "Reads an account's balance.",
             object({{"accountId", string().regex("^acct_[a-z0-9]+$")}}),
             [](const json&) {
               return ToolOutput::ok({{"balance", 1200}});
             }),
    };
  }

  // The JSON bodies accord-mock received, in order.
  json bodies() const {
    json out = json::array();
    for (const auto& entry : mock_->requests()) out.push_back(entry["body"]);
    return out;
  }

  // Every tool result a request body carries, in order.
  static std::vector<SentResult> results_in(const json& body) {
    std::vector<SentResult> out;
    const std::string provider = GetParam();
    if (provider.ends_with("-responses")) {  // OpenAI's and Azure's Responses API
      for (const auto& item : body["input"]) {
        if (item.value("type", "") == "function_call_output")
          out.push_back({item["call_id"], item["output"], false});
      }
    } else if (provider == "bedrock") {
      for (const auto& message : body["messages"]) {
        if (message["role"] != "user") continue;
        for (const auto& block : message["content"]) {
          if (!block.contains("toolResult")) continue;
          const auto& result = block["toolResult"];
          out.push_back({result["toolUseId"], result["content"][0]["text"],
                         result.value("status", "") == "error"});
        }
      }
    } else if (provider == "anthropic") {
      for (const auto& message : body["messages"]) {
        if (message["role"] != "user" || !message["content"].is_array()) continue;
        for (const auto& block : message["content"]) {
          if (block.value("type", "") == "tool_result")
            out.push_back({block["tool_use_id"], block["content"], block.value("is_error", false)});
        }
      }
    } else if (provider == "gemini") {
      // A text result goes under "output", a failed one under "error", an object as itself.
      for (const auto& content : body["contents"]) {
        for (const auto& part : content["parts"]) {
          if (!part.contains("functionResponse")) continue;
          const json& response = part["functionResponse"]["response"];
          const bool error = response.contains("error");
          const json& value = error                         ? response["error"]
                              : response.contains("output") ? response["output"]
                                                            : response;
          out.push_back({part["functionResponse"].value("id", ""),
                         value.is_string() ? value.get<std::string>() : value.dump(), error});
        }
      }
    } else {
      for (const auto& message : body["messages"]) {
        // Ollama's results name their tool instead of a call id.
        if (message["role"] == "tool")
          out.push_back({message.value("tool_call_id", ""), message["content"], false});
      }
    }
    return out;
  }

  // The transfer tool's input schema and description as the first request sent them, read where
  // the provider's encoder writes them (asked of it with the same tools, so a new provider needs
  // no entry here); null when the body has nothing there.
  json sent_tool(const json& body) {
    const auto provider = make_provider(GetParam());
    const auto specs = toolset().specs(*provider);
    CallSpec call{.base_url = "http://127.0.0.1/v1", .model = "test-model", .tools = specs};
    call.turns.push_back(Turn{.role = Turn::Role::user, .text = "Send 450 eur to acct_9f3k2."});
    const json reference = json::parse(provider->encode(call).body);
    const auto description = pointer_to(reference, specs[0].description);
    const auto schema = pointer_to(reference, json::parse(specs[0].input.schema.dump()));
    if (!description || !schema || !body.contains(*description) || !body.contains(*schema))
      return nullptr;
    return {{"description", body[*description]}, {"schema", body[*schema]}};
  }

  // Where `value` first occurs in `document`, depth first.
  static std::optional<json::json_pointer> pointer_to(
      const json& document, const json& value,
      const json::json_pointer& here = json::json_pointer()) {
    if (document == value) return here;
    if (document.is_object()) {
      for (const auto& [key, member] : document.items()) {
        if (auto found = pointer_to(member, value, here / key)) return found;
      }
    } else if (document.is_array()) {
      for (std::size_t i = 0; i < document.size(); ++i) {
        if (auto found = pointer_to(document[i], value, here / i)) return found;
      }
    }
    return std::nullopt;
  }

  // Whether the provider marks a failed tool result apart from its text (Anthropic's is_error,
  // Gemini's "error" response, Bedrock's status: error) or carries the text alone: asked of its
  // encoder, which writes a failed result and a good one with the same text differently or not.
  static bool has_error_flag() {
    const auto body_with = [](bool is_error) {
      CallSpec call{.base_url = "http://127.0.0.1/v1", .model = "test-model"};
      call.turns.push_back(Turn{.role = Turn::Role::user, .text = "Send 450 eur."});
      Turn assistant{.role = Turn::Role::assistant};
      assistant.tool_calls.push_back({"call_a", "transfer", kValid.dump()});
      call.turns.push_back(std::move(assistant));
      Turn results{.role = Turn::Role::tool_results};
      results.results.push_back({"call_a", "transfer", "the bank is closed", is_error});
      call.turns.push_back(std::move(results));
      return make_provider(GetParam())->encode(call).body;
    };
    return body_with(true) != body_with(false);
  }

  std::unique_ptr<MockProcess> mock_;
  int handler_runs_ = 0;
  std::vector<json> inputs_;
  bool fail_handler_ = false;
};

TEST_P(ToolLoop, ValidCallRunsTheHandlerOnceAndReturnsTheFinalText) {
  auto result = run({calls({call("call_a", kValid)}), final_text("Sent 450 eur.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(handler_runs_, 1);
  EXPECT_EQ(result.value().handler_runs(), 1u);
  EXPECT_EQ(result.value().final_text, "Sent 450 eur.");
  ASSERT_EQ(result.value().calls.size(), 1u);
  EXPECT_EQ(result.value().calls[0].verdict, CallVerdict::ran);
  EXPECT_EQ(result.value().calls[0].result["transferId"], "tr_1");
  EXPECT_EQ(result.value().steps.size(), 2u);
}

TEST_P(ToolLoop, HandlerGetsTheValidatedInput) {
  auto result = run({calls({call("call_a", kValid)}), final_text("ok")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(inputs_.size(), 1u);
  EXPECT_EQ(inputs_[0], kValid);
}

TEST_P(ToolLoop, HandlerResultGoesBackAsAToolResult) {
  auto result = run({calls({call("call_a", kValid)}), final_text("ok")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const json sent = bodies();
  ASSERT_EQ(sent.size(), 2u);
  const auto results = results_in(sent[1]);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].id, "call_a");
  EXPECT_EQ(json::parse(results[0].content), json({{"transferId", "tr_1"}, {"status", "sent"}}));
  EXPECT_FALSE(results[0].is_error);
}

TEST_P(ToolLoop, InvalidCallNeverRunsTheHandler) {
  auto result = run(rejected_then_valid());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(handler_runs_, 1);
  ASSERT_EQ(inputs_.size(), 1u);
  EXPECT_EQ(inputs_[0]["amount"], 450);
  const auto& calls_made = result.value().calls;
  ASSERT_EQ(calls_made.size(), 2u);
  EXPECT_EQ(calls_made[0].verdict, CallVerdict::rejected);
  ASSERT_EQ(calls_made[0].issues.size(), 1u);
  EXPECT_EQ(calls_made[0].issues[0].message, "eur transfers are capped at 500");
  EXPECT_EQ(calls_made[1].verdict, CallVerdict::ran);
}

TEST_P(ToolLoop, RejectedCallsAreListedBesideTheCallsThatRan) {
  auto result = run(rejected_then_valid());
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.value().rejected().size(), 1u);
  EXPECT_EQ(result.value().rejected()[0]->call.id, "call_a");
  EXPECT_EQ(result.value().calls.size(), 2u);
}

TEST_P(ToolLoop, FollowUpCarriesTheIssuesAsAnErrorResult) {
  auto result = run(rejected_then_valid());
  ASSERT_TRUE(result.ok()) << result.error().message;
  const json sent = bodies();
  ASSERT_EQ(sent.size(), 3u);
  const auto results = results_in(sent[1]);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].id, "call_a");
  EXPECT_EQ(results[0].content,
            "That input failed validation:\n\u2716 eur transfers are capped at 500\n"
            "Call the tool again with corrected input.");
  EXPECT_EQ(results[0].is_error, has_error_flag());
}

TEST_P(ToolLoop, OnlyFailedResultsAreMarkedAsErrors) {
  auto result = run(rejected_then_valid());
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto results = results_in(bodies()[2]);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].is_error, has_error_flag());
  EXPECT_FALSE(results[1].is_error);
}

TEST_P(ToolLoop, UnknownToolGetsTheNamesOfTheToolsThatExist) {
  auto result = run({calls({call("call_a", kValid, "send_money")}), final_text("sorry")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(handler_runs_, 0);
  ASSERT_EQ(result.value().calls.size(), 1u);
  EXPECT_EQ(result.value().calls[0].verdict, CallVerdict::unknown_tool);
  const auto results = results_in(bodies()[1]);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].content,
            "There is no tool named \"send_money\". The tools that exist: transfer, balance.");
  EXPECT_EQ(results[0].is_error, has_error_flag());
}

TEST_P(ToolLoop, BrokenArgumentTextIsRejectedNotACrash) {
  auto result = run({calls({call("call_a", R"({"amount": 450, "curr)")}),
                     calls({call("call_b", kValid)}), final_text("done")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(handler_runs_, 1);
  const auto& first = result.value().calls[0];
  EXPECT_EQ(first.verdict, CallVerdict::rejected);
  ASSERT_FALSE(first.issues.empty());
  // OpenAI sends the text itself; Anthropic's input (Gemini's args) cannot be broken JSON, so the
  // mock sends the text as a JSON string, which is the wrong type.
  EXPECT_EQ(first.issues[0].code,
            has_error_flag() ? IssueCode::invalid_type : IssueCode::invalid_json);
  const auto results = results_in(bodies()[1]);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_NE(results[0].content.find("That input failed validation:\n\u2716 "), std::string::npos);
}

TEST_P(ToolLoop, TwoCallsInOneReplyAreBothAnsweredInOrderInOneFollowUp) {
  auto result = run({calls({call("call_a", over_cap()), call("call_b", kValid)}),
                     final_text("Sent the 450 eur one.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(handler_runs_, 1);
  const json sent = bodies();
  ASSERT_EQ(sent.size(), 2u);
  const auto results = results_in(sent[1]);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].id, "call_a");
  EXPECT_NE(results[0].content.find("eur transfers are capped at 500"), std::string::npos);
  EXPECT_EQ(results[0].is_error, has_error_flag());
  EXPECT_EQ(results[1].id, "call_b");
  EXPECT_EQ(json::parse(results[1].content)["status"], "sent");
  EXPECT_FALSE(results[1].is_error);
  ASSERT_EQ(result.value().steps.size(), 2u);
  EXPECT_EQ(result.value().steps[0].calls, (std::vector<std::size_t>{0, 1}));
}

TEST_P(ToolLoop, StepLimitIsAnErrorOfItsOwnKind) {
  auto result = run({calls({call("call_a", kValid)})}, {.max_steps = 3});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::step_limit);
  EXPECT_EQ(result.trace().attempts.size(), 3u);
  EXPECT_EQ(bodies().size(), 3u);
}

TEST_P(ToolLoop, CallsOfTheLastAllowedTurnDoNotRun) {
  auto result = run({calls({call("call_a", kValid)})}, {.max_steps = 3});
  ASSERT_FALSE(result.ok());
  // Turns 1 and 2 were answered; turn 3's call had no turn left to hear its result.
  EXPECT_EQ(handler_runs_, 2);
}

TEST_P(ToolLoop, ExhaustedCorrectionsFailWithEveryStepRecorded) {
  auto result = run({calls({call("call_a", over_cap())})});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::invalid_after_retries);
  EXPECT_EQ(handler_runs_, 0);
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  for (const auto& attempt : result.trace().attempts) {
    ASSERT_EQ(attempt.issues.size(), 1u);
    EXPECT_EQ(attempt.issues[0].message, "eur transfers are capped at 500");
  }
  EXPECT_NE(result.error().message.find("transfer"), std::string::npos);
  EXPECT_NE(result.error().message.find("eur transfers are capped at 500"), std::string::npos);
}

TEST_P(ToolLoop, ValidCallBesideAnExhaustedOneIsSkippedNotRun) {
  auto result =
      run({calls({call("c1", over_cap())}), calls({call("c2", over_cap()), call("c3", kValid)})});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::invalid_after_retries);
  EXPECT_EQ(handler_runs_, 0);
}

TEST_P(ToolLoop, MoreCorrectionsPerToolAllowMoreRejections) {
  auto result = run({calls({call("c1", over_cap())}), calls({call("c2", over_cap())}),
                     calls({call("c3", kValid)}), final_text("done")},
                    {.corrections_per_tool = 2});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().rejected().size(), 2u);
  EXPECT_EQ(handler_runs_, 1);
}

TEST_P(ToolLoop, HandlerErrorGoesBackAsAnErrorResult) {
  fail_handler_ = true;
  auto result = run({calls({call("call_a", kValid)}), final_text("The bank is closed.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().calls[0].verdict, CallVerdict::handler_error);
  EXPECT_EQ(result.value().handler_runs(), 1u);
  const auto results = results_in(bodies()[1]);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].content, "the bank is closed");
  EXPECT_EQ(results[0].is_error, has_error_flag());
}

TEST_P(ToolLoop, UsageIsKeptPerStepAndSummed) {
  auto result = run({calls({call("call_a", kValid)}), final_text("done")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& steps = result.value().steps;
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_GT(steps[0].attempt.usage.total_tokens, 0);
  EXPECT_GT(steps[1].attempt.usage.total_tokens, 0);
  EXPECT_EQ(result.value().usage.total_tokens,
            steps[0].attempt.usage.total_tokens + steps[1].attempt.usage.total_tokens);
  EXPECT_EQ(result.trace().usage, result.value().usage);
}

TEST_P(ToolLoop, FirstRequestStatesTheCapInWords) {
  auto result = run({final_text("nothing to do")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const json tool = sent_tool(bodies()[0]);
  ASSERT_FALSE(tool.is_null());
  EXPECT_NE(tool["schema"].dump().find("eur transfers are capped at 500"), std::string::npos);
  EXPECT_NE(tool["description"].get<std::string>().find("eur transfers are capped at 500"),
            std::string::npos);
}

// Providers whose table takes no rule branches get the cap in words only (Anthropic, Gemini,
// Bedrock, Mistral); the others get keywords too (anyOf branches, if/then), and every provider's
// Report says the rule is also stated in the description.
TEST_P(ToolLoop, ReportSaysTheCapIsStatedInTheDescription) {
  const auto provider = make_provider(GetParam());
  const auto specs = toolset().specs(*provider);
  ASSERT_EQ(specs.size(), 2u);
  bool found = false;
  for (const auto& entry : specs[0].input.report.entries()) {
    if (entry.rule == R"(rule if currency == "eur" then amount <= 500)") {
      found = true;
      EXPECT_NE(entry.why.find("stated in the description"), std::string::npos) << entry.why;
      EXPECT_EQ(entry.fate, sends_conditionals(*provider) ? Fate::keyword : Fate::description);
    }
  }
  EXPECT_TRUE(found);
}

TEST_P(ToolLoop, OpenAIRequestsAskForOneCallAtATime) {
  auto result = run({final_text("ok")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const json first = bodies()[0];
  const std::string path = mock_->requests()[0]["path"];
  if (!path.ends_with("/chat/completions") && !path.ends_with("/responses")) {
    EXPECT_FALSE(first.contains(
        "parallel_tool_calls"));  // not an Anthropic, Gemini, Bedrock or Ollama field
  } else {
    EXPECT_EQ(first["parallel_tool_calls"], false);
  }
}

TEST_P(ToolLoop, FinalAnswerIsValidatedAgainstTheFinalSchema) {
  const Schema receipt = object({{"transferId", string().starts_with("tr_")}});
  auto result = run({calls({call("call_a", kValid)}), {{"json", {{"transferId", "tr_1"}}}}},
                    {.final_schema = receipt});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_TRUE(result.value().final_value.has_value());
  EXPECT_EQ(*result.value().final_value, json({{"transferId", "tr_1"}}));
}

TEST_P(ToolLoop, InvalidFinalAnswerIsCorrectedOnce) {
  const Schema receipt = object({{"transferId", string().starts_with("tr_")}});
  auto result = run({calls({call("call_a", kValid)}),
                     {{"json", {{"transferId", "x"}}}},
                     {{"json", {{"transferId", "tr_1"}}}}},
                    {.final_schema = receipt});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().steps.size(), 3u);
  EXPECT_FALSE(result.value().steps[1].attempt.issues.empty());
  EXPECT_EQ(*result.value().final_value, json({{"transferId", "tr_1"}}));
}

TEST_P(ToolLoop, FinalAnswerStillInvalidFailsAfterTheCorrection) {
  const Schema receipt = object({{"transferId", string().starts_with("tr_")}});
  auto result = run({{{"json", {{"transferId", "x"}}}}}, {.final_schema = receipt});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::invalid_after_retries);
  EXPECT_EQ(result.trace().attempts.size(), 2u);
}

TEST_P(ToolLoop, RefusalEndsTheRunAsRefused) {
  if (!make_provider(GetParam())->schema_capabilities().signals_refusal) {
    GTEST_SKIP() << GetParam() << " has no refusal signal";
  }
  auto result = run({{{"refusal", "I can't move money."}}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::refused);
}

// "450" for the amount: the repair reads it as 450, so the handler runs on the first call.
TEST_P(ToolLoop, ArgumentsARepairMakesValidRunWithoutACorrection) {
  json loose = kValid;
  loose["amount"] = "450";
  auto result = run({calls({call("call_a", loose)}), final_text("Sent.")});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(inputs_.size(), 1u);
  EXPECT_EQ(inputs_[0], kValid);
  const auto& record = result.value().calls.at(0);
  EXPECT_EQ(record.verdict, CallVerdict::ran);
  ASSERT_EQ(record.repairs.size(), 1u);
  EXPECT_EQ(describe(record.repairs[0]), "number_from_string at amount: \"450\" -> 450");
  EXPECT_EQ(result.value().steps.at(0).attempt.repairs, record.repairs);
}

TEST_P(ToolLoop, ArgumentsAreJudgedAsSentWhenRepairIsOff) {
  json loose = kValid;
  loose["amount"] = "450";
  auto result =
      run({calls({call("call_a", loose)}), calls({call("call_b", kValid)}), final_text("Sent.")},
          {.repair = RepairPolicy::off});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().calls.at(0).verdict, CallVerdict::rejected);
  EXPECT_TRUE(result.value().calls.at(0).repairs.empty());
  EXPECT_EQ(handler_runs_, 1);
}

// A hostile server echoes the key into a tool call's arguments (as an unknown field, so it lands
// in the issues) and into a refusal: neither the error nor the trace keeps it.
TEST_P(ToolLoop, KeyEchoedByTheModelIsKeptOutOfTheErrorAndTrace) {
  if (!make_provider(GetParam())->schema_capabilities().signals_refusal) {
    GTEST_SKIP() << GetParam() << " has no refusal signal";
  }
  const std::string key = "sk-tool-SENTINEL-51c2";
  json arguments = kValid;
  arguments[key] = true;
  auto result = run({calls({call("call_a", arguments)}), {{"refusal", "no, " + key}}}, {}, key);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::refused);
  const std::string written =
      result.error().message + result.trace().to_json().dump() + result.trace().to_text();
  EXPECT_EQ(written.find("SENTINEL-51c2"), std::string::npos) << written;
  EXPECT_NE(written.find("[redacted]"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Providers, ToolLoop, ::testing::ValuesIn(::accord::provider_names()),
                         accord::testing_support::ProviderParamName());

}  // namespace
}  // namespace accord
