// The gemini provider: what generateContent requests carry per output mode, the Vertex AI URL
// form, and replies read status first (blocked prompt, finishReason, usage), malformed ones as
// bad replies; its stream folded back into the body decode() reads.

#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "providers/stream_assembly.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

const ojson kGeminiOrderSchema = ojson::parse(R"({"type": "object",
    "properties": {"orderId": {"type": "string"}}, "required": ["orderId"],
    "additionalProperties": false})");

struct GeminiCall {
  std::unique_ptr<Provider> gemini = make_provider("gemini");
  WireSchema wire = gemini->lower(kGeminiOrderSchema, Report{});
  CallSpec spec;

  explicit GeminiCall(OutputMode mode, std::string base_url = "http://127.0.0.1:9") {
    spec.base_url = std::move(base_url);
    spec.api_key = "gm-test-key";
    spec.model = "gemini-test";
    spec.max_tokens = 300;
    spec.turns.push_back({Turn::Role::system, "Extract the order.", {}, {}, {}});
    spec.turns.push_back({Turn::Role::user, "Order ORD-1 please.", {}, {}, {}});
    spec.output_name = "refund";
    spec.output = &wire;
    spec.mode = mode;
  }
  [[nodiscard]] HttpRequest request() const { return gemini->encode(spec); }
  [[nodiscard]] ojson body() const { return ojson::parse(request().body); }
  [[nodiscard]] Reply decode(const std::string& reply_body, long status = 200) const {
    return gemini->decode({status, {}, reply_body}, spec.mode);
  }
};

std::optional<std::string> gemini_header(const HttpRequest& request, std::string_view name) {
  for (const auto& [k, v] : request.headers) {
    if (k == name) return v;
  }
  return std::nullopt;
}

std::string gemini_candidate(const std::string& parts, const std::string& finish) {
  return R"({"candidates": [{"content": {"parts": )" + parts +
         R"(, "role": "model"}, "finishReason": ")" + finish + R"(", "index": 0}]})";
}

TEST(GeminiCodec, ResponseFormatAsksForJsonWithTheWireSchema) {
  const GeminiCall call(OutputMode::response_format);
  const auto request = call.request();
  EXPECT_EQ(request.url, "http://127.0.0.1:9/v1/models/gemini-test:generateContent");
  EXPECT_EQ(gemini_header(request, "x-goog-api-key"), "gm-test-key");
  const auto body = call.body();
  EXPECT_EQ(body["systemInstruction"]["parts"][0]["text"], "Extract the order.");
  ASSERT_EQ(body["contents"].size(), 1u);
  EXPECT_EQ(body["contents"][0]["role"], "user");
  EXPECT_EQ(body["contents"][0]["parts"][0]["text"], "Order ORD-1 please.");
  const auto& config = body["generationConfig"];
  EXPECT_EQ(config["responseMimeType"], "application/json");
  EXPECT_EQ(config["responseJsonSchema"], call.wire.schema);
  EXPECT_EQ(config["maxOutputTokens"], 300);
  EXPECT_FALSE(body.contains("tools"));
}

TEST(GeminiCodec, ForcedToolIsTheOnlyFunctionAllowedInModeAny) {
  const GeminiCall call(OutputMode::forced_tool);
  const auto body = call.body();
  const auto& declaration = body["tools"][0]["functionDeclarations"][0];
  EXPECT_EQ(declaration["name"], "refund");
  EXPECT_EQ(declaration["parametersJsonSchema"], call.wire.schema);
  const auto& calling = body["toolConfig"]["functionCallingConfig"];
  EXPECT_EQ(calling["mode"], "ANY");
  EXPECT_EQ(calling["allowedFunctionNames"], ojson::array({"refund"}));
  EXPECT_FALSE(body["generationConfig"].contains("responseJsonSchema"));
}

TEST(GeminiCodec, CorrectionAfterAForcedCallSendsTheCallBackAndAFunctionResponse) {
  GeminiCall call(OutputMode::forced_tool);
  const auto reply = call.decode(gemini_candidate(
      R"([{"functionCall": {"name": "refund", "args": {"orderId": 7}},
           "thoughtSignature": "c2ln"}])",
      "STOP"));
  ASSERT_EQ(reply.status, ReplyStatus::ok);
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  call.spec.turns.push_back(reply.assistant);
  Turn results{Turn::Role::tool_results, "", {}, {}, {}};
  results.results.push_back(
      {reply.tool_calls[0].id, reply.tool_calls[0].name, "orderId: expected a string", true});
  call.spec.turns.push_back(results);
  const auto contents = call.body()["contents"];
  ASSERT_EQ(contents.size(), 3u);
  EXPECT_EQ(contents[1]["role"], "model");
  // As received: Gemini 3 refuses a call sent back without its thought signature.
  EXPECT_EQ(contents[1]["parts"][0]["thoughtSignature"], "c2ln");
  const auto& response = contents[2]["parts"][0]["functionResponse"];
  EXPECT_EQ(contents[2]["role"], "user");
  EXPECT_EQ(response["name"], "refund");
  EXPECT_FALSE(response.contains("id")) << "the reply's call had no id";
  EXPECT_EQ(response["response"]["error"], "orderId: expected a string");
}

TEST(GeminiCodec, VertexBaseUrlGetsThePublisherPathAndABearerToken) {
  const GeminiCall call(OutputMode::response_format,
                        "https://us-central1-aiplatform.googleapis.com/v1/projects/p1/locations/"
                        "us-central1");
  const auto request = call.request();
  EXPECT_EQ(request.url,
            "https://us-central1-aiplatform.googleapis.com/v1/projects/p1/locations/us-central1/"
            "publishers/google/models/gemini-test:generateContent");
  EXPECT_EQ(gemini_header(request, "authorization"), "Bearer gm-test-key");
  EXPECT_FALSE(gemini_header(request, "x-goog-api-key"));
}

TEST(GeminiCodec, BaseUrlEndingInAVersionIsKept) {
  const GeminiCall call(OutputMode::response_format, "http://127.0.0.1:9/v1beta");
  EXPECT_EQ(call.request().url, "http://127.0.0.1:9/v1beta/models/gemini-test:generateContent");
}

TEST(GeminiCodec, StopWithTextIsTheOutput) {
  const GeminiCall call(OutputMode::response_format);
  const auto reply =
      call.decode(gemini_candidate(R"([{"text": "{\"orderId\":"}, {"text": "\"A\"}"}])", "STOP"));
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"A"})");
}

TEST(GeminiCodec, ThoughtPartsAreNotOutput) {
  const GeminiCall call(OutputMode::response_format);
  const auto reply = call.decode(
      gemini_candidate(R"([{"text": "Let me think", "thought": true}, {"text": "{}"}])", "STOP"));
  EXPECT_EQ(reply.text, "{}");
}

TEST(GeminiCodec, BlockedPromptIsARefusalNamingTheReason) {
  const GeminiCall call(OutputMode::response_format);
  const auto reply = call.decode(
      R"({"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
          "usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 9}})");
  EXPECT_EQ(reply.status, ReplyStatus::refusal);
  EXPECT_NE(reply.text.find("PROHIBITED_CONTENT"), std::string::npos) << reply.text;
  EXPECT_EQ(reply.usage.input_tokens, 9);
}

TEST(GeminiCodec, SafetyAndOtherFilterEndingsAreContentFiltered) {
  const GeminiCall call(OutputMode::response_format);
  for (const char* finish :
       {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"}) {
    EXPECT_EQ(call.decode(gemini_candidate(R"([{"text": "{\"order"}])", finish)).status,
              ReplyStatus::content_filtered)
        << finish;
  }
}

TEST(GeminiCodec, MaxTokensIsTruncatedKeepingTheTextSoFar) {
  const GeminiCall call(OutputMode::response_format);
  const auto reply =
      call.decode(gemini_candidate(R"([{"text": "{\"orderId\": \"OR"}])", "MAX_TOKENS"));
  EXPECT_EQ(reply.status, ReplyStatus::truncated);
  EXPECT_EQ(reply.text, R"({"orderId": "OR)");
}

TEST(GeminiCodec, MalformedFunctionCallIsABadReplyNamingIt) {
  const GeminiCall call(OutputMode::forced_tool);
  const auto reply = call.decode(
      R"json({"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL",
          "finishMessage": "Malformed function call: refund(orderId=)"}]})json");
  EXPECT_EQ(reply.status, ReplyStatus::bad_reply);
  EXPECT_NE(reply.detail.find("MALFORMED_FUNCTION_CALL"), std::string::npos) << reply.detail;
  EXPECT_NE(reply.detail.find("refund(orderId=)"), std::string::npos) << reply.detail;
}

TEST(GeminiCodec, UsageCountsCachedAsInputAndThoughtsAsOutput) {
  const GeminiCall call(OutputMode::response_format);
  const auto reply = call.decode(
      R"({"candidates": [{"content": {"parts": [{"text": "{}"}]}, "finishReason": "STOP"}],
          "usageMetadata": {"promptTokenCount": 100, "cachedContentTokenCount": 60,
          "candidatesTokenCount": 5, "thoughtsTokenCount": 20, "totalTokenCount": 125}})");
  EXPECT_EQ(reply.usage.input_tokens, 100);
  EXPECT_EQ(reply.usage.output_tokens, 25);
  EXPECT_EQ(reply.usage.total_tokens, 125);
}

TEST(GeminiCodec, GoogleErrorEnvelopeGivesItsStatusAsTheCode) {
  const GeminiCall call(OutputMode::response_format);
  const auto reply = call.decode(
      R"({"error": {"code": 429, "message": "Resource has been exhausted.",
          "status": "RESOURCE_EXHAUSTED"}})",
      429);
  EXPECT_EQ(reply.status, ReplyStatus::http_error);
  EXPECT_EQ(reply.detail, "Resource has been exhausted.");
  EXPECT_EQ(reply.error_code, "RESOURCE_EXHAUSTED");
}

TEST(GeminiCodec, BodiesOfAnotherShapeAreBadReplies) {
  const GeminiCall call(OutputMode::response_format);
  for (const char* body :
       {R"({"choices": []})", R"({"candidates": {}})", R"({"candidates": [7]})",
        R"({"candidates": [{"content": {"parts": "x"}}]})", R"([1])", "not json"}) {
    EXPECT_EQ(call.decode(body).status, ReplyStatus::bad_reply) << body;
  }
}

// The wire snapshot: what responseJsonSchema honours stays a keyword (a listed format, item
// counts); what it ignores is said in words, each with a Report row.
TEST(GeminiLowering, WhatResponseJsonSchemaIgnoresIsStatedInWords) {
  const ojson emitted = ojson::parse(R"({"type": "object",
    "properties": {
      "accountId": {"type": "string", "pattern": "^acct_[a-z0-9]+$"},
      "email": {"type": "string", "format": "email"},
      "day": {"type": "string", "format": "date"},
      "amount": {"type": "number", "minimum": 1, "maximum": 10000},
      "memo": {"type": "string", "minLength": 3},
      "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}},
    "required": ["accountId", "email", "day", "amount", "tags"],
    "additionalProperties": false})");
  const auto wire = make_provider("gemini")->lower(emitted, Report{});
  const ojson expected = ojson::parse(R"({"type": "object",
    "properties": {
      "accountId": {"type": "string", "description": "Must match /^acct_[a-z0-9]+$/."},
      "email": {"type": "string", "description": "Must be a valid email address."},
      "day": {"type": "string", "format": "date"},
      "amount": {"type": "number", "description": "Must be at least 1 and at most 10000."},
      "memo": {"type": "string", "description": "Must have at least 3 characters."},
      "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}},
    "required": ["accountId", "email", "day", "amount", "tags"],
    "additionalProperties": false})");
  EXPECT_EQ(wire.schema.dump(2), expected.dump(2));
  std::vector<std::string> worded;
  for (const auto& entry : wire.report.entries()) {
    if (entry.fate == Fate::description) worded.push_back(entry.keyword);
  }
  EXPECT_EQ(worded,
            (std::vector<std::string>{"pattern", "format", "minimum", "maximum", "minLength"}));
}

TEST(GeminiStream, TextPiecesJoinAndTheFinishReasonEndsTheStream) {
  auto assembler = detail::make_stream_assembler("gemini", OutputMode::response_format);
  ASSERT_NE(assembler, nullptr);
  std::string output;
  for (const char* data :
       {R"({"candidates": [{"content": {"parts": [{"text": "{\"orderId\""}], "role": "model"}}]})",
        R"({"candidates": [{"content": {"parts": [{"text": ": \"A\"}"}], "role": "model"},
            "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 4,
            "candidatesTokenCount": 3, "totalTokenCount": 7}})"}) {
    EXPECT_FALSE(assembler->ended());
    const auto taken = assembler->take({"", data});
    EXPECT_TRUE(taken.problem.empty()) << taken.problem;
    output += taken.output;
  }
  EXPECT_TRUE(assembler->ended());
  EXPECT_EQ(output, R"({"orderId": "A"})");
  const GeminiCall call(OutputMode::response_format);
  const auto reply = call.decode(assembler->body().dump());
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId": "A"})");
  EXPECT_EQ(reply.usage.total_tokens, 7);
}

TEST(GeminiStream, IsAskedForByTheStreamingUrlWithoutABodyMember) {
  GeminiCall call(OutputMode::response_format);
  auto request = call.request();
  const auto before = request.body;
  detail::ask_for_stream(request, "gemini");
  EXPECT_EQ(request.url, "http://127.0.0.1:9/v1/models/gemini-test:streamGenerateContent?alt=sse");
  EXPECT_EQ(request.body, before);
}

}  // namespace
}  // namespace accord
