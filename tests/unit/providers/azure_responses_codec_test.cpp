// The azure-openai-responses codec: the Responses API's request through Azure's URLs
// (/openai/responses with an api-version and the key in api-key, or the /openai/v1 surface with a
// bearer token), Azure's strict-mode table, and the content filter's verdict on a prompt.

#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "fixtures/codec_calls.hpp"
#include "fixtures/scoped_env.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;
using testing_support::decode;
using testing_support::header;

const ojson kAzureInvoice = ojson::parse(R"({"type": "object",
    "properties": {"vendor": {"type": "string", "maxLength": 40}}, "required": ["vendor"],
    "additionalProperties": false})");

struct AzureResponsesCall {
  std::unique_ptr<Provider> provider;
  WireSchema wire;
  CallSpec spec;
};

// On the heap: the spec points at the wire schema beside it.
std::unique_ptr<AzureResponsesCall> azure_responses_call(std::string base_url) {
  auto c = std::make_unique<AzureResponsesCall>(
      AzureResponsesCall{make_provider("azure-openai-responses"), {}, {}});
  EXPECT_NE(c->provider, nullptr);
  c->wire = c->provider->lower(kAzureInvoice, Report{});
  c->spec.base_url = std::move(base_url);
  c->spec.api_key = "azure-key-123";
  c->spec.model = "invoices";
  c->spec.max_tokens = 300;
  c->spec.turns.push_back({Turn::Role::user, "Invoice from ACME.", {}, {}, {}});
  c->spec.output_name = "invoice";
  c->spec.output = &c->wire;
  c->spec.mode = OutputMode::response_format;
  return c;
}

TEST(AzureOpenAIResponses, GoesToOpenAIResponsesWithTheApiVersionAndTheKeyInApiKey) {
  const ScopedEnv unset("OPENAI_API_VERSION", "");
  auto c = azure_responses_call("https://res.openai.azure.com");
  const auto request = c->provider->encode(c->spec);
  EXPECT_EQ(request.url,
            "https://res.openai.azure.com/openai/responses?api-version=2025-04-01-preview");
  EXPECT_EQ(header(request, "api-key"), "azure-key-123");
  EXPECT_EQ(header(request, "authorization"), std::nullopt);
}

TEST(AzureOpenAIResponses, BodyIsTheResponsesApisWithTheDeploymentAsModel) {
  auto c = azure_responses_call("https://res.openai.azure.com");
  const auto body = ojson::parse(c->provider->encode(c->spec).body);
  EXPECT_EQ(body["model"], "invoices");
  EXPECT_EQ(body["text"]["format"]["type"], "json_schema");
  EXPECT_EQ(body["text"]["format"]["strict"], true);
  EXPECT_TRUE(body["input"].is_array());
}

TEST(AzureOpenAIResponses, V1SurfaceTakesABearerTokenAndNoApiVersion) {
  auto c = azure_responses_call("https://res.openai.azure.com/openai/v1");
  const auto request = c->provider->encode(c->spec);
  EXPECT_EQ(request.url, "https://res.openai.azure.com/openai/v1/responses");
  EXPECT_EQ(header(request, "authorization"), "Bearer azure-key-123");
  EXPECT_EQ(header(request, "api-key"), std::nullopt);
}

TEST(AzureOpenAIResponses, LowersWithAzuresStrictTable) {
  auto c = azure_responses_call("https://res.openai.azure.com");
  // Azure's strict subset has no lengths: maxLength moves into the description.
  const auto& vendor = c->wire.schema["properties"]["vendor"];
  EXPECT_FALSE(vendor.contains("maxLength")) << vendor.dump();
}

TEST(AzureOpenAIResponses, PromptBlockedByTheContentFilterIsContentFiltered) {
  const Reply reply = decode("azure-openai-responses",
                             R"({"error":{"code":"content_filter","message":"blocked",)"
                             R"("innererror":{"code":"ResponsibleAIPolicyViolation"}}})",
                             400);
  EXPECT_EQ(reply.status, ReplyStatus::content_filtered);
}

TEST(AzureOpenAIResponses, OutputTextIsReadAsTheResponsesApisIs) {
  const Reply reply = decode("azure-openai-responses",
                             R"({"status":"completed","output":[{"type":"message","content":[)"
                             R"({"type":"output_text","text":"{\"vendor\":\"ACME\"}"}]}],)"
                             R"("usage":{"input_tokens":5,"output_tokens":4,"total_tokens":9}})");
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.usage.total_tokens, 9);
}

}  // namespace
}  // namespace accord
