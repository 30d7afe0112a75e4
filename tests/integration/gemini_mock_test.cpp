// accord-mock's Gemini routes over real HTTP: the Gemini API's and Vertex AI's paths, Google's
// error envelope, a stream asked for by its URL, and the output cap read from generationConfig;
// and the loop's paths that are not parameterised by provider (truncation recovery, async) on
// them.

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "accord/client.hpp"
#include "fixtures/mock_http.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace {

using nlohmann::json;

const json kGeminiRequest = {
    {"contents", {{{"role", "user"}, {"parts", {{{"text", "Extract it."}}}}}}},
    {"generationConfig", {{"responseMimeType", "application/json"}, {"maxOutputTokens", 1024}}}};

std::string gemini_replies(const json& list) {
  return json{{"replies", list}}.dump();
}

mock_http::Result gemini_post(const MockProcess& mock, const std::string& path,
                              const json& body = kGeminiRequest) {
  return mock_http::post(mock.root_url() + path, body.dump());
}

TEST(GeminiMock, VertexPathAnswersAsTheGeminiApiDoes) {
  REQUIRE_MOCK();
  MockProcess mock(gemini_replies({{{"json", {{"a", 1}}}}}));
  const auto result =
      gemini_post(mock,
                  "/v1beta1/projects/p1/locations/us-central1/publishers/google/models/"
                  "gemini-test:generateContent");
  ASSERT_EQ(result.status, 200) << result.body;
  const auto body = json::parse(result.body);
  EXPECT_EQ(body["candidates"][0]["content"]["parts"][0]["text"], R"({"a":1})");
  EXPECT_EQ(body["candidates"][0]["finishReason"], "STOP");
}

TEST(GeminiMock, ErrorsComeInGooglesEnvelopeWithTheStatusName) {
  REQUIRE_MOCK();
  MockProcess mock(gemini_replies({{{"status", 429}}}));
  const auto result = gemini_post(mock, "/v1/models/gemini-test:generateContent");
  ASSERT_EQ(result.status, 429);
  const auto error = json::parse(result.body)["error"];
  EXPECT_EQ(error["code"], 429);
  EXPECT_EQ(error["status"], "RESOURCE_EXHAUSTED");
  EXPECT_TRUE(error["message"].is_string());
}

TEST(GeminiMock, TheStreamingUrlStreamsChunksEndingWithFinishReason) {
  REQUIRE_MOCK();
  MockProcess mock(gemini_replies({{{"json", {{"vendor", "ACME"}}}, {"stream_chunk_chars", 4}}}));
  const auto result = gemini_post(mock, "/v1beta/models/gemini-test:streamGenerateContent?alt=sse");
  ASSERT_EQ(result.status, 200) << result.body;
  EXPECT_EQ(result.header("content-type").rfind("text/event-stream", 0), 0u);
  std::string text;
  json last;
  for (std::size_t at = result.body.find("data: "); at != std::string::npos;
       at = result.body.find("data: ", at + 1)) {
    const auto end = result.body.find("\r\n\r\n", at);
    ASSERT_NE(end, std::string::npos) << "each event ends with CRLF CRLF, as Google sends it";
    last = json::parse(result.body.substr(at + 6, end - at - 6));
    for (const auto& part : last["candidates"][0]["content"]["parts"]) {
      text += part.value("text", "");
    }
  }
  EXPECT_EQ(text, R"({"vendor":"ACME"})");
  EXPECT_EQ(last["candidates"][0]["finishReason"], "STOP");
  EXPECT_GT(last["usageMetadata"]["totalTokenCount"], 0);
}

TEST(GeminiMock, ObeyMaxTokensCutsAtGenerationConfigsCap) {
  REQUIRE_MOCK();
  MockProcess mock(
      gemini_replies({{{"json", {{"note", std::string(100, 'x')}}}, {"obey_max_tokens", true}}}));
  json request = kGeminiRequest;
  request["generationConfig"]["maxOutputTokens"] = 5;
  const auto result = gemini_post(mock, "/v1/models/gemini-test:generateContent", request);
  ASSERT_EQ(result.status, 200) << result.body;
  const auto candidate = json::parse(result.body)["candidates"][0];
  EXPECT_EQ(candidate["finishReason"], "MAX_TOKENS");
  EXPECT_EQ(candidate["content"]["parts"][0]["text"].get<std::string>().size(), 20u);
}

}  // namespace

namespace accord {
namespace {

using namespace testing_documents;

Client gemini_client(const MockProcess& mock, int max_tokens = 1024) {
  return Client({.provider = "gemini",
                 .model = "gemini-test",
                 .base_url = mock.base_url(),
                 .api_key = "gm-test-key",
                 .max_tokens = max_tokens});
}

TEST(GeminiLoop, TruncatedReplyIsSentAgainWithARaisedMaxOutputTokens) {
  // The refund (153 bytes) is cut at the cap: 15 tokens (60 bytes), raised once to 60 tokens.
  MockProcess mock(gemini_replies({{{"json", kValidRefund}, {"obey_max_tokens", true}}}));
  auto result = gemini_client(mock, 15).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].status, ReplyStatus::truncated);
  EXPECT_EQ(attempts[1].role, AttemptRole::raised_cap);
  const auto requests = mock.requests();
  EXPECT_EQ(requests.at(1)["body"]["generationConfig"]["maxOutputTokens"], 60);
  EXPECT_EQ(requests.at(1)["body"]["contents"], requests.at(0)["body"]["contents"]);
}

TEST(GeminiLoop, ExtractAsyncHoldsTheCorrectedValue) {
  json invalid = kValidRefund;
  invalid["amount"] = -5;
  MockProcess mock(gemini_replies({{{"json", invalid}}, {{"json", kValidRefund}}}));
  auto result = gemini_client(mock).extract_async(refund_request()).get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  // By default a scoped correction: a fresh request for the failing value, in the same shape.
  const auto second = mock.requests().at(1)["body"];
  EXPECT_EQ(second["contents"].size(), 1u);
  EXPECT_EQ(second["generationConfig"]["responseMimeType"], "application/json");
  EXPECT_TRUE(second["generationConfig"].contains("responseJsonSchema"));
}

}  // namespace
}  // namespace accord
