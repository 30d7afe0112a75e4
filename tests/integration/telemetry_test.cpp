// genai_tracing over real HTTP against accord-mock: the spans a call makes, their names, parents
// and GenAI attributes, recorded by a Tracer that keeps what it is given.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "accord/client.hpp"
#include "accord/telemetry.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

struct RecordedSpan {
  std::string name;
  int parent = -1;  // index of the parent span, -1 for a root
  std::map<std::string, AttributeValue> attributes;
  std::vector<std::string> events;
  std::string error;
  bool ended = false;
};

class RecordingTracer final : public Tracer {
 public:
  std::unique_ptr<Span> start_span(std::string_view name, Attributes attributes,
                                   const Span* parent) override {
    std::lock_guard lock(mutex_);
    RecordedSpan span{std::string(name)};
    if (const auto* recorded = dynamic_cast<const Recorder*>(parent)) span.parent = recorded->index;
    for (auto& [key, value] : attributes) span.attributes[key] = std::move(value);
    spans.push_back(std::move(span));
    return std::make_unique<Recorder>(*this, static_cast<int>(spans.size() - 1));
  }

  std::vector<RecordedSpan> spans;

 private:
  struct Recorder final : Span {
    Recorder(RecordingTracer& tracer, int index) : tracer(tracer), index(index) {}
    RecordedSpan& span() { return tracer.spans[static_cast<std::size_t>(index)]; }
    void set_attribute(std::string_view key, AttributeValue value) override {
      span().attributes[std::string(key)] = std::move(value);
    }
    void add_event(std::string_view name, Attributes) override { span().events.emplace_back(name); }
    void set_error(std::string_view type, std::string_view) override {
      span().error = type;
      span().attributes["error.type"] = std::string(type);
    }
    void end() override { span().ended = true; }
    RecordingTracer& tracer;
    int index;
  };
  std::mutex mutex_;
};

class Traced : public ::testing::TestWithParam<std::string> {
 protected:
  Result<json> run(const std::vector<json>& replies) {
    mock_ = std::make_unique<MockProcess>(scenario(replies));
    auto options = testing_support::mock_client_options(GetParam(), mock_->base_url());
    options.hooks = genai_tracing(tracer_);
    const Client client(options);
    return client.extract(refund_request());
  }

  static std::string text(const RecordedSpan& span, const std::string& key) {
    const auto found = span.attributes.find(key);
    return found != span.attributes.end() && std::holds_alternative<std::string>(found->second)
               ? std::get<std::string>(found->second)
               : "(absent)";
  }
  static std::int64_t number(const RecordedSpan& span, const std::string& key) {
    const auto found = span.attributes.find(key);
    return found != span.attributes.end() && std::holds_alternative<std::int64_t>(found->second)
               ? std::get<std::int64_t>(found->second)
               : -1;
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
    EXPECT_EQ(number(spans[i], "accord.attempt"), static_cast<std::int64_t>(i));
  }
  for (const auto& span : spans) EXPECT_TRUE(span.ended) << span.name;
}

TEST_P(Traced, ChatSpanCarriesTheGenAiAttributes) {
  auto result = run({{{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(tracer_->spans.size(), 2u);
  const auto& chat = tracer_->spans[1];
  EXPECT_EQ(text(chat, "gen_ai.operation.name"), "chat");
  EXPECT_EQ(text(chat, "gen_ai.provider.name"), make_provider(GetParam())->telemetry_name());
  EXPECT_EQ(text(chat, "gen_ai.request.model"), "test-model");
  EXPECT_EQ(number(chat, "gen_ai.request.max_tokens"), 1024);
  EXPECT_EQ(number(chat, "gen_ai.usage.input_tokens"), result.trace().usage.input_tokens);
  EXPECT_EQ(number(chat, "gen_ai.usage.output_tokens"), result.trace().usage.output_tokens);
  EXPECT_EQ(text(chat, "server.address"), "127.0.0.1");
  EXPECT_EQ(number(chat, "server.port"), mock_->port());
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
  EXPECT_EQ(number(tracer_->spans[1], "accord.issues"), 1);
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
