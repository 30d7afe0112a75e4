// genai_tracing's request attributes for the sampling a call asks for (OpenTelemetry GenAI
// semantic conventions 1.45.0: gen_ai.request.temperature, top_p, seed), over real HTTP against
// accord-mock: on each chat span when the call or the client sets them, absent when neither does.
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

// A double attribute of a recorded span; nullopt when it is absent or not a double.
std::optional<double> span_real(const RecordedSpan& span, const std::string& key) {
  const auto found = span.attributes.find(key);
  if (found == span.attributes.end() || !std::holds_alternative<double>(found->second))
    return std::nullopt;
  return std::get<double>(found->second);
}

class RequestAttributes : public ::testing::Test {
 protected:
  // One refund extraction (a correction after a bad amount: two chat spans) with the client's
  // and the call's parameters.
  std::vector<RecordedSpan> chat_spans(const RequestParameters& client_parameters,
                                       const RequestParameters& call_parameters) {
    MockProcess mock(scenario({{{"json", bad_amount()}}, {{"json", kValidRefund}}}));
    auto options = testing_support::mock_client_options("openai-chat", mock.base_url());
    options.parameters = client_parameters;
    options.hooks = genai_tracing(tracer_);
    auto request = refund_request();
    request.parameters = call_parameters;
    auto result = Client(options).extract(request);
    EXPECT_TRUE(result.ok()) << result.error().message;
    std::vector<RecordedSpan> chats(tracer_->spans.begin() + 1, tracer_->spans.end());
    EXPECT_EQ(chats.size(), 2u);
    return chats;
  }

  std::shared_ptr<RecordingTracer> tracer_ = std::make_shared<RecordingTracer>();
};

TEST_F(RequestAttributes, SamplingTheCallSetsIsOnEveryChatSpan) {
  REQUIRE_MOCK();
  for (const auto& chat : chat_spans({}, {.temperature = 0.2, .top_p = 0.9, .seed = 42})) {
    EXPECT_EQ(span_real(chat, "gen_ai.request.temperature"), 0.2);
    EXPECT_EQ(span_real(chat, "gen_ai.request.top_p"), 0.9);
    EXPECT_EQ(span_number(chat, "gen_ai.request.seed"), 42);
    EXPECT_EQ(span_number(chat, "gen_ai.request.max_tokens"), 1024);
  }
}

TEST_F(RequestAttributes, TheCallsSamplingOverridesTheClientsFieldByField) {
  REQUIRE_MOCK();
  for (const auto& chat : chat_spans({.temperature = 0.7, .seed = 1}, {.temperature = 0.1})) {
    EXPECT_EQ(span_real(chat, "gen_ai.request.temperature"), 0.1);
    EXPECT_EQ(span_number(chat, "gen_ai.request.seed"), 1);
    EXPECT_FALSE(chat.attributes.contains("gen_ai.request.top_p"));
  }
}

TEST_F(RequestAttributes, SamplingNobodySetsIsAbsent) {
  REQUIRE_MOCK();
  for (const auto& chat : chat_spans({}, {})) {
    for (const char* key :
         {"gen_ai.request.temperature", "gen_ai.request.top_p", "gen_ai.request.seed"}) {
      EXPECT_FALSE(chat.attributes.contains(key)) << key;
    }
  }
}

}  // namespace
}  // namespace accord
