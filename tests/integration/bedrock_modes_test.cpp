// Bedrock's structured output chosen per model over real HTTP against accord-mock: a model AWS
// lists for native structured output gets outputConfig.textFormat, any other the forced
// toolConfig tool, and the loop's behaviours (correction, refusal, truncation, streaming, async)
// hold in both; ClientOptions::mode and ExtractRequest::mode override the choice.
#include <gtest/gtest.h>
#include <httplib.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;
using testing_support::mock_client_options;

struct ModelCase {
  const char* label;
  const char* model;
  bool native;
  bool tool_choice;  // the output tool is forced (the model takes a toolChoice)
};

const ModelCase kNative{"native", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", true, false};
const ModelCase kForced{"forced", "anthropic.claude-3-5-haiku-20241022-v1:0", false, true};
// Llama takes no toolChoice (AWS's ToolChoice reference): the tool is offered, its text read too.
const ModelCase kOffered{"offered", "meta.llama3-3-70b-instruct-v1:0", false, false};

ExtractRequest refund_request() {
  return {.schema = examples::refund_schema(),
          .prompt = "Extract the refund.",
          .system = "You extract refunds.",
          .name = "refund"};
}

// Whether a Converse body asks for native structured output (and not the output tool), with the
// tool forced only where the model takes a toolChoice.
bool asks_natively(const json& body, bool tool_choice = true) {
  const bool native = body.contains("outputConfig");
  const bool tool = body.contains("toolConfig");
  EXPECT_NE(native, tool) << body.dump();
  if (tool) {
    EXPECT_EQ(body["toolConfig"]["tools"].back()["toolSpec"]["name"], "refund");
    EXPECT_EQ(body["toolConfig"].contains("toolChoice"), tool_choice) << body.dump();
  }
  if (tool && tool_choice) {
    EXPECT_EQ(body["toolConfig"]["toolChoice"]["tool"]["name"], "refund");
  }
  return native;
}

class BedrockModes : public ::testing::TestWithParam<ModelCase> {
 protected:
  Result<json> extract(const std::vector<json>& replies, ExtractRequest request = refund_request(),
                       TruncationRecovery truncation = {}) {
    mock_ = std::make_unique<MockProcess>(scenario(replies));
    ClientOptions options = mock_client_options("bedrock", mock_->base_url());
    options.model = GetParam().model;
    options.truncation = truncation;
    return Client(options).extract(request);
  }
  [[nodiscard]] json body(std::size_t n) const { return mock_->requests().at(n)["body"]; }

  std::unique_ptr<MockProcess> mock_;
};

TEST_P(BedrockModes, TheFirstRequestAsksInTheModelsModeAndTheTraceSaysWhy) {
  auto result = extract({{{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  EXPECT_EQ(asks_natively(body(0), GetParam().tool_choice), GetParam().native);
  const std::string& note = result.trace().attempts.at(0).note;
  EXPECT_NE(note.find(GetParam().native ? "takes native structured output" : "is not listed"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find(GetParam().model), std::string::npos) << note;
}

TEST_P(BedrockModes, InvalidReplyIsCorrectedInTheSameMode) {
  auto result = extract({{{"json", swapped_dates()}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_EQ(result.trace().attempts[0].issues.at(0).message, "refundDate is before orderDate");
  EXPECT_EQ(asks_natively(body(1), GetParam().tool_choice), GetParam().native);
  EXPECT_NE(body(1).dump().find("refundDate is before orderDate"), std::string::npos);
  // The reason is said once, on the provider's first attempt.
  EXPECT_TRUE(result.trace().attempts[1].note.empty()) << result.trace().attempts[1].note;
}

TEST_P(BedrockModes, RefusalEndsTheCallUncorrected) {
  auto result = extract({{{"refusal", "I can't help with that."}}, {{"json", kValidRefund}}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::refused);
  EXPECT_EQ(result.trace().attempts.size(), 1u);
}

TEST_P(BedrockModes, TruncatedOutputIsSentAgainWithARaisedCap) {
  auto result = extract({{{"truncated", R"({"orderId":"ORD-4829)"}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_EQ(result.trace().attempts[0].status, ReplyStatus::truncated);
  EXPECT_GT(body(1)["inferenceConfig"]["maxTokens"].get<int>(),
            body(0)["inferenceConfig"]["maxTokens"].get<int>());
  EXPECT_EQ(asks_natively(body(1), GetParam().tool_choice), GetParam().native);
}

TEST_P(BedrockModes, StreamedReplyGivesTheSameValue) {
  ExtractRequest request = refund_request();
  request.stream = StreamOptions{.enabled = true};
  auto result = extract({{{"json", kValidRefund}, {"stream_chunk_chars", 7}}}, request);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  EXPECT_TRUE(result.trace().attempts.at(0).stream.streamed);
  EXPECT_GT(result.trace().attempts.at(0).stream.events, 5u);
  EXPECT_TRUE(mock_->requests().at(0)["path"].get<std::string>().ends_with("/converse-stream"));
  EXPECT_EQ(asks_natively(body(0), GetParam().tool_choice), GetParam().native);
}

TEST_P(BedrockModes, AsyncCallIsAnsweredInTheModelsMode) {
  mock_ = std::make_unique<MockProcess>(scenario({{{"json", kValidRefund}}}));
  ClientOptions options = mock_client_options("bedrock", mock_->base_url());
  options.model = GetParam().model;
  const Client client(options);
  auto result = client.extract_async(refund_request()).get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  EXPECT_EQ(asks_natively(body(0), GetParam().tool_choice), GetParam().native);
}

INSTANTIATE_TEST_SUITE_P(Models, BedrockModes, ::testing::Values(kNative, kForced, kOffered),
                         [](const auto& info) { return std::string(info.param.label); });

// One extraction with `model` and the modes given; whether it asked natively.
bool asked_natively(const char* model, OutputMode client_mode, OutputMode call_mode) {
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  ClientOptions options = mock_client_options("bedrock", mock.base_url());
  options.model = model;
  options.mode = client_mode;
  ExtractRequest request = refund_request();
  request.mode = call_mode;
  const auto result = Client(options).extract(request);
  EXPECT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(result.trace().attempts.at(0).note.empty()) << result.trace().attempts.at(0).note;
  return asks_natively(mock.requests().at(0)["body"]);
}

TEST(BedrockModeOverrides, ClientOptionsModeOverridesTheModelsMode) {
  EXPECT_FALSE(asked_natively(kNative.model, OutputMode::forced_tool, OutputMode::per_model));
  EXPECT_TRUE(asked_natively(kForced.model, OutputMode::response_format, OutputMode::per_model));
}

TEST(BedrockModeOverrides, ExtractRequestModeOverridesTheClients) {
  EXPECT_TRUE(asked_natively(kForced.model, OutputMode::forced_tool, OutputMode::response_format));
  EXPECT_FALSE(asked_natively(kNative.model, OutputMode::response_format, OutputMode::forced_tool));
}

TEST(BedrockModeOverrides, FallbackChoosesForItsOwnModel) {
  MockProcess mock(scenario(
      {{{"status", 503}}, {{"status", 503}}, {{"status", 503}}, {{"json", kValidRefund}}}));
  ClientOptions options = mock_client_options("bedrock", mock.base_url());
  options.model = kForced.model;
  options.fallbacks = {{.provider = "bedrock",
                        .model = kNative.model,
                        .base_url = mock.base_url(),
                        .api_key = "sk-test-SENTINEL-123"}};
  const auto result = Client(options).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  const json requests = mock.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_FALSE(asks_natively(requests[0]["body"]));
  EXPECT_TRUE(asks_natively(requests[3]["body"]));
  EXPECT_NE(result.trace().attempts.back().note.find("takes native structured output"),
            std::string::npos)
      << result.trace().attempts.back().note;
}

TEST(BedrockModeOverrides, OtherProvidersKeepTheResponseFormatWithoutANote) {
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const auto result =
      Client(mock_client_options("openai-chat", mock.base_url())).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(mock.requests().at(0)["body"].contains("response_format"));
  EXPECT_TRUE(result.trace().attempts.at(0).note.empty());
}

// accord-mock refuses an outputConfig Bedrock would: the schema must be a JSON string.
TEST(BedrockMockOutputConfig, SchemaThatIsNotAJsonStringIsAValidationException) {
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  httplib::Client http("127.0.0.1", mock.port());
  const json schema = {{"type", "object"}};
  const auto send = [&](const json& json_schema) {
    const json body = {
        {"messages", {{{"role", "user"}, {"content", {{{"text", "hi"}}}}}}},
        {"outputConfig",
         {{"textFormat",
           {{"type", "json_schema"}, {"structure", {{"jsonSchema", json_schema}}}}}}}};
    return http.Post("/model/m/converse", body.dump(), "application/json");
  };
  const auto as_object = send({{"schema", schema}, {"name", "refund"}});
  ASSERT_TRUE(as_object);
  EXPECT_EQ(as_object->status, 400);
  EXPECT_EQ(as_object->get_header_value("x-amzn-ErrorType").substr(0, 19), "ValidationException");
  EXPECT_NE(as_object->body.find("must be a string"), std::string::npos) << as_object->body;

  const auto not_json = send({{"schema", "{not json"}, {"name", "refund"}});
  ASSERT_TRUE(not_json);
  EXPECT_EQ(not_json->status, 400);

  const auto unnamed = send({{"schema", schema.dump()}});
  ASSERT_TRUE(unnamed);
  EXPECT_EQ(unnamed->status, 400);
  EXPECT_NE(unnamed->body.find("name is required"), std::string::npos) << unnamed->body;

  const auto good = send({{"schema", schema.dump()}, {"name", "refund"}});
  ASSERT_TRUE(good);
  EXPECT_EQ(good->status, 200) << good->body;
}

// accord-mock refuses a toolChoice the model does not take, as Bedrock does.
TEST(BedrockMockToolChoice, LlamaRefusesAForcedChoiceAndTakesAuto) {
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  httplib::Client http("127.0.0.1", mock.port());
  const auto send = [&](const std::string& model, const json& choice) {
    const json body = {
        {"messages", {{{"role", "user"}, {"content", {{{"text", "hi"}}}}}}},
        {"toolConfig",
         {{"tools",
           {{{"toolSpec", {{"name", "refund"}, {"inputSchema", {{"json", json::object()}}}}}}}},
          {"toolChoice", choice}}}};
    return http.Post("/model/" + model + "/converse", body.dump(), "application/json");
  };
  const std::string llama = "us.meta.llama3-3-70b-instruct-v1%3A0";
  for (const json& forced : {json{{"any", json::object()}}, json{{"tool", {{"name", "refund"}}}}}) {
    const auto refused = send(llama, forced);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 400) << forced.dump();
    EXPECT_NE(refused->body.find("is not supported by us.meta.llama3-3-70b-instruct-v1:0"),
              std::string::npos)
        << refused->body;
  }
  const auto offered = send(llama, {{"auto", json::object()}});
  ASSERT_TRUE(offered);
  EXPECT_EQ(offered->status, 200) << offered->body;
}

// Claude on Bedrock refuses a forced tool beside extended thinking, as on Anthropic's API: a
// model that takes the forced tool gets its output tool offered with toolChoice auto.
TEST(BedrockThinking, ForcedToolBesideThinkingIsOfferedWithToolChoiceAuto) {
  MockProcess mock(
      scenario({{{"tool_calls", {{{"name", "refund"}, {"arguments", kValidRefund}}}}}}));
  ClientOptions options = mock_client_options("bedrock", mock.base_url());
  options.model = "us.anthropic.claude-3-7-sonnet-20250219-v1:0";
  options.max_tokens = 2048;
  options.parameters.thinking_budget = 1024;
  const auto result = Client(options).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const json sent = mock.requests().at(0)["body"];
  EXPECT_FALSE(sent.contains("outputConfig"));
  EXPECT_EQ(sent["toolConfig"]["toolChoice"], json({{"auto", json::object()}}));
}

TEST(BedrockThinking, SamplingThinkingDoesNotTakeIsRefusedBeforeSending) {
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  ClientOptions options = mock_client_options("bedrock", mock.base_url());
  options.model = kNative.model;
  options.max_tokens = 2048;
  options.parameters = {.temperature = 0.2, .thinking_budget = 1024};
  const auto why = Client(options).unusable_reason();
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("bedrock: temperature 0.2 (only 1)"), std::string::npos) << *why;
  EXPECT_TRUE(mock.requests().empty());
}

TEST(BedrockThinking, MockRefusesAForcedToolBesideThinking) {
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  httplib::Client http("127.0.0.1", mock.port());
  const auto send = [&](const json& choice) {
    const json body = {
        {"messages", {{{"role", "user"}, {"content", {{{"text", "hi"}}}}}}},
        {"additionalModelRequestFields",
         {{"thinking", {{"type", "enabled"}, {"budget_tokens", 1024}}}}},
        {"toolConfig",
         {{"tools",
           {{{"toolSpec",
              {{"name", "refund"}, {"inputSchema", {{"json", {{"type", "object"}}}}}}}}}},
          {"toolChoice", choice}}}};
    return http.Post("/model/m/converse", body.dump(), "application/json");
  };
  const auto forced = send({{"tool", {{"name", "refund"}}}});
  ASSERT_TRUE(forced);
  EXPECT_EQ(forced->status, 400);
  EXPECT_NE(forced->body.find("tool_choice forces tool use"), std::string::npos) << forced->body;
  const auto automatic = send({{"auto", json::object()}});
  ASSERT_TRUE(automatic);
  EXPECT_EQ(automatic->status, 200) << automatic->body;
}

}  // namespace
}  // namespace accord
