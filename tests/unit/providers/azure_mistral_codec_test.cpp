// The azure-openai and mistral codecs: Azure's deployment URLs, api-version and api-key, its v1
// surface, its content-filter signals; Mistral's request fields and finish reasons.

#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "fixtures/codec_calls.hpp"
#include "fixtures/scoped_env.hpp"
#include "providers/stream_assembly.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

const ojson kAzureMistralSchema = ojson::parse(R"({"type": "object",
    "properties": {"orderId": {"type": "string"}}, "required": ["orderId"],
    "additionalProperties": false})");

struct CodecCall {
  std::unique_ptr<Provider> provider;
  WireSchema wire;
  CallSpec spec;
};

// On the heap: the spec points at the wire schema beside it.
std::unique_ptr<CodecCall> codec_call(const char* name, std::string base_url,
                                      OutputMode mode = OutputMode::response_format,
                                      std::string key = "azure-key-123") {
  auto c = std::make_unique<CodecCall>(CodecCall{make_provider(name), {}, {}});
  EXPECT_NE(c->provider, nullptr) << name;
  c->wire = c->provider->lower(kAzureMistralSchema, Report{});
  c->spec.base_url = std::move(base_url);
  c->spec.api_key = std::move(key);
  c->spec.model = "my-deployment";
  c->spec.max_tokens = 300;
  c->spec.turns.push_back({Turn::Role::user, "Order ORD-123456 please.", {}, {}, {}});
  c->spec.output_name = "refund";
  c->spec.output = &c->wire;
  c->spec.mode = mode;
  return c;
}

using testing_support::decode;
using testing_support::header;

// ---- azure-openai: where the request goes --------------------------------------------------

TEST(AzureOpenAI, DeploymentUrlCarriesTheModelAsDeploymentAndTheDefaultApiVersion) {
  const ScopedEnv unset("OPENAI_API_VERSION", "");
  auto c = codec_call("azure-openai", "https://res.openai.azure.com");
  const auto request = c->provider->encode(c->spec);
  EXPECT_EQ(request.url,
            "https://res.openai.azure.com/openai/deployments/my-deployment/chat/completions"
            "?api-version=2024-10-21");
}

TEST(AzureOpenAI, ApiVersionComesFromOpenAIApiVersion) {
  const ScopedEnv version("OPENAI_API_VERSION", "2025-04-01-preview");
  auto c = codec_call("azure-openai", "https://res.openai.azure.com");
  EXPECT_TRUE(c->provider->encode(c->spec).url.ends_with("?api-version=2025-04-01-preview"));
}

TEST(AzureOpenAI, DeploymentNameIsOnePathSegment) {
  auto c = codec_call("azure-openai", "https://res.openai.azure.com");
  c->spec.model = "a/b?c";
  EXPECT_NE(c->provider->encode(c->spec).url.find("/deployments/a%2Fb%3Fc/chat/completions?"),
            std::string::npos);
}

TEST(AzureOpenAI, DeploymentUrlSendsTheKeyInApiKeyNotAuthorization) {
  auto c = codec_call("azure-openai", "https://res.openai.azure.com");
  const auto request = c->provider->encode(c->spec);
  EXPECT_EQ(header(request, "api-key"), "azure-key-123");
  EXPECT_EQ(header(request, "authorization"), std::nullopt);
}

TEST(AzureOpenAI, EntraTokenIsSentAsBearerOnDeploymentUrls) {
  auto c = codec_call("azure-openai", "https://res.openai.azure.com", OutputMode::response_format,
                      "eyJhbGciOiJSUzI1NiJ9.payload.signature");
  const auto request = c->provider->encode(c->spec);
  EXPECT_EQ(header(request, "authorization"), "Bearer eyJhbGciOiJSUzI1NiJ9.payload.signature");
  EXPECT_EQ(header(request, "api-key"), std::nullopt);
}

TEST(AzureOpenAI, V1SurfaceTakesABearerTokenAndNoApiVersion) {
  auto c = codec_call("azure-openai", "https://res.openai.azure.com/openai/v1");
  const auto request = c->provider->encode(c->spec);
  EXPECT_EQ(request.url, "https://res.openai.azure.com/openai/v1/chat/completions");
  EXPECT_EQ(header(request, "authorization"), "Bearer azure-key-123");
  EXPECT_EQ(ojson::parse(request.body)["model"], "my-deployment");
}

TEST(AzureOpenAI, AsksForStrictJsonSchema) {
  auto c = codec_call("azure-openai", "https://res.openai.azure.com");
  const auto body = ojson::parse(c->provider->encode(c->spec).body);
  EXPECT_EQ(body["response_format"]["type"], "json_schema");
  EXPECT_EQ(body["response_format"]["json_schema"]["strict"], true);
}

// ---- azure-openai: the content filter ------------------------------------------------------

constexpr const char* kAzureSafe = R"({"hate":{"filtered":false,"severity":"safe"}})";

std::string azure_reply(const std::string& finish, const std::string& choice_filter,
                        const std::string& prompt_filter = kAzureSafe) {
  return R"({"id":"x","object":"chat.completion","prompt_filter_results":[{"prompt_index":0,)"
         R"("content_filter_results":)" +
         prompt_filter + R"(}],"choices":[{"index":0,"finish_reason":")" + finish +
         R"(","message":{"role":"assistant","content":"{\"orderId\":\"ORD-1\"}"},)"
         R"("content_filter_results":)" +
         choice_filter +
         R"(}],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}})";
}

TEST(AzureOpenAI, UnfilteredAnnotationsLeaveTheAnswerOk) {
  const Reply reply = decode("azure-openai", azure_reply("stop", kAzureSafe));
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"ORD-1"})");
  EXPECT_EQ(reply.usage.total_tokens, 8);
}

TEST(AzureOpenAI, FinishReasonContentFilterIsContentFiltered) {
  EXPECT_EQ(decode("azure-openai", azure_reply("content_filter", kAzureSafe)).status,
            ReplyStatus::content_filtered);
}

TEST(AzureOpenAI, ChoiceAnnotationSayingFilteredIsContentFiltered) {
  const Reply reply = decode(
      "azure-openai", azure_reply("stop", R"({"violence":{"filtered":true,"severity":"high"}})"));
  EXPECT_EQ(reply.status, ReplyStatus::content_filtered);
}

TEST(AzureOpenAI, PromptAnnotationSayingFilteredIsContentFiltered) {
  const Reply reply =
      decode("azure-openai",
             azure_reply("stop", kAzureSafe, R"({"jailbreak":{"filtered":true,"detected":true}})"));
  EXPECT_EQ(reply.status, ReplyStatus::content_filtered);
}

TEST(AzureOpenAI, BadRequestWithCodeContentFilterIsContentFilteredNotAnHttpError) {
  const Reply reply = decode(
      "azure-openai",
      R"({"error":{"message":"The prompt was filtered.","type":null,"param":"prompt",)"
      R"("code":"content_filter","status":400,"innererror":{"code":"ResponsibleAIPolicyViolation",)"
      R"("content_filter_result":{"hate":{"filtered":true,"severity":"high"}}}}})",
      400);
  EXPECT_EQ(reply.status, ReplyStatus::content_filtered);
  EXPECT_EQ(reply.error_code, "content_filter");
  EXPECT_EQ(reply.detail, "The prompt was filtered.");
}

TEST(AzureOpenAI, OtherBadRequestsStayHttpErrors) {
  const Reply reply =
      decode("azure-openai", R"({"error":{"code":"404","message":"Resource not found"}})", 404);
  EXPECT_EQ(reply.status, ReplyStatus::http_error);
  EXPECT_EQ(reply.detail, "Resource not found");
}

// ---- mistral ---------------------------------------------------------------------------------

TEST(Mistral, AsksForStrictJsonSchemaWithMaxTokens) {
  auto c = codec_call("mistral", "https://api.mistral.ai/v1");
  const auto request = c->provider->encode(c->spec);
  EXPECT_EQ(request.url, "https://api.mistral.ai/v1/chat/completions");
  EXPECT_EQ(header(request, "authorization"), "Bearer azure-key-123");
  const auto body = ojson::parse(request.body);
  EXPECT_EQ(body["response_format"]["json_schema"]["strict"], true);
  EXPECT_EQ(body["max_tokens"], 300);
  EXPECT_FALSE(body.contains("max_completion_tokens"));
}

TEST(Mistral, ForcesTheOutputToolByName) {
  auto c = codec_call("mistral", "https://api.mistral.ai/v1", OutputMode::forced_tool);
  const auto body = ojson::parse(c->provider->encode(c->spec).body);
  EXPECT_EQ(body["tool_choice"]["function"]["name"], "refund");
  EXPECT_FALSE(body.contains("response_format"));
}

std::string mistral_reply(const std::string& finish) {
  return R"({"id":"x","object":"chat.completion","model":"mistral-small-latest","choices":[)"
         R"({"index":0,"finish_reason":")" +
         finish +
         R"(","message":{"role":"assistant","content":"{\"orderId\":\"ORD-1"}}],)"
         R"("usage":{"prompt_tokens":7,"completion_tokens":4,"total_tokens":11}})";
}

TEST(Mistral, LengthIsTruncated) {
  const Reply reply = decode("mistral", mistral_reply("length"));
  EXPECT_EQ(reply.status, ReplyStatus::truncated);
  EXPECT_EQ(reply.text, R"({"orderId":"ORD-1)");
}

TEST(Mistral, ModelLengthIsTruncated) {
  const Reply reply = decode("mistral", mistral_reply("model_length"));
  EXPECT_EQ(reply.status, ReplyStatus::truncated);
  EXPECT_EQ(reply.detail, "model_length");
}

TEST(Mistral, FinishReasonErrorIsAFailedReplyKeepingItsUsage) {
  const Reply reply = decode("mistral", mistral_reply("error"));
  EXPECT_EQ(reply.status, ReplyStatus::bad_reply);
  EXPECT_EQ(reply.error_code, "error");
  EXPECT_NE(reply.detail.find("finish_reason \"error\""), std::string::npos) << reply.detail;
  EXPECT_EQ(reply.usage.total_tokens, 11);
}

TEST(Mistral, OpenAIFinishReasonsOnAnotherProviderKeepTheirMeaning) {
  // "model_length" is Mistral's word only: OpenAI's codec does not read it as a cut-off.
  EXPECT_EQ(decode("openai-chat", mistral_reply("model_length")).status, ReplyStatus::ok);
}

// ---- streamed requests -----------------------------------------------------------------------

std::string streamed_body(const char* provider) {
  HttpRequest request{"http://127.0.0.1:9/v1", {}, R"({"model":"m"})"};
  detail::ask_for_stream(request, provider);
  return request.body;
}

TEST(AzureOpenAI, AStreamedRequestAsksForUsage) {
  EXPECT_EQ(streamed_body("azure-openai"),
            R"({"model":"m","stream":true,"stream_options":{"include_usage":true}})");
}

TEST(Mistral, AFunctionNameInEveryToolCallChunkIsKeptOnce) {
  // Mistral's chunks each carry function.name beside the arguments; OpenAI names it once.
  auto stream = detail::make_stream_assembler("mistral", OutputMode::forced_tool);
  for (const char* arguments : {R"({\"orderId\":)", R"(\"ORD-1\"})"}) {
    const std::string data =
        std::string(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1",)") +
        R"("function":{"name":"refund","arguments":")" + arguments + R"("}}]}}]})";
    (void)stream->take({"", data});
  }
  (void)stream->take({"", R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})"});
  const auto body = stream->body();
  const auto& call = body["choices"][0]["message"]["tool_calls"][0]["function"];
  EXPECT_EQ(call["name"], "refund");
  EXPECT_EQ(call["arguments"], R"({"orderId":"ORD-1"})");
}

TEST(Mistral, AStreamedRequestCarriesNoStreamOptions) {
  // Mistral sends usage in the last chunk unasked and refuses members it does not know.
  EXPECT_EQ(streamed_body("mistral"), R"({"model":"m","stream":true})");
}

}  // namespace
}  // namespace accord
