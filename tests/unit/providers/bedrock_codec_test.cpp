// Bedrock Converse: the request (URL, signing, output config, forced tool), status-first reply
// decoding, and the AWS event-stream framing ConverseStream arrives in.

#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "core/aws_event_stream.hpp"
#include "core/sha256.hpp"
#include "fixtures/scoped_env.hpp"
#include "providers/stream_assembly.hpp"
#include "transport/aws_signature.hpp"
#include "transport/redaction.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

const ojson kOrderSchema = ojson::parse(R"({"type": "object",
    "properties": {"orderId": {"type": "string"}}, "required": ["orderId"],
    "additionalProperties": false})");

struct BedrockCall {
  std::unique_ptr<Provider> provider = make_provider("bedrock");
  WireSchema wire = provider->lower(kOrderSchema, Report{});
  CallSpec spec;

  explicit BedrockCall(OutputMode mode, std::string key = "") {
    spec.base_url = "https://bedrock-runtime.eu-west-1.amazonaws.com";
    spec.api_key = std::move(key);
    spec.model = "anthropic.claude-haiku-4-5-20251001-v1:0";
    spec.max_tokens = 300;
    spec.turns.push_back({Turn::Role::system, "Extract the order.", {}, {}, {}});
    spec.turns.push_back({Turn::Role::user, "Order ORD-1 please.", {}, {}, {}});
    spec.output_name = "order";
    spec.output = &wire;
    spec.mode = mode;
  }
  [[nodiscard]] HttpRequest encode() const { return provider->encode(spec); }
  [[nodiscard]] Reply decode(const std::string& body, OutputMode mode, long status = 200,
                             Headers headers = {}) const {
    return provider->decode({status, std::move(headers), body}, mode);
  }
};

std::string converse_body(const std::string& content, const std::string& stop,
                          const std::string& usage = R"({"inputTokens": 10, "outputTokens": 5})") {
  return R"({"output": {"message": {"role": "assistant", "content": )" + content +
         R"(}}, "stopReason": ")" + stop + R"(", "usage": )" + usage + "}";
}

TEST(BedrockCodec, ModelIdIsOnePercentEncodedPathSegment) {
  const auto request = BedrockCall(OutputMode::response_format).encode();
  EXPECT_EQ(request.url,
            "https://bedrock-runtime.eu-west-1.amazonaws.com/model/"
            "anthropic.claude-haiku-4-5-20251001-v1%3A0/converse");
}

TEST(BedrockCodec, ResponseFormatSendsTheSchemaAsAJsonStringInOutputConfig) {
  const BedrockCall call(OutputMode::response_format);
  const auto body = ojson::parse(call.encode().body);
  const auto& format = body["outputConfig"]["textFormat"];
  EXPECT_EQ(format["type"], "json_schema");
  const auto& definition = format["structure"]["jsonSchema"];
  ASSERT_TRUE(definition["schema"].is_string());
  EXPECT_EQ(ojson::parse(definition["schema"].get<std::string>()), call.wire.schema);
  EXPECT_EQ(definition["name"], "order");
  EXPECT_EQ(body["system"], ojson::parse(R"([{"text": "Extract the order."}])"));
  EXPECT_EQ(body["messages"],
            ojson::parse(R"([{"role": "user", "content": [{"text": "Order ORD-1 please."}]}])"));
  EXPECT_EQ(body["inferenceConfig"]["maxTokens"], 300);
  EXPECT_FALSE(body.contains("toolConfig"));
  EXPECT_FALSE(body.contains("model")) << "the model is in the path";
}

TEST(BedrockCodec, ForcedToolGoesThroughToolConfigAndToolChoice) {
  const BedrockCall call(OutputMode::forced_tool);
  const auto body = ojson::parse(call.encode().body);
  EXPECT_FALSE(body.contains("outputConfig"));
  const auto& config = body["toolConfig"];
  EXPECT_EQ(config["toolChoice"], ojson::parse(R"({"tool": {"name": "order"}})"));
  ASSERT_EQ(config["tools"].size(), 1u);
  EXPECT_EQ(config["tools"][0]["toolSpec"]["name"], "order");
  EXPECT_EQ(config["tools"][0]["toolSpec"]["inputSchema"]["json"], call.wire.schema);
}

// The wire of a forced-tool correction, whole: the reply's toolUse echoed as received, then the
// issues as an error toolResult in a user turn.
TEST(BedrockCodec, ForcedToolCorrectionWireSnapshot) {
  BedrockCall call(OutputMode::forced_tool);
  const Reply reply = call.decode(converse_body(R"([{"toolUse": {"toolUseId": "tooluse_1",
                                    "name": "order", "input": {"orderId": 7}}}])",
                                                "tool_use"),
                                  OutputMode::forced_tool);
  call.spec.turns.push_back(reply.assistant);
  Turn results{Turn::Role::tool_results, "", {}, {}, {}};
  results.results.push_back({"tooluse_1", "order", "orderId must be a string", true});
  call.spec.turns.push_back(results);
  // Compared as unordered JSON: the echoed block's key order is not the wire's concern.
  const auto body = nlohmann::json::parse(call.encode().body);
  EXPECT_EQ(body, nlohmann::json::parse(R"({
    "messages": [
      {"role": "user", "content": [{"text": "Order ORD-1 please."}]},
      {"role": "assistant", "content": [{"toolUse": {"toolUseId": "tooluse_1", "name": "order",
                                                     "input": {"orderId": 7}}}]},
      {"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_1",
        "content": [{"text": "orderId must be a string"}], "status": "error"}}]}],
    "system": [{"text": "Extract the order."}],
    "inferenceConfig": {"maxTokens": 300},
    "toolConfig": {
      "tools": [{"toolSpec": {"name": "order",
        "description": "Return the final answer by calling this tool once; its input is the answer.",
        "inputSchema": {"json": {"type": "object", "properties": {"orderId": {"type": "string"}},
                                 "required": ["orderId"], "additionalProperties": false}}}}],
      "toolChoice": {"tool": {"name": "order"}}}})"))
      << body.dump(2);
}

TEST(BedrockCodec, AccessKeyPairIsSignedWithSigV4ForTheBaseUrlsRegion) {
  const auto request =
      BedrockCall(OutputMode::response_format, "AKIDEXAMPLE:wJalrXUtnFEMI:SESSIONTOKEN").encode();
  EXPECT_EQ(request.aws_sigv4, "aws:amz:eu-west-1:bedrock");
  EXPECT_EQ(request.aws_credentials, "AKIDEXAMPLE:wJalrXUtnFEMI");
  bool token_sent = false;
  for (const auto& [name, value] : request.headers) {
    EXPECT_NE(name, "authorization");
    if (name == "x-amz-security-token") token_sent = value == "SESSIONTOKEN";
  }
  EXPECT_TRUE(token_sent);
}

TEST(BedrockCodec, RegionComesFromAwsRegionWhenTheBaseUrlNamesNone) {
  const ScopedEnv region("AWS_REGION", "ap-south-1");
  BedrockCall call(OutputMode::response_format, "AKIDEXAMPLE:secret");
  call.spec.base_url = "http://127.0.0.1:9";
  EXPECT_EQ(call.encode().aws_sigv4, "aws:amz:ap-south-1:bedrock");
  EXPECT_EQ(make_provider("bedrock")->default_base_url(),
            "https://bedrock-runtime.ap-south-1.amazonaws.com");
}

TEST(BedrockCodec, BedrockApiKeyIsABearerTokenAndNotSigned) {
  const auto request = BedrockCall(OutputMode::response_format, "ABSKbedrockkey").encode();
  EXPECT_TRUE(request.aws_sigv4.empty());
  EXPECT_TRUE(request.aws_credentials.empty());
  bool bearer = false;
  for (const auto& [name, value] : request.headers) {
    if (name == "authorization") bearer = value == "Bearer ABSKbedrockkey";
  }
  EXPECT_TRUE(bearer);
}

TEST(BedrockCodec, CredentialsFromTheEnvironmentPreferTheBedrockApiKey) {
  const ScopedEnv id("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE");
  const ScopedEnv secret("AWS_SECRET_ACCESS_KEY", "secret-half");
  const ScopedEnv token("AWS_SESSION_TOKEN", "token-part");
  const auto provider = make_provider("bedrock");
  {
    const ScopedEnv bearer("AWS_BEARER_TOKEN_BEDROCK", "ABSKkey");
    EXPECT_EQ(provider->api_key_from_environment(), "ABSKkey");
  }
  ::unsetenv("AWS_BEARER_TOKEN_BEDROCK");
  EXPECT_EQ(provider->api_key_from_environment(), "AKIDEXAMPLE:secret-half:token-part");
}

TEST(BedrockCodec, EachPartOfTheJoinedCredentialsIsRedacted) {
  const std::string key = "AKIDEXAMPLE:secret-half-XYZ:session-token-ABC";
  const std::string text = "echo secret-half-XYZ and session-token-ABC and " + key;
  const std::string redacted = detail::redact_secret(text, key);
  EXPECT_EQ(redacted.find("secret-half"), std::string::npos) << redacted;
  EXPECT_EQ(redacted.find("session-token"), std::string::npos) << redacted;
  EXPECT_EQ(redacted, "echo [redacted] and [redacted] and [redacted]");
}

TEST(BedrockCodec, EndTurnTextIsTheOutput) {
  const auto reply =
      BedrockCall(OutputMode::response_format)
          .decode(converse_body(R"([{"text": "{\"orderId\": \"ORD-1\"}"}])", "end_turn"),
                  OutputMode::response_format);
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId": "ORD-1"})");
  EXPECT_EQ(reply.usage.input_tokens, 10);
  EXPECT_EQ(reply.usage.output_tokens, 5);
}

TEST(BedrockCodec, ForcedToolUseInputIsTheOutputAndKeepsItsId) {
  const auto reply = BedrockCall(OutputMode::forced_tool)
                         .decode(converse_body(R"([{"toolUse": {"toolUseId": "tooluse_1",
                                   "name": "order", "input": {"orderId": "ORD-1"}}}])",
                                               "tool_use"),
                                 OutputMode::forced_tool);
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"ORD-1"})");
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].id, "tooluse_1");
  EXPECT_TRUE(reply.assistant.raw.is_array());
}

TEST(BedrockCodec, MaxTokensIsTruncatedWithTheTextSoFar) {
  const auto reply = BedrockCall(OutputMode::response_format)
                         .decode(converse_body(R"([{"text": "{\"orderId\": \"OR"}])", "max_tokens"),
                                 OutputMode::response_format);
  EXPECT_EQ(reply.status, ReplyStatus::truncated);
  EXPECT_EQ(reply.text, R"({"orderId": "OR)");
}

TEST(BedrockCodec, GuardrailInterventionIsContentFilteredEvenWithItsBlockedMessage) {
  const auto reply = BedrockCall(OutputMode::response_format)
                         .decode(converse_body(R"([{"text": "Sorry, the model cannot answer."}])",
                                               "guardrail_intervened"),
                                 OutputMode::response_format);
  EXPECT_EQ(reply.status, ReplyStatus::content_filtered);
  EXPECT_EQ(reply.detail, "guardrail_intervened");
}

TEST(BedrockCodec, ContentFilteredWithTheModelsWordsIsARefusal) {
  const BedrockCall call(OutputMode::response_format);
  const auto refused =
      call.decode(converse_body(R"([{"text": "I can't help with that."}])", "content_filtered"),
                  OutputMode::response_format);
  EXPECT_EQ(refused.status, ReplyStatus::refusal);
  EXPECT_EQ(refused.text, "I can't help with that.");
  const auto filtered =
      call.decode(converse_body("[]", "content_filtered"), OutputMode::response_format);
  EXPECT_EQ(filtered.status, ReplyStatus::content_filtered);
}

TEST(BedrockCodec, CachedInputCountsAsInput) {
  const auto reply = BedrockCall(OutputMode::response_format)
                         .decode(converse_body(R"([{"text": "{}"}])", "end_turn",
                                               R"({"inputTokens": 10, "outputTokens": 5,
                                                   "cacheReadInputTokens": 100,
                                                   "cacheWriteInputTokens": 7})"),
                                 OutputMode::response_format);
  EXPECT_EQ(reply.usage.input_tokens, 117);
  EXPECT_EQ(reply.usage.total_tokens, 122);
}

TEST(BedrockCodec, OtherShapesAreABadReplyNeverAThrow) {
  const BedrockCall call(OutputMode::response_format);
  for (const std::string body :
       {R"({"choices": []})", R"({"output": {}})", R"({"output": {"message": {"content": 3}}})",
        R"({"output": {"message": {"content": [{"text": 3}]}}})",
        R"({"output": {"message": {"content": [{"toolUse": {"name": "x"}}]}}})", "[]",
        "not json"}) {
    EXPECT_EQ(call.decode(body, OutputMode::response_format).status, ReplyStatus::bad_reply)
        << body;
  }
}

TEST(BedrockCodec, AwsErrorNamesTheExceptionFromXAmznErrorType) {
  const auto reply =
      BedrockCall(OutputMode::response_format)
          .decode(R"({"message": "Too many requests, please wait."})", OutputMode::response_format,
                  429,
                  {{"x-amzn-errortype", "ThrottlingException:http://internal.amazon.com/coral/"}});
  EXPECT_EQ(reply.status, ReplyStatus::http_error);
  EXPECT_EQ(reply.detail, "Too many requests, please wait.");
  EXPECT_EQ(reply.error_code, "ThrottlingException");
}

// ---- SigV4
// ---------------------------------------------------------------------------------------

TEST(Sha256, KnownVectorsIncludingATwoBlockTail) {
  EXPECT_EQ(detail::hex(detail::sha256("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(detail::hex(detail::sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(detail::hex(detail::sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // RFC 4231, test case 2.
  EXPECT_EQ(detail::hex(detail::hmac_sha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(AwsSignature, SignsHostDateBodyHashAndAmzHeadersForTheScope) {
  const auto request =
      BedrockCall(OutputMode::response_format, "AKIDEXAMPLE:secret:TOKEN").encode();
  const auto headers = detail::aws_sigv4_headers(
      request, std::chrono::system_clock::from_time_t(1440938160));  // 2015-08-30T12:36:00Z
  ASSERT_EQ(headers.size(), 3u);
  EXPECT_EQ(headers[0], (std::pair<std::string, std::string>{"x-amz-date", "20150830T123600Z"}));
  EXPECT_EQ(headers[1].second, detail::hex(detail::sha256(request.body)));
  const std::string& authorization = headers[2].second;
  EXPECT_TRUE(authorization.starts_with(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/eu-west-1/bedrock/aws4_request, "
      "SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, "
      "Signature="))
      << authorization;
  EXPECT_EQ(authorization.find("secret"), std::string::npos);
}

// ---- the event-stream framing ---------------------------------------------------------------

std::string frame(const std::string& type, const std::string& payload,
                  const std::string& message_type = "event") {
  const char* name = message_type == "event" ? ":event-type" : ":exception-type";
  return detail::aws_event_stream_message({{name, type}, {":message-type", message_type}}, payload);
}

TEST(AwsEventStream, Crc32IsZlibs) {
  EXPECT_EQ(detail::crc32("123456789"), 0xCBF43926U);
}

TEST(AwsEventStream, FramesSplitAnywhereAreReadWhole) {
  const std::string bytes = frame("messageStart", R"({"role":"assistant"})") +
                            frame("messageStop", R"({"stopReason":"end_turn"})");
  detail::AwsEventStreamReader reader;
  std::vector<detail::SseEvent> events;
  for (const char byte : bytes) {
    for (auto& e : reader.feed(std::string_view(&byte, 1))) events.push_back(std::move(e));
  }
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event, "messageStart");
  EXPECT_EQ(events[1].data, R"({"stopReason":"end_turn"})");
  EXPECT_TRUE(reader.problem().empty());
}

TEST(AwsEventStream, ACorruptedMessageCrcIsAProblemNotAnEvent) {
  std::string bytes = frame("messageStart", R"({"role":"assistant"})");
  bytes[bytes.size() - 6] ^= 0x01;  // a payload byte
  detail::AwsEventStreamReader reader;
  EXPECT_TRUE(reader.feed(bytes).empty());
  EXPECT_NE(reader.problem().find("CRC"), std::string::npos);
}

TEST(AwsEventStream, TextThatIsNotFramedIsAProblem) {
  detail::AwsEventStreamReader reader;
  EXPECT_TRUE(reader.feed(R"({"message": "not a frame at all"})").empty());
  EXPECT_FALSE(reader.problem().empty());
}

TEST(AwsEventStream, ExceptionFramesAreNamedByTheirExceptionType) {
  detail::AwsEventStreamReader reader;
  const auto events =
      reader.feed(frame("throttlingException", R"({"message":"slow down"})", "exception"));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].event, "exception:throttlingException");
}

// ---- ConverseStream folded back ---------------------------------------------------------------

Reply assemble(const std::vector<std::pair<std::string, std::string>>& events, OutputMode mode,
               std::string* output = nullptr) {
  auto assembler = detail::make_stream_assembler("bedrock", mode);
  EXPECT_NE(assembler, nullptr);
  for (const auto& [type, data] : events) {
    const auto taken = assembler->take({type, data});
    EXPECT_TRUE(taken.problem.empty()) << taken.problem;
    if (output != nullptr) *output += taken.output;
  }
  EXPECT_TRUE(assembler->ended());
  return make_provider("bedrock")->decode({200, {}, assembler->body().dump()}, mode);
}

TEST(BedrockStream, ToolUseInputDeltasFoldIntoTheForcedOutput) {
  std::string output;
  const auto reply = assemble(
      {{"messageStart", R"({"role":"assistant"})"},
       {"contentBlockStart",
        R"({"start":{"toolUse":{"toolUseId":"t1","name":"order"}},"contentBlockIndex":0})"},
       {"contentBlockDelta",
        R"({"delta":{"toolUse":{"input":"{\"orderId\":"}},"contentBlockIndex":0})"},
       {"contentBlockDelta",
        R"({"delta":{"toolUse":{"input":"\"ORD-1\"}"}},"contentBlockIndex":0})"},
       {"contentBlockStop", R"({"contentBlockIndex":0})"},
       {"messageStop", R"({"stopReason":"tool_use"})"},
       {"metadata", R"({"usage":{"inputTokens":3,"outputTokens":4,"totalTokens":7}})"}},
      OutputMode::forced_tool, &output);
  EXPECT_EQ(output, R"({"orderId":"ORD-1"})");
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"ORD-1"})");
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].id, "t1");
  EXPECT_EQ(reply.usage.output_tokens, 4);
}

TEST(BedrockStream, MaxTokensInMessageStopIsTruncated) {
  const auto reply =
      assemble({{"contentBlockDelta", R"({"delta":{"text":"{\"a\""},"contentBlockIndex":0})"},
                {"messageStop", R"({"stopReason":"max_tokens"})"},
                {"metadata", R"({"usage":{"inputTokens":3,"outputTokens":4}})"}},
               OutputMode::response_format);
  EXPECT_EQ(reply.status, ReplyStatus::truncated);
  EXPECT_EQ(reply.text, R"({"a")");
}

TEST(BedrockStream, AnExceptionEventIsABadReplyNamingIt) {
  const auto reply = assemble({{"messageStart", R"({"role":"assistant"})"},
                               {"exception:throttlingException", R"({"message":"slow down"})"}},
                              OutputMode::response_format);
  EXPECT_EQ(reply.status, ReplyStatus::bad_reply);
  EXPECT_EQ(reply.error_code, "throttlingException");
  EXPECT_NE(reply.detail.find("slow down"), std::string::npos) << reply.detail;
}

TEST(BedrockStream, AStreamIsAskedForAtConverseStream) {
  HttpRequest request{"http://127.0.0.1:9/model/m%3A0/converse", {}, R"({"messages":[]})"};
  detail::ask_for_stream(request, "bedrock");
  EXPECT_EQ(request.url, "http://127.0.0.1:9/model/m%3A0/converse-stream");
  EXPECT_EQ(request.body, R"({"messages":[]})") << "Converse takes no \"stream\" member";
  EXPECT_EQ(detail::stream_framing("bedrock"), detail::StreamFraming::aws_event_stream);
}

}  // namespace
}  // namespace accord
