// Streamed replies over real HTTP against accord-mock, per provider: partial values as parts
// close, the same Result as a reply read whole, an early stop on a broken rule, and faults
// mid-stream (drop, stall, malformed event) ending as clear errors.
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>

#include "accord/client.hpp"
#include "accord/providers/provider.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "providers/stream_assembly.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

struct Outcome {
  Result<json> result;
  std::vector<std::pair<std::string, json>> parts;  // path (pointer) and part, per close
};

class Streaming : public ::testing::TestWithParam<std::string> {
 protected:
  Outcome run(const std::vector<json>& replies, StreamOptions stream,
              OutputMode mode = OutputMode::response_format, int corrections = 1,
              std::chrono::milliseconds call_timeout = std::chrono::milliseconds(5000)) {
    mock_ = std::make_unique<MockProcess>(scenario(replies));
    ClientOptions options{.provider = GetParam(),
                          .model = "test-model",
                          .base_url = mock_->base_url(),
                          .api_key = "sk-test-SENTINEL-123"};
    options.retry.max_retries = 0;
    options.call_timeout = call_timeout;
    options.stream = stream;
    const Client client(options);
    Outcome out{Error{}, {}};
    out.result = client.extract({.schema = examples::refund_schema(),
                                 .prompt = "Extract the refund.",
                                 .name = "refund",
                                 .mode = mode,
                                 .corrections = corrections,
                                 .on_partial = [&out](const PartialValue& partial) {
                                   out.parts.emplace_back(partial.path.to_pointer(), partial.part);
                                 }});
    return out;
  }

  // The provider's request for the mock, as encoded and as asked to stream.
  [[nodiscard]] std::pair<HttpRequest, HttpRequest> stream_request() const {
    CallSpec call{.base_url = mock_->base_url(), .model = "test-model"};
    call.turns.push_back(Turn{.role = Turn::Role::user, .text = "Extract the refund."});
    const HttpRequest plain = make_provider(GetParam())->encode(call);
    HttpRequest asked = plain;
    detail::ask_for_stream(asked, GetParam());
    return {plain, asked};
  }

  // The JSON bodies accord-mock received, in order.
  json received() const { return logged("body"); }
  json requested_paths() const { return logged("path"); }
  // One member of every request the mock logged.
  json logged(const char* member) const {
    httplib::Client http("127.0.0.1", mock_->port());
    auto response = http.Get("/_accord/requests");
    EXPECT_TRUE(response);
    json values = json::array();
    for (const auto& entry : json::parse(response->body)) values.push_back(entry[member]);
    return values;
  }

  std::unique_ptr<MockProcess> mock_;
};

constexpr StreamOptions kStream{.enabled = true};
constexpr StreamOptions kStreamStopping{.enabled = true, .stop_at_first_issue = true};

json negative_amount() {
  json doc = kValidRefund;
  doc["amount"] = -5;
  return doc;
}

TEST_P(Streaming, StreamedResultMatchesTheReplyReadWhole) {
  for (const OutputMode mode : {OutputMode::response_format, OutputMode::forced_tool}) {
    const auto whole = run({{{"json", kValidRefund}}}, {}, mode);
    const auto streamed = run({{{"json", kValidRefund}}}, kStream, mode);
    ASSERT_TRUE(whole.result.ok()) << whole.result.error().message;
    ASSERT_TRUE(streamed.result.ok()) << streamed.result.error().message;
    EXPECT_EQ(streamed.result.value(), whole.result.value());
    // The mock counts tokens from the request's size, which "stream": true changes a little.
    EXPECT_GT(streamed.result.trace().usage.output_tokens, 0);
    const auto& attempt = streamed.result.trace().attempts.at(0);
    EXPECT_TRUE(attempt.stream.streamed);
    // Gemini sends a function call whole, in one event; the others stream its arguments.
    const bool whole_call = GetParam() == "gemini" && mode == OutputMode::forced_tool;
    EXPECT_GT(attempt.stream.events, whole_call ? 0u : 5u);
    EXPECT_FALSE(whole.result.trace().attempts.at(0).stream.streamed);
    // How the provider asks for a stream (a URL of its own, "stream": true in the body, or
    // both) is asked of the provider, so a new one needs no entry here.
    const auto [plain, asked] = stream_request();
    const std::string posted = requested_paths()[0];
    EXPECT_NE(asked.url.find(posted), std::string::npos) << asked.url << " vs " << posted;
    if (asked.url != plain.url) {
      EXPECT_EQ(plain.url.find(posted), std::string::npos) << posted;
    }
    const auto asked_body = json::parse(asked.body);
    if (asked_body.contains("stream")) {
      EXPECT_EQ(received()[0]["stream"], asked_body["stream"]);
    } else {
      EXPECT_FALSE(received()[0].contains("stream"));
    }
  }
}

TEST_P(Streaming, PartialValuesArriveAsEachFieldCloses) {
  const auto streamed = run({{{"json", kValidRefund}, {"stream_chunk_chars", 3}}}, kStream);
  ASSERT_TRUE(streamed.result.ok()) << streamed.result.error().message;
  std::map<std::string, json> by_path(streamed.parts.begin(), streamed.parts.end());
  EXPECT_EQ(by_path["/orderId"], "ORD-482913");
  EXPECT_EQ(by_path["/amount"], 42.5);
  // The root closes last, and (lowering undone) is the Result.
  ASSERT_FALSE(streamed.parts.empty());
  EXPECT_EQ(streamed.parts.back().first, "");
  EXPECT_EQ(streamed.parts.back().second["orderId"], "ORD-482913");
}

TEST_P(Streaming, EarlyStopOnABrokenFieldGoesStraightToTheCorrection) {
  const auto streamed =
      run({{{"json", negative_amount()}}, {{"json", kValidRefund}}}, kStreamStopping);
  ASSERT_TRUE(streamed.result.ok()) << streamed.result.error().message;
  EXPECT_EQ(streamed.result.value(), kValidRefund);
  const auto& attempts = streamed.result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  ASSERT_TRUE(attempts[0].stream.stopped_at.has_value());
  EXPECT_EQ(*attempts[0].stream.stopped_at, Path{"amount"});
  ASSERT_EQ(attempts[0].issues.size(), 1u);
  EXPECT_EQ(attempts[0].issues[0].path, Path{"amount"});
  // Fewer events read than a whole reply carries: the rest was never read.
  EXPECT_LT(attempts[0].stream.events, attempts[1].stream.events);
  EXPECT_FALSE(attempts[1].stream.stopped_at.has_value());
  const std::string correction = received()[1].dump();
  EXPECT_NE(correction.find(attempts[0].issues[0].message), std::string::npos) << correction;
  EXPECT_NE(streamed.result.trace().to_text().find("stopped early at amount"), std::string::npos);
  EXPECT_EQ(streamed.result.trace().to_json()["attempts"][0]["stream"]["stopped_at"], "amount");
}

TEST_P(Streaming, EarlyStopNoteSaysTheStreamWasStoppedNotThatTheReplyIsNotJson) {
  const auto streamed =
      run({{{"json", negative_amount()}}, {{"json", kValidRefund}}}, kStreamStopping);
  ASSERT_TRUE(streamed.result.ok()) << streamed.result.error().message;
  const std::string& note = streamed.result.trace().attempts.at(0).note;
  EXPECT_NE(note.find("the stream was stopped early"), std::string::npos) << note;
  EXPECT_EQ(note.find("not JSON"), std::string::npos) << note;
}

TEST_P(Streaming, WithoutEarlyStopTheIssuesAreThoseOfTheReplyReadWhole) {
  const auto whole = run({{{"json", negative_amount()}}}, {}, OutputMode::response_format, 0);
  const auto streamed =
      run({{{"json", negative_amount()}}}, kStream, OutputMode::response_format, 0);
  ASSERT_FALSE(whole.result.ok());
  ASSERT_FALSE(streamed.result.ok());
  EXPECT_EQ(streamed.result.error().message, whole.result.error().message);
  EXPECT_FALSE(streamed.result.trace().attempts[0].stream.stopped_at.has_value());
}

TEST_P(Streaming, ARuleAcrossFieldsNeverStopsEarly) {
  // The date rule belongs to the whole object: it is judged when the object closes, as without
  // streaming, and never counts as an early stop.
  const auto streamed =
      run({{{"json", swapped_dates()}}}, kStreamStopping, OutputMode::response_format, 0);
  ASSERT_FALSE(streamed.result.ok());
  EXPECT_FALSE(streamed.result.trace().attempts[0].stream.stopped_at.has_value());
  EXPECT_NE(streamed.result.error().message.find("refundDate is before orderDate"),
            std::string::npos);
}

TEST_P(Streaming, RefusalTruncationAndContentFilterAreNamedAsWithoutStreaming) {
  const std::vector<json> replies = {{{"refusal", "I cannot help with that."}},
                                     {{"truncated", "{\"orderId\": \"ORD-4"}},
                                     {{"content_filter", true}}};
  for (const auto& reply : replies) {
    const auto whole = run({reply}, {});
    const auto streamed = run({reply}, kStream);
    ASSERT_FALSE(whole.result.ok());
    ASSERT_FALSE(streamed.result.ok()) << reply.dump();
    EXPECT_EQ(streamed.result.error().kind, whole.result.error().kind) << reply.dump();
    EXPECT_EQ(streamed.result.error().message, whole.result.error().message) << reply.dump();
  }
}

TEST_P(Streaming, DroppedConnectionMidStreamIsATransportError) {
  const auto streamed =
      run({{{"json", kValidRefund}, {"stream_fault", {{"kind", "drop"}, {"after_events", 4}}}}},
          kStream);
  ASSERT_FALSE(streamed.result.ok());
  EXPECT_EQ(streamed.result.error().kind, ErrorKind::transport);
  EXPECT_NE(streamed.result.error().message.find("dropped"), std::string::npos)
      << streamed.result.error().message;
  EXPECT_GT(streamed.result.trace().attempts.at(0).stream.events, 0u);
}

TEST_P(Streaming, StallMidStreamEndsAsATimeoutNotAHang) {
  const auto started = std::chrono::steady_clock::now();
  const auto streamed =
      run({{{"json", kValidRefund}, {"stream_fault", {{"kind", "stall"}, {"after_events", 3}}}}},
          kStream, OutputMode::response_format, 1, std::chrono::milliseconds(300));
  ASSERT_FALSE(streamed.result.ok());
  EXPECT_EQ(streamed.result.error().kind, ErrorKind::transport);
  EXPECT_NE(streamed.result.error().message.find("timeout"), std::string::npos)
      << streamed.result.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

TEST_P(Streaming, MalformedEventIsABadReplyNamingIt) {
  const auto streamed = run(
      {{{"json", kValidRefund}, {"stream_fault", {{"kind", "malformed"}, {"after_events", 2}}}}},
      kStream, OutputMode::response_format, 0);
  ASSERT_FALSE(streamed.result.ok());
  EXPECT_EQ(streamed.result.error().kind, ErrorKind::bad_reply);
  EXPECT_NE(streamed.result.error().message.find("malformed server-sent event"), std::string::npos)
      << streamed.result.error().message;
}

TEST_P(Streaming, KeyNeverAppearsInPartsTraceOrError) {
  json echoed = kValidRefund;
  echoed["note"] = "key sk-test-SENTINEL-123 here";
  const auto streamed = run({{{"json", echoed}}}, kStream, OutputMode::response_format, 0);
  std::string everything = streamed.result.trace().to_json().dump();
  for (const auto& [path, part] : streamed.parts) everything += part.dump();
  EXPECT_EQ(everything.find("SENTINEL"), std::string::npos) << everything;
}

INSTANTIATE_TEST_SUITE_P(Providers, Streaming, ::testing::ValuesIn(::accord::provider_names()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

TEST(StreamingAsync, ExtractAsyncStreamsAndStopsEarlyToo) {
  MockProcess mock(scenario({{{"json", negative_amount()}}, {{"json", kValidRefund}}}));
  ClientOptions options{.provider = "openai-chat", .base_url = mock.base_url()};
  options.stream = kStreamStopping;
  const Client client(options);
  std::atomic<int> parts{0};
  auto result = client
                    .extract_async({.schema = examples::refund_schema(),
                                    .prompt = "Extract the refund.",
                                    .on_partial = [&parts](const PartialValue&) { ++parts; }})
                    .get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  EXPECT_EQ(result.trace().attempts.at(0).stream.stopped_at, Path{"amount"});
  EXPECT_GT(parts.load(), 8);
}

TEST(ValidatePart, JudgesAFieldByItsOwnRules) {
  const Validator validator(examples::refund_schema());
  const auto issues = validator.validate_part(Path{"amount"}, json(-5));
  ASSERT_TRUE(issues.has_value());
  ASSERT_EQ(issues->size(), 1u);
  EXPECT_EQ((*issues)[0].path, Path{"amount"});
  EXPECT_EQ(validator.validate_part(Path{"amount"}, json(5)), Issues{});
}

TEST(ValidatePart, GivesNothingWhereTheRestOfTheValueDecides) {
  const auto validator = Validator::from_json_schema(json::parse(R"({
    "type": "object",
    "properties": {"u": {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                                   {"type": "object", "properties": {"a": {"type": "number"}}}]}}
  })"));
  EXPECT_FALSE(validator.validate_part(Path{"u", "a"}, json(true)).has_value());
  EXPECT_FALSE(validator.validate_part(Path{}, json::object()).has_value());
}

}  // namespace
}  // namespace accord
