// Fallbacks end to end over loopback: two accord-mock instances, the first unavailable (503 or
// 429 after its retries, connection refused) or refusing, the second answering. Each provider
// falls back to the next one in the registry, so every provider is tried in both places.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

const std::string kFallbackKey = "sk-test-FALLBACK-456";

// The provider after `name` in the registry (the first after the last).
std::string next_provider(const std::string& name) {
  const auto names = provider_names();
  const auto at = std::find(names.begin(), names.end(), name);
  return at + 1 == names.end() ? names.front() : *(at + 1);
}

json unavailable(int status) {
  return json{{"status", status}};
}

const std::vector<json> kAnswers = {{{"json", kValidRefund}}};
const std::vector<json> kUnavailable = {unavailable(503), unavailable(503), unavailable(503)};

class Fallback : public ::testing::TestWithParam<std::string> {
 protected:
  [[nodiscard]] const std::string& primary() const { return GetParam(); }
  [[nodiscard]] std::string secondary() const { return next_provider(GetParam()); }

  // The client: the primary on one mock scripted with `first`, falling back to the next
  // provider on another scripted with `second`.
  Client client(const std::vector<json>& first, const std::vector<json>& second) {
    first_ = std::make_unique<MockProcess>(scenario(first));
    second_ = std::make_unique<MockProcess>(scenario(second));
    auto options = testing_support::mock_client_options(primary(), first_->base_url());
    options.fallbacks = {fallback_to_second()};
    return Client(options);
  }

  [[nodiscard]] accord::Fallback fallback_to_second() const {
    return {.provider = secondary(),
            .model = "fallback-model",
            .base_url = second_->base_url(),
            .api_key = kFallbackKey};
  }

  [[nodiscard]] bool signals_refusal() const {
    return make_provider(primary())->schema_capabilities().signals_refusal;
  }

  std::unique_ptr<MockProcess> first_;
  std::unique_ptr<MockProcess> second_;
};

TEST_P(Fallback, UnavailableAfterRetriesHandsTheCallToTheNext) {
  auto result = client(kUnavailable, kAnswers).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].provider, primary());
  EXPECT_EQ(attempts[0].http_status, 503);
  EXPECT_EQ(attempts[0].transport_log.size(), 3u);  // its own retries came first
  EXPECT_NE(attempts[0].note.find("falling back to " + secondary()), std::string::npos)
      << attempts[0].note;
  EXPECT_EQ(attempts[1].provider, secondary());
  EXPECT_EQ(attempts[1].model, "fallback-model");
  EXPECT_EQ(attempts[1].role, AttemptRole::first);
  EXPECT_EQ(result.trace().provider(), secondary());
  EXPECT_EQ(result.trace().model(), "fallback-model");
  EXPECT_EQ(first_->requests().size(), 3u);
  EXPECT_EQ(second_->requests().size(), 1u);
}

TEST_P(Fallback, RateLimitedAfterRetriesFallsBack) {
  auto result = client({unavailable(429), unavailable(429), unavailable(429)}, kAnswers)
                    .extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.trace().attempts.front().http_status, 429);
  EXPECT_EQ(result.trace().provider(), secondary());
}

TEST_P(Fallback, RefusalFallsBack) {
  if (!signals_refusal()) GTEST_SKIP() << primary() << " signals no refusal";
  auto result =
      client({{{"refusal", "I can't help with that."}}}, kAnswers).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_EQ(result.trace().attempts[0].status, ReplyStatus::refusal);
  EXPECT_EQ(result.trace().provider(), secondary());
}

TEST_P(Fallback, HttpErrorOutsideThePolicyEndsTheCall) {
  auto result = client({unavailable(400)}, kAnswers).extract(refund_request());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::http);
  EXPECT_EQ(result.trace().attempts.size(), 1u);
  EXPECT_EQ(second_->requests().size(), 0u);
}

// A fallback starts over with its own Contract; the correction of its invalid reply goes to it.
TEST_P(Fallback, CorrectionStaysWithTheProviderThatErred) {
  auto result = client(kUnavailable, {{{"json", bad_amount()}}, {{"json", kValidRefund}}})
                    .extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(attempts[1].provider, secondary());
  EXPECT_FALSE(attempts[1].issues.empty());
  EXPECT_EQ(attempts[2].provider, secondary());
  EXPECT_EQ(attempts[2].role, AttemptRole::scoped_correction);
  EXPECT_EQ(second_->requests().size(), 2u);
}

TEST_P(Fallback, ProviderThatAnswersInvalidIsCorrectedNotLeft) {
  auto result = client({{{"json", bad_amount()}}, {{"json", kValidRefund}}}, kAnswers)
                    .extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.trace().provider(), primary());
  EXPECT_EQ(second_->requests().size(), 0u);
}

TEST_P(Fallback, EveryProviderFailingReturnsEveryAttemptOfEach) {
  auto result = client(kUnavailable, {unavailable(502), unavailable(502), unavailable(502)})
                    .extract(refund_request());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::http);
  const auto& attempts = result.error().trace.attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].provider, primary());
  EXPECT_EQ(attempts[0].http_status, 503);
  EXPECT_EQ(attempts[0].transport_log.size(), 3u);
  EXPECT_EQ(attempts[1].provider, secondary());
  EXPECT_EQ(attempts[1].http_status, 502);
  EXPECT_EQ(attempts[1].transport_log.size(), 3u);
}

// A Contract made for the primary is lowered again for the fallback from its own JSON Schema.
TEST_P(Fallback, ReadyContractIsRebuiltForTheFallbackProvider) {
  auto made = client(kUnavailable, kAnswers);
  auto request = refund_request();
  request.schema = made.contract(examples::refund_schema(), "refund");
  auto result = made.extract(request);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  EXPECT_EQ(result.trace().provider(), secondary());
  EXPECT_EQ(second_->requests().size(), 1u);
}

TEST_P(Fallback, AsyncCallFallsBack) {
  auto made = client(kUnavailable, kAnswers);
  auto result = made.extract_async(refund_request()).get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.trace().provider(), secondary());
  EXPECT_EQ(second_->requests().size(), 1u);
}

TEST_P(Fallback, TypedCallFallsBack) {
  auto made = client(kUnavailable, kAnswers);
  auto result = made.extract<examples::Refund>(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().orderId, "ORD-482913");
  EXPECT_EQ(result.trace().provider(), secondary());
}

TEST_P(Fallback, HooksSeeTheProviderOfEachAttempt) {
  first_ = std::make_unique<MockProcess>(
      scenario({unavailable(503), unavailable(503), unavailable(503)}));
  second_ = std::make_unique<MockProcess>(scenario(kAnswers));
  auto options = testing_support::mock_client_options(primary(), first_->base_url());
  options.fallbacks = {fallback_to_second()};
  std::mutex mutex;
  std::vector<CallIdentity> sent;
  std::optional<CallFinished> finished;
  options.hooks.on_request_sent = [&](const RequestSent& e) {
    std::lock_guard lock(mutex);
    sent.push_back(e.call);
  };
  options.hooks.on_call_finished = [&](const CallFinished& e) { finished = e; };
  auto result = Client(options).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].provider, primary());
  EXPECT_EQ(sent[0].port, first_->port());
  EXPECT_EQ(sent[1].provider, secondary());
  EXPECT_EQ(sent[1].model, "fallback-model");
  EXPECT_EQ(sent[1].system, make_provider(secondary())->telemetry_name());
  EXPECT_EQ(sent[1].port, second_->port());
  EXPECT_EQ(sent[0].id, sent[1].id);
  ASSERT_TRUE(finished);
  EXPECT_EQ(finished->attempts, 2u);
  EXPECT_EQ(finished->call.provider, secondary());
}

// A fallback's server may echo the key it was sent: the fallback's own key, not the first
// provider's, is what comes out of its reply and the records.
TEST_P(Fallback, FallbacksOwnKeyIsRedacted) {
  json echoed = kValidRefund;
  echoed["note"] = "key: " + kFallbackKey;
  auto result = client(kUnavailable, {{{"json", echoed}}}).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value()["note"], "key: [redacted]");
  const std::string records = result.trace().to_json().dump() + result.trace().to_text();
  EXPECT_EQ(records.find("FALLBACK-456"), std::string::npos) << records;
  EXPECT_EQ(records.find("SENTINEL-123"), std::string::npos) << records;
}

INSTANTIATE_TEST_SUITE_P(Providers, Fallback, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

// What does not depend on the provider.
class FallbackRules : public ::testing::Test {
 protected:
  // openai-chat on a mock scripted with `first`, falling back to anthropic on another scripted
  // with `second`.
  ClientOptions options(const std::vector<json>& first, const std::vector<json>& second) {
    first_ = std::make_unique<MockProcess>(scenario(first));
    second_ = std::make_unique<MockProcess>(scenario(second));
    auto options = testing_support::mock_client_options("openai-chat", first_->base_url());
    options.fallbacks = {
        {.provider = "anthropic", .base_url = second_->root_url(), .api_key = kFallbackKey}};
    return options;
  }

  std::unique_ptr<MockProcess> first_;
  std::unique_ptr<MockProcess> second_;
};

TEST_F(FallbackRules, ConnectionRefusedFallsBack) {
  auto made = options(kAnswers, kAnswers);
  made.base_url = "http://127.0.0.1:" + std::to_string(first_->port()) + "/v1";
  first_.reset();  // nothing listens on its port any more
  made.retry.max_retries = 0;
  auto result = Client(made).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_EQ(result.trace().attempts[0].http_status, 0);
  EXPECT_EQ(result.trace().provider(), "anthropic");
}

TEST_F(FallbackRules, PolicyWithoutRefusalKeepsTheRefusal) {
  auto made = options({{{"refusal", "I can't help with that."}}}, kAnswers);
  made.fallback_policy.on_refusal = false;
  auto result = Client(made).extract(refund_request());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::refused);
  EXPECT_EQ(second_->requests().size(), 0u);
}

TEST_F(FallbackRules, PolicyStatusesSayWhichFailuresMoveOn) {
  auto made = options({unavailable(400)}, kAnswers);
  made.fallback_policy.statuses = {400};
  auto result = Client(made).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.trace().provider(), "anthropic");
}

TEST_F(FallbackRules, CallsOwnListReplacesTheClients) {
  auto made = options({unavailable(503)}, kAnswers);
  auto request = refund_request();
  request.fallbacks = made.fallbacks;
  made.fallbacks.clear();
  made.retry.max_retries = 0;
  auto result = Client(made).extract(request);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.trace().provider(), "anthropic");
}

TEST_F(FallbackRules, EmptyListOnTheCallTurnsFallbacksOff) {
  auto made = options({unavailable(503)}, kAnswers);
  made.retry.max_retries = 0;
  auto request = refund_request();
  request.fallbacks.emplace();
  auto result = Client(made).extract(request);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::http);
  EXPECT_EQ(second_->requests().size(), 0u);
}

TEST_F(FallbackRules, FallbackWithoutAKeyIsRefusedBeforeSending) {
  if (!make_provider("anthropic")->api_key_from_environment().empty())
    GTEST_SKIP() << "the anthropic key variable is set here";
  auto made = options(kAnswers, kAnswers);
  made.fallbacks = {{.provider = "anthropic", .base_url = "https://api.invalid.example/v1"}};
  const Client client(made);
  ASSERT_TRUE(client.unusable_reason());
  EXPECT_NE(client.unusable_reason()->find("fallback anthropic"), std::string::npos);
  EXPECT_THROW((void)client.extract(refund_request()), std::invalid_argument);
  EXPECT_EQ(first_->requests().size(), 0u);
}

TEST_F(FallbackRules, ParameterTheFallbackDoesNotTakeIsRefusedBeforeSending) {
  auto request = refund_request();
  request.parameters.seed = 7;  // openai-chat takes a seed, anthropic does not
  const Client client(options(kUnavailable, kAnswers));
  try {
    (void)client.extract(request);
    FAIL() << "the call was not refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fallback anthropic"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("seed"), std::string::npos) << e.what();
  }
  EXPECT_EQ(first_->requests().size(), 0u);
  EXPECT_EQ(second_->requests().size(), 0u);
}

TEST_F(FallbackRules, ExtraHeadersAndBodyStayWithTheFirstEndpoint) {
  auto made = options(kUnavailable, kAnswers);
  made.parameters.extra_headers = {{"x-gateway-token", "gw-token-1"}};
  made.parameters.extra_body = {{"gateway_route", "eu"}};
  auto result = Client(made).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto first = first_->requests().front();
  EXPECT_TRUE(first["headers"].contains("x-gateway-token"));
  EXPECT_TRUE(first["body"].contains("gateway_route")) << first["body"].dump();
  const auto second = second_->requests().front();
  EXPECT_FALSE(second["headers"].contains("x-gateway-token")) << second["headers"].dump();
  EXPECT_FALSE(second["body"].contains("gateway_route")) << second["body"].dump();
}

TEST_F(FallbackRules, TraceNamesWhoEachAttemptWentTo) {
  auto result = Client(options(kUnavailable, kAnswers)).extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto records = result.trace().to_json();
  EXPECT_EQ(records["provider"], "anthropic");
  EXPECT_EQ(records["attempts"][0]["provider"], "openai-chat");
  EXPECT_EQ(records["attempts"][0]["model"], "test-model");
  EXPECT_EQ(records["attempts"][1]["provider"], "anthropic");
  const std::string text = result.trace().to_text();
  EXPECT_NE(text.find("attempt 1 to openai-chat test-model: HTTP 503"), std::string::npos) << text;
  EXPECT_NE(text.find("attempt 2 to anthropic "), std::string::npos) << text;
}

// The last client a call can go to takes the caller's turns (the others a copy): after two
// fallbacks, its request carries the prompt as the first request did, and every attempt is kept.
TEST_F(FallbackRules, TheLastOfTwoFallbacksSendsTheCallersTurns) {
  auto made = options(kUnavailable, kUnavailable);
  const MockProcess third(scenario(kAnswers));
  made.fallbacks = {
      {.provider = "openai-chat", .base_url = second_->base_url(), .api_key = kFallbackKey},
      {.provider = "openai-chat", .base_url = third.base_url(), .api_key = kFallbackKey}};
  const ExtractRequest request = refund_request();
  auto result = Client(made).extract(request);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(third.requests().size(), 1U);
  const json first = first_->requests().front()["body"]["messages"];
  const json last = third.requests().front()["body"]["messages"];
  EXPECT_EQ(last, first);
  const auto prompt = std::find_if(last.begin(), last.end(),
                                   [](const json& message) { return message["role"] == "user"; });
  ASSERT_TRUE(prompt != last.end()) << last.dump();
  EXPECT_EQ((*prompt)["content"], request.prompt) << last.dump();
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 3U);
  EXPECT_EQ(attempts[0].http_status, 503);
  EXPECT_EQ(attempts[1].http_status, 503);
}

}  // namespace
}  // namespace accord
