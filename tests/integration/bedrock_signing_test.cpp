// Bedrock over real HTTP: accord's SigV4-signed request (signed by its transport) passes
// accord-mock's check of the signature, which computes it as AWS does; a wrong secret is refused
// with AWS's 403; a session token travels in its header and is never written; a ConverseStream
// reply in the AWS event-stream framing is read as the whole reply is.
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

// The test key pair accord-mock knows (mock_server/README.md, "Bedrock").
constexpr const char* kAccessKeyId = "AKIDACCORDMOCKTEST";
constexpr const char* kSecret = "accord-mock-test-secret-key";
constexpr const char* kSessionToken = "SESSION-TOKEN-SENTINEL-77aa";

Result<json> extract(const MockProcess& mock, const std::string& key, bool stream = false) {
  ClientOptions options{.provider = "bedrock",
                        .model = "anthropic.claude-haiku-4-5-20251001-v1:0",
                        .base_url = mock.root_url(),
                        .api_key = key,
                        .retry = {.max_retries = 0}};
  const Client client(options);
  ExtractRequest request{
      .schema = examples::refund_schema(), .prompt = "Extract the refund.", .name = "refund"};
  if (stream) request.stream = StreamOptions{.enabled = true};
  return client.extract(request);
}

std::string signing_scenario() {
  return json{{"replies", {{{"json", kValidRefund}}}}}.dump();
}

TEST(BedrockSigning, SignedRequestWithTheModelIdsColonPassesTheSignatureCheck) {
  const MockProcess mock(signing_scenario());
  const auto result = extract(mock, std::string(kAccessKeyId) + ":" + kSecret);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const json requests = mock.requests();
  ASSERT_EQ(requests.size(), 1u);
  // The log shows the path decoded; the signature check read it as sent (%3A).
  EXPECT_TRUE(requests[0]["path"].get<std::string>().ends_with("-v1:0/converse"))
      << requests[0]["path"];
  EXPECT_EQ(requests[0]["headers"]["authorization"], "[redacted]");
  EXPECT_TRUE(requests[0]["headers"].contains("x-amz-date")) << requests[0]["headers"].dump();
}

TEST(BedrockSigning, AWrongSecretIsRefusedWith403AsAws) {
  const MockProcess mock(signing_scenario());
  const auto result = extract(mock, std::string(kAccessKeyId) + ":not-the-secret");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::http);
  EXPECT_EQ(result.trace().attempts.at(0).http_status, 403);
  EXPECT_NE(result.error().message.find("signature we calculated does not match"),
            std::string::npos)
      << result.error().message;
  EXPECT_EQ(result.error().message.find("not-the-secret"), std::string::npos);
}

TEST(BedrockSigning, AnUnknownAccessKeyIsRefusedWith403) {
  const MockProcess mock(signing_scenario());
  const auto result = extract(mock, std::string("AKIDUNKNOWN:") + kSecret);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.trace().attempts.at(0).http_status, 403);
}

TEST(BedrockSigning, SessionTokenIsSignedSentAndNeverWritten) {
  const MockProcess mock(signing_scenario());
  const auto result =
      extract(mock, std::string(kAccessKeyId) + ":" + kSecret + ":" + kSessionToken);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const json headers = mock.requests()[0]["headers"];
  EXPECT_EQ(headers.value("x-amz-security-token", ""), "[redacted]") << headers.dump();
  const std::string written = result.trace().to_json().dump() + result.trace().to_text() +
                              mock.log_text() + mock.requests().dump();
  EXPECT_EQ(written.find("SESSION-TOKEN-SENTINEL"), std::string::npos);
  EXPECT_EQ(written.find(kSecret), std::string::npos);
}

TEST(BedrockSigning, SignedConverseStreamIsReadFromTheEventStreamFraming) {
  const MockProcess mock(signing_scenario());
  const auto result = extract(mock, std::string(kAccessKeyId) + ":" + kSecret, true);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(mock.requests()[0]["path"].get<std::string>().ends_with("/converse-stream"));
  const auto& stream = result.trace().attempts.at(0).stream;
  EXPECT_TRUE(stream.streamed);
  EXPECT_GT(stream.events, 3u);
  EXPECT_FALSE(result.trace().attempts.at(0).usage.estimated);
}

}  // namespace
}  // namespace accord
