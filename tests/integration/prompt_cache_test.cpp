// Cached input over real HTTP: every provider that reports cache-read and cache-write tokens has
// them in Usage, whole and streamed; Anthropic's cache_control and Bedrock's cachePoint marks
// (ExtractRequest::parameters.prompt_cache) are where the APIs take them, and accord-mock reads a
// repeated marked prefix from its cache; a price table gives each call's cost.
#include <gtest/gtest.h>

#include <string>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;
using testing_support::mock_client_options;

// A provider, the usage its reply reports cached input with (merged over the mock's own), and
// the reads and writes that are.
struct CacheUsage {
  std::string provider;
  json usage;
  std::int64_t read = 0;
  std::int64_t written = 0;
};

std::vector<CacheUsage> cache_usages() {
  return {
      {"openai-chat", {{"prompt_tokens_details", {{"cached_tokens", 64}}}}, 64, 0},
      {"azure-openai", {{"prompt_tokens_details", {{"cached_tokens", 64}}}}, 64, 0},
      {"mistral", {{"prompt_tokens_details", {{"cached_tokens", 64}}}}, 64, 0},
      {"openai-responses", {{"input_tokens_details", {{"cached_tokens", 64}}}}, 64, 0},
      {"anthropic", {{"cache_read_input_tokens", 64}, {"cache_creation_input_tokens", 32}}, 64, 32},
      {"gemini", {{"promptTokenCount", 200}, {"cachedContentTokenCount", 64}}, 64, 0},
      {"bedrock", {{"cacheReadInputTokens", 64}, {"cacheWriteInputTokens", 32}}, 64, 32},
  };
}

class CacheTokens : public ::testing::TestWithParam<CacheUsage> {};

Usage usage_of(const CacheUsage& cache, bool streamed) {
  MockProcess mock(scenario({{{"json", kValidRefund}, {"usage", cache.usage}}}));
  auto options = mock_client_options(cache.provider, mock.base_url());
  options.stream.enabled = streamed;
  const Client client(options);
  const auto result = client.extract(refund_request());
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.ok() ? result.trace().usage : Usage{};
}

TEST_P(CacheTokens, WholeReplyUsageCarriesCacheReadsAndWrites) {
  REQUIRE_MOCK();
  const auto usage = usage_of(GetParam(), false);
  EXPECT_EQ(usage.cache_read_input_tokens, GetParam().read);
  EXPECT_EQ(usage.cache_write_input_tokens, GetParam().written);
  EXPECT_GE(usage.input_tokens, GetParam().read + GetParam().written);
}

TEST_P(CacheTokens, StreamedReplyUsageCarriesCacheReadsAndWrites) {
  REQUIRE_MOCK();
  if (GetParam().provider == "mistral") {
    GTEST_SKIP() << "Mistral streams its usage unasked; accord-mock's one Chat Completions route "
                    "streams usage only when stream_options asks (the codec's decode is shared "
                    "with openai-chat, tested here)";
  }
  const auto usage = usage_of(GetParam(), true);
  EXPECT_FALSE(usage.estimated);
  EXPECT_EQ(usage.cache_read_input_tokens, GetParam().read);
  EXPECT_EQ(usage.cache_write_input_tokens, GetParam().written);
}

INSTANTIATE_TEST_SUITE_P(Providers, CacheTokens, ::testing::ValuesIn(cache_usages()),
                         [](const auto& info) {
                           return testing_support::ProviderParamName{}(
                               ::testing::TestParamInfo<std::string>(info.param.provider,
                                                                     info.index));
                         });

TEST(PromptCache, UsageSumsCacheTokensAcrossAttempts) {
  Usage total{.input_tokens = 10, .cache_read_input_tokens = 4, .cache_write_input_tokens = 1};
  total += Usage{.input_tokens = 20, .cache_read_input_tokens = 8, .cache_write_input_tokens = 2};
  EXPECT_EQ(total.cache_read_input_tokens, 12);
  EXPECT_EQ(total.cache_write_input_tokens, 3);
}

ExtractRequest cached_request(OutputMode mode) {
  auto request = refund_request();
  request.system = "You extract refunds from customer emails.";
  request.mode = mode;
  request.parameters.prompt_cache = true;
  return request;
}

TEST(PromptCache, AnthropicMarksTheSystemPromptTheToolsAndTheCallersTurn) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client(mock_client_options("anthropic", mock.base_url()));
  ASSERT_TRUE(client.extract(cached_request(OutputMode::forced_tool)).ok());
  const auto body = mock.requests().back()["body"];
  const json ephemeral = {{"type", "ephemeral"}};
  EXPECT_EQ(body["system"][0]["text"], "You extract refunds from customer emails.");
  EXPECT_EQ(body["system"][0]["cache_control"], ephemeral);
  EXPECT_EQ(body["tools"].back()["cache_control"], ephemeral);
  EXPECT_EQ(body["messages"][0]["content"].back()["cache_control"], ephemeral);
}

TEST(PromptCache, BedrockPutsACachePointAfterTheSystemPromptTheToolsAndTheCallersTurn) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client(mock_client_options("bedrock", mock.base_url()));
  ASSERT_TRUE(client.extract(cached_request(OutputMode::forced_tool)).ok());
  const auto body = mock.requests().back()["body"];
  const json point = {{"cachePoint", {{"type", "default"}}}};
  EXPECT_EQ(body["system"].back(), point);
  EXPECT_EQ(body["toolConfig"]["tools"].back(), point);
  EXPECT_EQ(body["messages"][0]["content"].back(), point);
}

TEST(PromptCache, ProviderThatCachesOnItsOwnRefusesTheMarks) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client(mock_client_options("openai-chat", mock.base_url()));
  EXPECT_THROW((void)client.extract(cached_request(OutputMode::response_format)),
               std::invalid_argument);
  EXPECT_EQ(mock.requests().size(), 0U);
}

class MarkedPrefix : public ::testing::TestWithParam<std::string> {};

TEST_P(MarkedPrefix, RepeatedPrefixIsWrittenOnceThenReadFromTheCache) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client(mock_client_options(GetParam(), mock.base_url()));
  const auto first = client.extract(cached_request(OutputMode::response_format));
  const auto second = client.extract(cached_request(OutputMode::response_format));
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_GT(first.trace().usage.cache_write_input_tokens, 0);
  EXPECT_EQ(first.trace().usage.cache_read_input_tokens, 0);
  EXPECT_EQ(second.trace().usage.cache_read_input_tokens,
            first.trace().usage.cache_write_input_tokens);
  EXPECT_EQ(second.trace().usage.cache_write_input_tokens, 0);
}

// A scoped correction (the caller's turns, then the request for the failing parts) and a whole
// one (the caller's turns, the reply, the issues) both keep the document's turn first.
TEST_P(MarkedPrefix, CorrectionsReadTheDocumentBackFromTheCache) {
  REQUIRE_MOCK();
  for (const auto style : {CorrectionStyle::scoped, CorrectionStyle::whole_object}) {
    MockProcess mock(scenario({{{"json", bad_amount()}}, {{"json", kValidRefund}}}));
    auto options = mock_client_options(GetParam(), mock.base_url());
    options.correction.style = style;
    const Client client(options);
    const auto result = client.extract(cached_request(OutputMode::response_format));
    ASSERT_TRUE(result.ok()) << result.error().message;
    ASSERT_EQ(result.trace().attempts.size(), 2U);
    EXPECT_GT(result.trace().attempts[0].usage.cache_write_input_tokens, 0);
    EXPECT_EQ(result.trace().attempts[1].usage.cache_read_input_tokens,
              result.trace().attempts[0].usage.cache_write_input_tokens);
  }
}

INSTANTIATE_TEST_SUITE_P(Providers, MarkedPrefix, ::testing::Values("anthropic", "bedrock"));

TEST(Cost, TraceCarriesTheCallsCostByThePriceTable) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund},
                              {"usage",
                               {{"input_tokens", 1000},
                                {"output_tokens", 200},
                                {"cache_read_input_tokens", 400},
                                {"cache_creation_input_tokens", 100}}}}}));
  auto options = mock_client_options("anthropic", mock.base_url());
  options.prices = std::make_shared<const PriceTable>(PriceTable::from_json(
      {{"models",
        {{"test-model",
          {{"input", 3.0}, {"output", 15.0}, {"cache_read", 0.3}, {"cache_write", 3.75}}}}}}));
  const Client client(options);
  const auto result = client.extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  // 1000 uncached input + 400 read + 100 written (Anthropic counts them apart), 200 output.
  const double expected = (1000 * 3.0 + 400 * 0.3 + 100 * 3.75 + 200 * 15.0) / 1e6;
  ASSERT_TRUE(result.trace().cost.has_value());
  EXPECT_DOUBLE_EQ(*result.trace().cost, expected);
  EXPECT_DOUBLE_EQ(result.trace().to_json()["cost"].get<double>(), expected);
}

TEST(Cost, ModelTheTableDoesNotPriceHasNoCost) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  auto options = mock_client_options("openai-chat", mock.base_url());
  options.prices = std::make_shared<const PriceTable>(
      PriceTable::from_json({{"models", {{"other-model", {{"input", 1}, {"output", 1}}}}}}));
  const Client client(options);
  const auto result = client.extract(refund_request());
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result.trace().cost.has_value());
  EXPECT_FALSE(result.trace().to_json().contains("cost"));
}

TEST(Cost, CachedInputIsPricedOnceAtItsOwnRate) {
  const PriceTable table({{"m", ModelPrice{.input = 2, .output = 8, .cache_read = 0.5}}});
  const Usage usage{.input_tokens = 1'000'000,
                    .output_tokens = 500'000,
                    .cache_read_input_tokens = 600'000,
                    .cache_write_input_tokens = 100'000};
  // 300k uncached at 2, 600k read at 0.5, 100k written at the input price (none given), 500k
  // out at 8.
  EXPECT_DOUBLE_EQ(*table.cost("m", usage), 0.6 + 0.3 + 0.2 + 4.0);
}

TEST(Cost, PriceTableWithoutANumberNamesTheModelAndTheField) {
  try {
    (void)PriceTable::from_json({{"models", {{"m", {{"input", "cheap"}, {"output", 1}}}}}});
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("\"m\""), std::string::npos) << message;
    EXPECT_NE(message.find("input"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace accord
