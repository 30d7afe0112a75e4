// The extraction loop over real HTTP against accord-mock, for every provider profile.
#include "accord/client.hpp"
#include "accord/providers/provider.hpp"

#include <gtest/gtest.h>
#include <httplib.h>

#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;

using namespace testing_documents;

class Loop : public ::testing::TestWithParam<std::string> {
 protected:
  Result<json> run(const std::vector<json>& replies, int corrections = 1,
                   OutputMode mode = OutputMode::response_format) {
    mock_ = std::make_unique<MockProcess>(scenario(replies));
    ClientOptions options{.provider = GetParam(),
                          .model = "test-model",
                          .base_url = mock_->base_url(),
                          .api_key = "sk-test-SENTINEL-123"};
    options.retry.initial_backoff = std::chrono::milliseconds(5);
    options.transport.total_timeout = std::chrono::milliseconds(5000);
    options.truncation = truncation_;
    const Client client(options);
    return client.extract({.schema = examples::refund_schema(),
                           .prompt = "Extract the refund.",
                           .system = "You extract refunds.",
                           .name = "refund",
                           .mode = mode,
                           .corrections = corrections});
  }

  // The JSON bodies accord-mock received, in order.
  json received() const {
    httplib::Client http("127.0.0.1", mock_->port());
    auto response = http.Get("/_accord/requests");
    EXPECT_TRUE(response);
    json log = json::parse(response->body);
    json bodies = json::array();
    for (const auto& entry : log) bodies.push_back(entry["body"]);
    return bodies;
  }

  std::unique_ptr<MockProcess> mock_;
  TruncationRecovery truncation_;
};

TEST_P(Loop, ValidFirstReplyIsReturnedAfterOneAttempt) {
  auto result = run({{{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  EXPECT_EQ(result.trace().attempts.size(), 1u);
  EXPECT_GT(result.trace().usage.total_tokens, 0);
}

TEST_P(Loop, InvalidReplyIsCorrectedOnTheSecondAttempt) {
  auto result = run({{{"json", swapped_dates()}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  ASSERT_EQ(result.trace().attempts[0].issues.size(), 1u);
  EXPECT_EQ(result.trace().attempts[0].issues[0].message, "refundDate is before orderDate");
  EXPECT_TRUE(result.trace().attempts[1].issues.empty());
}

TEST_P(Loop, UsageIsSummedOverAttempts) {
  auto result = run({{{"json", swapped_dates()}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok());
  const auto& attempts = result.trace().attempts;
  EXPECT_EQ(result.trace().usage.total_tokens,
            attempts[0].usage.total_tokens + attempts[1].usage.total_tokens);
}

TEST_P(Loop, CorrectionRequestCarriesPrettifiedIssuesAndTheRawReply) {
  auto result = run({{{"json", swapped_dates()}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok());
  const json bodies = received();
  ASSERT_EQ(bodies.size(), 2u);
  const std::string second = bodies[1].dump();
  EXPECT_NE(second.find("That JSON failed validation:\\n\u2716 refundDate is before orderDate\\n  "
                        "\u2192 at refundDate\\nReturn the corrected JSON only."),
            std::string::npos)
      << second;
  // The model's first reply goes back verbatim as the assistant turn.
  EXPECT_NE(second.find(json(swapped_dates().dump()).dump().substr(1, 40)), std::string::npos)
      << second;
}

TEST_P(Loop, InvalidTwiceFailsWithBothAttemptsInTheTrace) {
  auto result = run({{{"json", swapped_dates()}}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::invalid_after_retries);
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_FALSE(result.trace().attempts[0].issues.empty());
  EXPECT_FALSE(result.trace().attempts[1].issues.empty());
  EXPECT_NE(result.error().message.find("refundDate is before orderDate"), std::string::npos);
}

TEST_P(Loop, ZeroCorrectionsFailsAfterOneAttempt) {
  auto result = run({{{"json", swapped_dates()}}, {{"json", kValidRefund}}}, 0);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::invalid_after_retries);
  EXPECT_EQ(result.trace().attempts.size(), 1u);
}

TEST_P(Loop, RefusalIsReportedAsRefusedAndNotCorrected) {
  if (!make_provider(GetParam())->schema_capabilities().signals_refusal) {
    GTEST_SKIP() << GetParam() << " has no refusal signal";
  }
  auto result = run({{{"refusal", "I can't help with that."}}, {{"json", kValidRefund}}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::refused);
  EXPECT_EQ(result.trace().attempts.size(), 1u);
}

TEST_P(Loop, TruncationIsReportedAsTruncatedNotAsAParseError) {
  // Without recovery (on by default, pinned in truncation_recovery_test.cpp).
  truncation_.enabled = false;
  auto result = run({{{"truncated", R"({"orderId":"ORD-4829)"}}, {{"json", kValidRefund}}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::truncated);
  ASSERT_EQ(result.trace().attempts.size(), 1u);
  EXPECT_TRUE(result.trace().attempts[0].issues.empty());
}

TEST_P(Loop, BrokenJsonIsCorrected) {
  auto result = run({{{"text", R"({"orderId": "ORD-482913", )"}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  ASSERT_EQ(result.trace().attempts[0].issues.size(), 1u);
  EXPECT_EQ(result.trace().attempts[0].issues[0].code, IssueCode::invalid_json);
}

TEST_P(Loop, RateLimitWithRetryAfterIsRetriedByTheTransport) {
  auto result =
      run({{{"status", 429}, {"headers", {{"retry-after-ms", "20"}}}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 1u);
  EXPECT_EQ(result.trace().attempts[0].transport_log.size(), 2u);
}

TEST_P(Loop, ServerErrorTwiceThenSuccess) {
  auto result = run({{{"status", 500}}, {{"status", 500}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.trace().attempts[0].transport_log.size(), 3u);
}

TEST_P(Loop, DroppedConnectionIsRetried) {
  auto result = run({{{"drop", true}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.trace().attempts[0].transport_log.size(), 2u);
}

TEST_P(Loop, ConnectionDroppedEveryTimeIsATransportError) {
  auto result = run({{{"drop", true}}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::transport);
  ASSERT_EQ(result.trace().attempts.size(), 1u);
  EXPECT_EQ(result.trace().attempts[0].transport_log.size(), 3u);
}

TEST_P(Loop, BadRequestIsAnHttpErrorWithTheProvidersMessage) {
  auto result = run({{{"status", 400}}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::http);
  EXPECT_EQ(result.trace().attempts[0].transport_log.size(), 1u);
}

TEST_P(Loop, ApiKeyNeverAppearsInTheTraceOrError) {
  auto result = run({{{"status", 401},
                      {"body",
                       {{"error",
                         {{"message", "Incorrect API key provided: sk-test-SENTINEL-123"},
                          {"type", "invalid_request_error"},
                          {"code", "invalid_api_key"}}}}}}});
  ASSERT_FALSE(result.ok());
  const std::string everything =
      result.trace().to_json().dump() + result.trace().to_text() + result.error().message;
  EXPECT_EQ(everything.find("SENTINEL"), std::string::npos) << everything;
}

TEST_P(Loop, ForcedToolModeIsCorrectedThroughAnErrorToolResult) {
  if (!make_provider(GetParam())->schema_capabilities().forces_tool) {
    GTEST_SKIP() << GetParam() << " is not known to force a tool";
  }
  auto result =
      run({{{"json", swapped_dates()}}, {{"json", kValidRefund}}}, 1, OutputMode::forced_tool);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::string second = received()[1].dump();
  EXPECT_NE(second.find("refundDate is before orderDate"), std::string::npos);
  if (GetParam() == "anthropic") {
    EXPECT_NE(second.find("\"is_error\":true"), std::string::npos) << second;
  }
}

INSTANTIATE_TEST_SUITE_P(Providers, Loop, ::testing::ValuesIn(::accord::provider_names()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

TEST(Contract, IsBuiltOncePerSchemaAndName) {
  const Client client({.provider = "anthropic", .base_url = "http://127.0.0.1:9"});
  const auto schema = examples::refund_schema();
  EXPECT_EQ(client.contract(schema, "refund"), client.contract(schema, "refund"));
}

TEST(Client, UnknownProviderNamesTheKnownOnes) {
  try {
    const Client client({.provider = "nope"});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("openai-chat"), std::string::npos);
  }
}

}  // namespace
}  // namespace accord
