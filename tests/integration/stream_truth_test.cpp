// Streams and keys under a hostile provider (issue 23, second red-team run): a key split between
// pieces of output is redacted in the joined text and before any cut; what follows a stream's
// last event is not the reply's; a server that does not stream is read; an early stop agrees with
// the whole-value check; the output cap counts the output, not the framing; and a stream stopped
// early is counted in tokens. Every provider is the raw-socket server of
// tests/fixtures/hostile_server.hpp.

#include <gtest/gtest.h>

#include <accord/client.hpp>
#include <string>
#include <vector>

#include "accord/providers/provider.hpp"
#include "core/aws_event_stream.hpp"
#include "fixtures/call_records.hpp"
#include "fixtures/hostile_server.hpp"
#include "providers/stream_assembly.hpp"

namespace {

using namespace accord;
using nlohmann::json;

const std::string kStreamKey = "sk-test-SENTINEL-9f8e";

using call_records::has;
using call_records::records;

std::string event(const json& data, const std::string& name = "") {
  return (name.empty() ? "" : "event: " + name + "\n") + "data: " + data.dump() + "\n\n";
}

// Chat Completions: one chunk per piece of content, the stop reason, usage, then [DONE].
std::string chat_piece(const std::string& content) {
  return event({{"object", "chat.completion.chunk"},
                {"choices", json::array({{{"index", 0}, {"delta", {{"content", content}}}}})}});
}
std::string chat_stop(const std::string& reason = "stop") {
  return event(
      {{"object", "chat.completion.chunk"},
       {"choices",
        json::array({{{"index", 0}, {"delta", json::object()}, {"finish_reason", reason}}})},
       {"usage", {{"prompt_tokens", 50}, {"completion_tokens", 5}, {"total_tokens", 55}}}});
}
const std::string kChatDone = "data: [DONE]\n\n";

std::string chat_stream(const std::vector<std::string>& pieces) {
  std::string out;
  for (const auto& piece : pieces) out += chat_piece(piece);
  return out + chat_stop() + kChatDone;
}

// Anthropic Messages: one text block, its deltas, the stop reason, message_stop.
std::string anthropic_open() {
  return event({{"type", "message_start"},
                {"message",
                 {{"type", "message"},
                  {"role", "assistant"},
                  {"content", json::array()},
                  {"usage", {{"input_tokens", 50}, {"output_tokens", 1}}}}}},
               "message_start") +
         event({{"type", "content_block_start"},
                {"index", 0},
                {"content_block", {{"type", "text"}, {"text", ""}}}},
               "content_block_start");
}
std::string anthropic_piece(const std::string& text) {
  return event({{"type", "content_block_delta"},
                {"index", 0},
                {"delta", {{"type", "text_delta"}, {"text", text}}}},
               "content_block_delta");
}
std::string anthropic_stop_reason(const std::string& reason) {
  return event({{"type", "message_delta"},
                {"delta", {{"stop_reason", reason}}},
                {"usage", {{"output_tokens", 5}}}},
               "message_delta");
}
const std::string kAnthropicStop = event({{"type", "message_stop"}}, "message_stop");

// The Responses API: text deltas, then the terminal event carrying the whole response.
std::string responses_final(const std::string& type, const std::string& status,
                            const std::string& text) {
  json response = {
      {"object", "response"},
      {"status", status},
      {"output",
       json::array({{{"type", "message"},
                     {"role", "assistant"},
                     {"content", json::array({{{"type", "output_text"}, {"text", text}}})}}})},
      {"usage", {{"input_tokens", 50}, {"output_tokens", 5}, {"total_tokens", 55}}}};
  if (status == "incomplete") response["incomplete_details"] = {{"reason", "max_output_tokens"}};
  return event({{"type", type}, {"response", response}}, type);
}

ClientOptions options_for(const hostile::Server& server, const std::string& provider,
                          bool stream = true) {
  ClientOptions options;
  options.provider = provider;
  options.model = "test-model";
  options.api_key = kStreamKey;
  options.base_url = server.base_url();
  options.retry.max_retries = 0;
  options.call_timeout = std::chrono::milliseconds(10'000);
  options.stream.enabled = stream;
  return options;
}

const Schema kStreamNote = object({{"note", string()}});
const Schema kCount = object({{"n", integer().nonnegative()}});

ExtractRequest request_for(const Schema& schema, int corrections = 1) {
  return ExtractRequest{
      .schema = schema, .prompt = "Extract.", .name = "out", .corrections = corrections};
}

// ---- keys ---------------------------------------------------------------------------------

// A whole (not streamed) Anthropic reply holding `text`, stopped for `stop`.
std::string anthropic_message(const std::string& text, const std::string& stop) {
  return hostile::Server::response(
      json{{"type", "message"},
           {"role", "assistant"},
           {"content", json::array({{{"type", "text"}, {"text", text}}})},
           {"stop_reason", stop},
           {"usage", {{"input_tokens", 50}, {"output_tokens", 5}}}}
          .dump());
}

// `schema` extracted from Anthropic replies given in turn, none of them streamed.
Result<json> extract_from_replies(const Schema& schema, std::vector<std::string> replies,
                                  int& requests) {
  hostile::Server server(hostile::in_turn(std::move(replies)));
  const Client client(options_for(server, "anthropic", false));
  auto result = client.extract(request_for(schema));
  requests = server.requests();
  return result;
}

// An Anthropic reply cut at max_tokens 11 characters into the key, then its continuation.
Result<json> extract_key_split_by_a_continuation(int& requests) {
  return extract_from_replies(
      kStreamNote,
      {anthropic_message(R"({"note":")" + kStreamKey.substr(0, 11), "max_tokens"),
       anthropic_message(kStreamKey.substr(11) + R"("})", "end_turn")},
      requests);
}

// Three pieces: one key split after 7 characters between the first two, another after 12
// between the last two. One search of the joined output finds both.
Result<json> extract_two_keys_split_across_two_joins(int& requests) {
  return extract_from_replies(
      object({{"a", string()}, {"b", string()}}),
      {anthropic_message(R"({"a":")" + kStreamKey.substr(0, 7), "max_tokens"),
       anthropic_message(kStreamKey.substr(7) + R"(","b":")" + kStreamKey.substr(0, 12),
                         "max_tokens"),
       anthropic_message(kStreamKey.substr(12) + R"("})", "end_turn")},
      requests);
}

TEST(StreamKeys, KeySplitBetweenATruncatedReplyAndItsContinuationIsRedactedWhenJoined) {
  int requests = 0;
  const auto result = extract_key_split_by_a_continuation(requests);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(requests, 2);
  EXPECT_EQ(result.value().dump(), R"({"note":"[redacted]"})");
}

TEST(StreamKeys, KeySplitBetweenATruncatedReplyAndItsContinuationLeavesNoPieceInTheRecords) {
  int requests = 0;
  const auto result = extract_key_split_by_a_continuation(requests);
  ASSERT_TRUE(result.ok()) << result.error().message;
  // Each attempt's content, raw reply and the prefill sent back held one share of the key.
  const std::string kept = records(result);
  EXPECT_FALSE(has(kept, kStreamKey.substr(0, 11))) << kept;
  EXPECT_FALSE(has(kept, kStreamKey.substr(11))) << kept;
}

TEST(StreamKeys, KeysSplitAcrossTwoJoinsOfAContinuedOutputAreEachRedactedOnce) {
  int requests = 0;
  const auto result = extract_two_keys_split_across_two_joins(requests);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(requests, 3);
  EXPECT_EQ(result.value().dump(), R"({"a":"[redacted]","b":"[redacted]"})");
}

TEST(StreamKeys, KeysSplitAcrossTwoJoinsOfAContinuedOutputLeaveNoShareInTheRecords) {
  int requests = 0;
  const auto result = extract_two_keys_split_across_two_joins(requests);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::string kept = records(result);
  for (const auto& share : {kStreamKey.substr(0, 7), kStreamKey.substr(7), kStreamKey.substr(0, 12),
                            kStreamKey.substr(12)})
    EXPECT_FALSE(has(kept, share)) << share << " in " << kept;
}

class StreamKeysEveryProvider : public ::testing::TestWithParam<std::string> {
 protected:
  // One ConverseStream event in the AWS event-stream framing Bedrock streams in.
  static std::string bedrock_event(const std::string& type, const std::string& payload) {
    return detail::aws_event_stream_message({{":event-type", type}, {":message-type", "event"}},
                                            payload);
  }

  // The output written in the provider's event format, as the given pieces.
  static std::string stream_of(const std::vector<std::string>& pieces) {
    const std::string& provider = GetParam();
    if (provider == "anthropic") {
      std::string out = anthropic_open();
      for (const auto& piece : pieces) out += anthropic_piece(piece);
      return out + anthropic_stop_reason("end_turn") + kAnthropicStop;
    }
    if (provider == "bedrock") {
      std::string out;
      for (const auto& piece : pieces) {
        out += bedrock_event("contentBlockDelta",
                             json{{"delta", {{"text", piece}}}, {"contentBlockIndex", 0}}.dump());
      }
      return out + bedrock_event("messageStop", R"({"stopReason":"end_turn"})") +
             bedrock_event("metadata", R"({"usage":{"inputTokens":1,"outputTokens":1}})");
    }
    if (provider == "ollama") {  // one JSON object per line
      std::string out;
      for (const auto& piece : pieces) {
        const json line = {{"message", {{"role", "assistant"}, {"content", piece}}},
                           {"done", false}};
        out += line.dump() + "\n";
      }
      return out + R"({"message":{"role":"assistant","content":""},"done":true,)"
                   R"("done_reason":"stop"})"
                   "\n";
    }
    if (provider.ends_with("-responses")) {
      std::string out;
      std::string text;
      for (const auto& piece : pieces) {
        text += piece;
        out += event({{"type", "response.output_text.delta"},
                      {"output_index", 0},
                      {"content_index", 0},
                      {"delta", piece}},
                     "response.output_text.delta");
      }
      return out + responses_final("response.completed", "completed", text);
    }
    if (provider == "gemini") {
      std::string out;
      for (const auto& piece : pieces) {
        out += event({{"candidates", {{{"content", {{"parts", {{{"text", piece}}}}}}}}}});
      }
      return out + event({{"candidates",
                           {{{"content", {{"parts", json::array()}}}, {"finishReason", "STOP"}}}}});
    }
    return chat_stream(pieces);
  }
};

TEST_P(StreamKeysEveryProvider, KeySplitAcrossTwoDeltasLeavesNoPieceInTheRecords) {
  hostile::Server server(hostile::canned(hostile::event_stream(
      stream_of({R"({"note":")" + kStreamKey.substr(0, 11), kStreamKey.substr(11) + R"("})"}))));
  const Client client(options_for(server, GetParam()));
  const auto result = client.extract(request_for(kStreamNote));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().dump(), R"({"note":"[redacted]"})");
  const std::string kept = records(result);
  EXPECT_FALSE(has(kept, kStreamKey.substr(0, 11))) << kept;
  EXPECT_FALSE(has(kept, kStreamKey.substr(11))) << kept;
}

TEST_P(StreamKeysEveryProvider, KeyInAMalformedEventIsRedactedBeforeItsSnippetIsCut) {
  // The old 120-byte cut fell 10 bytes into the key.
  const std::string data = std::string(110, 'x') + kStreamKey + std::string(400, 'y');
  hostile::Server server(hostile::canned(hostile::event_stream(
      detail::stream_framing(GetParam()) == detail::StreamFraming::aws_event_stream
          ? bedrock_event("contentBlockDelta", data)
          : "data: " + data + "\n\n")));
  const Client client(options_for(server, GetParam()));
  const auto result = client.extract(request_for(kStreamNote));
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(has(result.error().message, "malformed server-sent event")) << result.error().message;
  const std::string kept = records(result);
  EXPECT_FALSE(has(kept, kStreamKey.substr(0, 8))) << kept;
  EXPECT_TRUE(has(kept, "[redacted]")) << kept;
}

INSTANTIATE_TEST_SUITE_P(Providers, StreamKeysEveryProvider,
                         ::testing::ValuesIn(::accord::provider_names()), [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

// ---- the end of a stream ------------------------------------------------------------------

TEST(StreamEnd, ChatTextAfterDoneIsIgnored) {
  hostile::Server server(hostile::canned(hostile::event_stream(
      chat_stream({R"({"note":"ok"})"}) + chat_piece(R"(, "more")") + chat_stop("length"))));
  const Client client(options_for(server, "openai-chat"));
  const auto result = client.extract(request_for(kStreamNote));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(server.requests(), 1);
  EXPECT_EQ(result.value(), json({{"note", "ok"}}));
  EXPECT_EQ(result.trace().attempts.at(0).stream.ignored_after_end, 2u);
}

TEST(StreamEnd, AnthropicStopReasonAfterMessageStopIsIgnored) {
  hostile::Server server(hostile::canned(hostile::event_stream(
      anthropic_open() + anthropic_piece(R"({"note":"ok"})") + anthropic_stop_reason("end_turn") +
      kAnthropicStop + anthropic_stop_reason("max_tokens"))));
  const Client client(options_for(server, "anthropic"));
  const auto result = client.extract(request_for(kStreamNote));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(server.requests(), 1);
  EXPECT_EQ(result.value(), json({{"note", "ok"}}));
}

TEST(StreamEnd, ResponsesIncompleteAfterCompletedIsIgnored) {
  const std::string text = R"({"note":"ok"})";
  hostile::Server server(hostile::canned(
      hostile::event_stream(responses_final("response.completed", "completed", text) +
                            responses_final("response.incomplete", "incomplete", text))));
  const Client client(options_for(server, "openai-responses"));
  const auto result = client.extract(request_for(kStreamNote));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), json({{"note", "ok"}}));
  EXPECT_TRUE(has(result.trace().to_text(), "1 after the last event ignored"))
      << result.trace().to_text();
}

TEST(StreamEnd, ReplySentWholeToAStreamRequestIsRead) {
  const json completion = {
      {"object", "chat.completion"},
      {"choices",
       json::array({{{"index", 0},
                     {"message", {{"role", "assistant"}, {"content", R"({"note":"ok"})"}}},
                     {"finish_reason", "stop"}}})},
      {"usage", {{"prompt_tokens", 50}, {"completion_tokens", 5}, {"total_tokens", 55}}}};
  hostile::Server server(hostile::canned(hostile::Server::response(completion.dump())));
  const Client client(options_for(server, "openai-chat"));
  const auto result = client.extract(request_for(kStreamNote));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), json({{"note", "ok"}}));
  EXPECT_TRUE(result.trace().attempts.at(0).stream.read_whole);
  EXPECT_EQ(result.trace().usage.input_tokens, 50);
}

// ---- the early stop agrees with the whole check -------------------------------------------

TEST(StreamVerdict, EarlyStopAndWholeCheckAgreeOnARepeatedKey) {
  const auto run = [](bool stop_early) {
    hostile::Server server(
        hostile::in_turn({hostile::event_stream(chat_stream({R"({"n":-5,"n":5})"})),
                          hostile::event_stream(chat_stream({R"({"n":7})"}))}));
    auto options = options_for(server, "openai-chat");
    options.stream.stop_at_first_issue = stop_early;
    const Client client(options);
    auto result = client.extract(request_for(kCount));
    return std::make_pair(std::move(result), server.requests());
  };
  const auto [early, early_requests] = run(true);
  const auto [whole, whole_requests] = run(false);
  ASSERT_TRUE(early.ok()) << early.error().message;
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(early.value(), whole.value());
  EXPECT_EQ(early_requests, whole_requests);
  EXPECT_TRUE(has(whole.trace().attempts.at(0).issues.at(0).message, "\"n\" is repeated"))
      << whole.trace().to_text();
}

// ---- size bounds --------------------------------------------------------------------------

// An output of `bytes` characters in 4-byte deltas: the framing is ~40 times the output.
std::string many_deltas(std::size_t bytes) {
  std::vector<std::string> pieces{R"({"note":")"};
  for (std::size_t i = 0; i < bytes / 4; ++i) pieces.emplace_back("abcd");
  pieces.emplace_back(R"("})");
  return chat_stream(pieces);
}

// A 40 KB output in 10,000 deltas (~1.4 MB of stream) extracted with the given bounds.
Result<json> extract_many_deltas(std::size_t max_response_bytes, std::size_t max_stream_bytes) {
  hostile::Server server(hostile::canned(hostile::event_stream(many_deltas(40'000))));
  auto options = options_for(server, "openai-chat");
  options.transport.max_response_bytes = max_response_bytes;
  options.stream.max_stream_bytes = max_stream_bytes;
  const Client client(options);
  return client.extract(request_for(kStreamNote));
}

constexpr std::size_t kNoFramingBound = 1024 * 1024 * 1024;

TEST(StreamBounds, OutputCapCountsTheOutputNotTheFraming) {
  const auto result = extract_many_deltas(64 * 1024, kNoFramingBound);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value()["note"].get<std::string>().size(), 40'000u);
  EXPECT_GT(result.trace().attempts.at(0).stream.bytes, 10 * 64 * 1024u);
}

TEST(StreamBounds, OutputOverTheCapIsABadReplyNamingIt) {
  const auto result = extract_many_deltas(16 * 1024, kNoFramingBound);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(has(result.error().message, "the output is over 16384 bytes"))
      << result.error().message;
}

TEST(StreamBounds, FramingIsBoundedSeparately) {
  const auto result = extract_many_deltas(16 * 1024 * 1024, 256 * 1024);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(has(result.error().message, "max_stream_bytes")) << result.error().message;
}

// ---- tokens of a stream stopped early -----------------------------------------------------

// A call whose every reply breaks the rule at once (`{"n":-5`), streamed with the early stop on:
// the usage, which would come last, never arrives. ~200 input tokens a request.
Result<json> extract_stopped_early(int corrections, TokenBudget budget, int& requests) {
  hostile::Server server(
      hostile::canned(hostile::event_stream(chat_stream({R"({"n":-5)", R"(})"}))));
  auto options = options_for(server, "openai-chat");
  options.stream.stop_at_first_issue = true;
  const Client client(options);
  auto request = request_for(kCount, corrections);
  request.prompt = std::string(800, 'p');
  request.budget = budget;
  auto result = client.extract(request);
  requests = server.requests();
  return result;
}

TEST(StreamTokens, BudgetStopsAttemptsStoppedEarly) {
  int requests = 0;
  const auto result = extract_stopped_early(4, TokenBudget{.max_tokens = 600}, requests);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::budget_exhausted) << result.error().message;
  EXPECT_LE(requests, 2);
  EXPECT_GT(result.trace().usage.input_tokens, 0);
  EXPECT_TRUE(result.trace().usage.estimated);
}

TEST(StreamTokens, StreamStoppedEarlyShowsAnEstimateNotZero) {
  int requests = 0;
  const auto result = extract_stopped_early(0, {}, requests);
  ASSERT_FALSE(result.ok());
  const auto& usage = result.trace().attempts.at(0).usage;
  EXPECT_TRUE(usage.estimated);
  EXPECT_GT(usage.input_tokens, 200);
  EXPECT_GT(usage.output_tokens, 0);
  const std::string text = result.trace().to_text();
  EXPECT_FALSE(has(text, "tokens in 0 / out 0")) << text;
  EXPECT_TRUE(has(text, "(estimated")) << text;
  EXPECT_EQ(result.trace().to_json()["usage"]["estimated"], true);
}

}  // namespace
