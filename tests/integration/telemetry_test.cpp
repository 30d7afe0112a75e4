// genai_tracing over real HTTP against accord-mock: the spans a call makes, their names, parents
// and GenAI attributes, recorded by a Tracer that keeps what it is given.
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "accord/telemetry.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/recording_tracer.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

class Traced : public ::testing::TestWithParam<std::string> {
 protected:
  Result<json> run(const std::vector<json>& replies) {
    mock_ = std::make_unique<MockProcess>(scenario(replies));
    auto options = testing_support::mock_client_options(GetParam(), mock_->base_url());
    options.hooks = genai_tracing(tracer_);
    const Client client(options);
    return client.extract(refund_request());
  }

  std::unique_ptr<MockProcess> mock_;
  std::shared_ptr<RecordingTracer> tracer_ = std::make_shared<RecordingTracer>();
};

TEST_P(Traced, CallSpanParentsOneChatSpanPerRequest) {
  auto result = run({{{"json", bad_amount()}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& spans = tracer_->spans;
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].name, "extract refund");
  EXPECT_EQ(spans[0].parent, -1);
  for (std::size_t i = 1; i < spans.size(); ++i) {
    EXPECT_EQ(spans[i].name, "chat test-model");
    EXPECT_EQ(spans[i].parent, 0);
    EXPECT_EQ(span_number(spans[i], "accord.attempt"), static_cast<std::int64_t>(i));
  }
  for (const auto& span : spans) EXPECT_TRUE(span.ended) << span.name;
}

TEST_P(Traced, ChatSpanCarriesTheGenAiAttributes) {
  auto result = run({{{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(tracer_->spans.size(), 2u);
  const auto& chat = tracer_->spans[1];
  EXPECT_EQ(span_text(chat, "gen_ai.operation.name"), "chat");
  EXPECT_EQ(span_text(chat, "gen_ai.provider.name"), make_provider(GetParam())->telemetry_name());
  EXPECT_EQ(span_text(chat, "gen_ai.request.model"), "test-model");
  EXPECT_EQ(span_number(chat, "gen_ai.request.max_tokens"), 1024);
  EXPECT_EQ(span_number(chat, "gen_ai.usage.input_tokens"), result.trace().usage.input_tokens);
  EXPECT_EQ(span_number(chat, "gen_ai.usage.output_tokens"), result.trace().usage.output_tokens);
  EXPECT_EQ(span_text(chat, "server.address"), "127.0.0.1");
  EXPECT_EQ(span_number(chat, "server.port"), mock_->port());
  const auto reasons = chat.attributes.find("gen_ai.response.finish_reasons");
  ASSERT_NE(reasons, chat.attributes.end());
  EXPECT_EQ(std::get<std::vector<std::string>>(reasons->second), std::vector<std::string>{"stop"});
  EXPECT_TRUE(chat.error.empty());
}

TEST_P(Traced, InvalidReplyMarksItsChatSpanAsAnError) {
  auto result = run({{{"json", bad_amount()}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(tracer_->spans.size(), 3u);
  EXPECT_EQ(tracer_->spans[1].error, "invalid_output");
  EXPECT_EQ(span_number(tracer_->spans[1], "accord.issues"), 1);
  EXPECT_TRUE(tracer_->spans[2].error.empty());
  EXPECT_TRUE(tracer_->spans[0].error.empty());
}

TEST_P(Traced, HttpFailureIsTheErrorTypeOfBothSpans) {
  auto result = run({{{"status", 400}}});
  ASSERT_FALSE(result.ok());
  ASSERT_EQ(tracer_->spans.size(), 2u);
  EXPECT_EQ(tracer_->spans[1].error, "400");
  EXPECT_EQ(tracer_->spans[0].error, to_string(result.error().kind));
}

TEST_P(Traced, RetryIsAnEventOfTheChatSpan) {
  auto result = run({{{"status", 503}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(tracer_->spans.size(), 2u);
  EXPECT_EQ(tracer_->spans[1].events, std::vector<std::string>{"accord.retry"});
}

INSTANTIATE_TEST_SUITE_P(Providers, Traced, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

}  // namespace
}  // namespace accord
