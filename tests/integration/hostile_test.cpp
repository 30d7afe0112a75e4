// A hostile provider and hostile files (issue 11): each test pins one fault a red-team run found
// and the class of its fix. Providers are a scripted Transport (exact bytes, no network) or a
// raw-socket server (tests/fixtures/hostile_server.hpp) where the fault is in the HTTP framing
// itself.

#include <gtest/gtest.h>

#include <accord/client.hpp>
#include <accord/json_schema_file.hpp>
#include <accord/json_text.hpp>
#include <accord/printable.hpp>
#include <accord/tools.hpp>
#include <charconv>
#include <chrono>
#include <deque>
#include <random>
#include <string>

#include "accord/providers/provider.hpp"
#include "fixtures/call_records.hpp"
#include "fixtures/hostile_server.hpp"
#include "transport/redaction.hpp"

namespace {

using namespace accord;
using nlohmann::json;
using std::chrono::milliseconds;

const std::string kKey = "sk-test-SENTINEL-9f8e";
// The key as a hostile server can write it inside JSON text: every '-' as \u002d.
const std::string kEscapedKey = R"(sk\u002dtest\u002dSENTINEL\u002d9f8e)";

// Replies scripted per request; the last one repeats. Records every request body.
class Scripted final : public Transport {
 public:
  explicit Scripted(std::deque<HttpResponse> replies) : replies_(std::move(replies)) {}
  TransportResult post(const HttpRequest& request) override {
    bodies.push_back(request.body);
    HttpResponse next = replies_.front();
    if (replies_.size() > 1) replies_.pop_front();
    return TransportResult{std::move(next), std::nullopt, milliseconds{1}};
  }
  std::vector<std::string> bodies;

 private:
  std::deque<HttpResponse> replies_;
};

HttpResponse ok_body(std::string body, Headers headers = {}) {
  return HttpResponse{200, std::move(headers), std::move(body)};
}

// An OpenAI Chat completion whose content is `content`.
std::string chat_reply(const std::string& content) {
  return json{{"id", "c1"},
              {"object", "chat.completion"},
              {"choices", json::array({{{"index", 0},
                                        {"message", {{"role", "assistant"}, {"content", content}}},
                                        {"finish_reason", "stop"}}})},
              {"usage", {{"prompt_tokens", 1}, {"completion_tokens", 1}, {"total_tokens", 2}}}}
      .dump();
}

ClientOptions scripted_options(std::shared_ptr<Transport> transport,
                               const std::string& provider = "openai-chat") {
  ClientOptions options;
  options.provider = provider;
  options.api_key = kKey;
  options.base_url = "http://127.0.0.1:9/v1";
  options.retry.initial_backoff = milliseconds{1};
  options.retry.max_backoff = milliseconds{2};
  options.custom_transport = std::move(transport);
  return options;
}

const Schema kNote = object({{"note", string().max(5)}});

ExtractRequest note_request() {
  return ExtractRequest{.schema = kNote, .prompt = "note", .name = "note"};
}

using call_records::has;
using call_records::records;

// ---- wrong results ----------------------------------------------------------------------

TEST(HostileWrongResults, InvalidAfterRetriesCountsTheAttemptsMade) {
  auto transport =
      std::make_shared<Scripted>(std::deque{ok_body(chat_reply(R"({"note":"too long"})"))});
  const Client client(scripted_options(transport));
  auto request = note_request();
  request.corrections = 2;
  const auto result = client.extract(request);
  ASSERT_FALSE(result.ok());
  // The first, then one request per correction: the scoped one and its whole-object fallback.
  ASSERT_EQ(result.trace().attempts.size(), 3u);
  EXPECT_TRUE(has(result.error().message, "still invalid after 3 attempts"))
      << result.error().message;
}

TEST(HostileWrongResults, SuccessIsNeverRetriedWhateverXShouldRetrySays) {
  auto transport = std::make_shared<Scripted>(
      std::deque{ok_body(chat_reply(R"({"note":"ok"})"), {{"x-should-retry", "true"}})});
  const Client client(scripted_options(transport));
  const auto result = client.extract(note_request());
  ASSERT_TRUE(result.ok()) << records(result);
  EXPECT_EQ(transport->bodies.size(), 1u);
  EXPECT_FALSE(decide_retry(TransportResult{ok_body("{}", {{"x-should-retry", "true"}}), {}, {}}, 0,
                            RetryPolicy{})
                   .retry);
}

class HostileEveryProvider : public testing::TestWithParam<std::string> {};

TEST_P(HostileEveryProvider, ErrorObjectWithStatus200KeepsTheProvidersMessage) {
  auto transport = std::make_shared<Scripted>(std::deque{ok_body(
      R"({"error":{"message":"Rate limit reached for gpt-4o","type":"requests","code":"rate_limit"}})")});
  const Client client(scripted_options(transport, GetParam()));
  const auto result = client.extract(note_request());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::bad_reply);
  EXPECT_TRUE(has(result.error().message, "Rate limit reached for gpt-4o"))
      << result.error().message;
}

TEST_P(HostileEveryProvider, GzipBodyIsDescribedWithoutItsBytes) {
  const std::string gzip("\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\x4d\x8e\xc1\x0e\xc2\x30", 16);
  auto transport = std::make_shared<Scripted>(std::deque{ok_body(gzip)});
  const Client client(scripted_options(transport, GetParam()));
  const auto result = client.extract(note_request());
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(has(result.error().message, "16 bytes of gzip-compressed data"))
      << result.error().message;
  EXPECT_FALSE(has(result.error().message, "\x1f")) << result.error().message;
}

TEST_P(HostileEveryProvider, BinaryBodyIsDescribedWithoutItsBytes) {
  auto transport =
      std::make_shared<Scripted>(std::deque{ok_body(std::string("\x00\x01\x1b[2J\x07", 7))});
  const Client client(scripted_options(transport, GetParam()));
  const auto result = client.extract(note_request());
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(has(result.error().message, "7 bytes of binary data")) << result.error().message;
  EXPECT_FALSE(has(result.error().message, "\x1b")) << result.error().message;
}

INSTANTIATE_TEST_SUITE_P(Providers, HostileEveryProvider,
                         ::testing::ValuesIn(::accord::provider_names()), [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

TEST(HostileWrongResults, GzipEncodedReplyIsDecodedByTheTransport) {
  static const char kZipped[] =
      "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\x4d\x8e\xc1\x0e\xc2\x30\x0c\x43\xff\xc5\xe7\x0a"
      "\x31\x8e\xfd\x15\x8a\xa6\xd2\x05\x56\xd8\x9a\x6a\x09\x12\xa2\xea\xbf\xd3\x1e\x86\x38\x59"
      "\x76\x94\x67\x17\xc4\x09\x16\x61\x80\x01\x5f\x1f\x14\xb4\xbb\xd9\xeb\x21\xf0\x9a\x17\xd2"
      "\xc8\xa9\x9d\xc2\xcc\x31\x90\xc0\x9e\x0b\x62\x9a\xe8\x0d\x7b\x34\x58\x49\xc4\xdf\x09\xb6"
      "\x60\xe3\xa5\x29\xbc\x48\x14\xf5\x49\xfb\x0f\x27\xa5\xd4\x79\xc5\xc1\x3b\x58\x87\x4f\xcc"
      "\x99\x26\x87\x8a\x6a\x70\x8b\x29\xca\x3c\x6e\xe4\xa5\x75\x58\x88\x72\x46\xbd\x18\xbc\x76"
      "\x68\xde\xda\x06\x1d\x95\x9f\x94\x5a\xf7\xd0\x99\xfb\xa8\xff\x54\x59\xfd\xf2\x0b\x4e\xb5"
      "\x7e\x01\x57\x59\xe7\xe5\xd6\x00\x00\x00";
  hostile::Server server(hostile::canned(hostile::Server::response(
      std::string(kZipped, sizeof kZipped - 1), "Content-Encoding: gzip\r\n")));
  ClientOptions options;
  options.base_url = server.base_url();
  options.api_key = kKey;
  const Client client(options);
  const auto result =
      client.extract({.schema = object({{"a", string()}}), .prompt = "a", .name = "a"});
  ASSERT_TRUE(result.ok()) << records(result);
  EXPECT_EQ(result.value()["a"], "zipped");
}

// ---- redaction ----------------------------------------------------------------------------

TEST(HostileRedaction, KeyStraddlingTheRawReplyCutLeavesNoPiece) {
  // The key starts 10 bytes before the 64 KiB cut of Attempt::raw_reply.
  auto transport =
      std::make_shared<Scripted>(std::deque{ok_body(std::string(65536 - 10, 'x') + kKey)});
  const Client client(scripted_options(transport));
  const auto result = client.extract(note_request());
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(has(records(result), kKey.substr(0, 10)))
      << result.trace().attempts[0].raw_reply.substr(65500);
}

TEST(HostileRedaction, KeyStraddlingTheErrorSnippetLeavesNoPiece) {
  // The key starts 10 bytes before the 200-byte snippet of a body that is not JSON.
  auto transport = std::make_shared<Scripted>(std::deque{ok_body(std::string(190, 'x') + kKey)});
  const Client client(scripted_options(transport));
  const auto result = client.extract(note_request());
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(has(result.error().message, kKey.substr(0, 10))) << result.error().message;
}

TEST(HostileRedaction, KeyWrittenWithJsonEscapesIsRedactedEverywhere) {
  // The content is JSON text whose string holds the escaped key; in the envelope the escape's
  // backslash is itself escaped. The reply is invalid, so its value goes back in the scoped
  // correction and the whole reply in the whole-object one (two corrections).
  const std::string content = R"({"note":")" + kEscapedKey + R"("})";
  auto transport = std::make_shared<Scripted>(std::deque{ok_body(chat_reply(content))});
  const Client client(scripted_options(transport));
  auto request = note_request();
  request.corrections = 2;
  const auto result = client.extract(request);
  ASSERT_FALSE(result.ok());
  ASSERT_EQ(result.trace().attempts.size(), 3u);
  EXPECT_EQ(result.trace().attempts[1].role, AttemptRole::scoped_correction);
  EXPECT_FALSE(has(transport->bodies.at(1), "u002dtest")) << transport->bodies.at(1);
  const std::string kept = records(result);
  for (const std::string& form : {kKey, kEscapedKey, std::string(R"(sk\\u002dtest)")}) {
    EXPECT_FALSE(has(kept, form)) << form;
  }
  EXPECT_TRUE(has(kept, "[redacted]"));
  // The corrective request echoed the reply without the key, too.
  EXPECT_FALSE(has(transport->bodies.back(), "u002dtest")) << transport->bodies.back();
}

TEST(HostileRedaction, ToolRunRecordsKeepNoKey) {
  // A tool call named with the key, arguments carrying it escaped; then a final answer.
  const json call_message = {
      {"role", "assistant"},
      {"content", nullptr},
      {"tool_calls", json::array({{{"id", "call_1"},
                                   {"type", "function"},
                                   {"function",
                                    {{"name", "x" + kKey},
                                     {"arguments", R"({"to":")" + kEscapedKey + R"("})"}}}}})}};
  const json first = {
      {"id", "c1"},
      {"object", "chat.completion"},
      {"choices",
       json::array({{{"index", 0}, {"message", call_message}, {"finish_reason", "tool_calls"}}})}};
  auto transport =
      std::make_shared<Scripted>(std::deque{ok_body(first.dump()), ok_body(chat_reply("done"))});
  const Client client(scripted_options(transport));
  const Toolset tools{Tool("send", "", object({{"to", string()}}),
                           [](const json& input) { return ToolOutput::ok(input); })};
  const auto result = run_tools(client, {.prompt = "go"}, tools);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_FALSE(result.value().calls.empty());
  for (const auto& record : result.value().calls) {
    for (const std::string* text :
         {&record.call.name, &record.call.arguments_text, &record.sent_back}) {
      EXPECT_FALSE(has(*text, "SENTINEL")) << *text;
    }
  }
}

TEST(HostileRedaction, RedactionIsLinearOnABodyOfBackslashes) {
  // Every backslash starts a candidate escape; a run of them is skipped at once.
  const Client client(scripted_options(std::make_shared<Scripted>(std::deque{ok_body("{}")})));
  const std::string text(4 * 1024 * 1024, '\\');
  EXPECT_EQ(client.redacted(text).size(), text.size());
}

// Where `secret` spelled at `at` ends, each character plain or as a run of backslashes, 'u' and
// its four hex digits; npos when it is not spelled there. The rule redaction follows, tried at
// every byte: the oracle of the quick search.
std::size_t spelled_end(std::string_view text, std::size_t at, std::string_view secret) {
  for (const char c : secret) {
    if (at < text.size() && text[at] == c) {
      ++at;
      continue;
    }
    std::size_t u = at;
    while (u < text.size() && text[u] == '\\') ++u;
    unsigned code = 0;
    if (u == at || u + 5 > text.size() || text[u] != 'u' ||
        std::from_chars(text.data() + u + 1, text.data() + u + 5, code, 16).ptr !=
            text.data() + u + 5 ||
        code != static_cast<unsigned char>(c)) {
      return std::string_view::npos;
    }
    at = u + 5;
  }
  return at;
}

std::string redacted_at_every_byte(std::string_view text, std::string_view secret) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    if (const auto end = spelled_end(text, at, secret); end != std::string_view::npos) {
      out += "[redacted]";
      at = end;
    } else {
      out += text[at++];
    }
  }
  return out;
}

// Up to `most` of `parts`, drawn at random and joined.
std::string random_text(const std::vector<std::string>& parts, std::size_t most,
                        std::mt19937& random) {
  std::string text;
  const auto count = std::uniform_int_distribution<std::size_t>(0, most)(random);
  for (std::size_t i = 0; i < count; ++i) {
    text += parts[std::uniform_int_distribution<std::size_t>(0, parts.size() - 1)(random)];
  }
  return text;
}

TEST(HostileRedaction, KeysAmongEscapedQuotesAndBackslashRunsAreFoundAsByTryingEveryByte) {
  // Content that is JSON text inside a JSON string is full of \" ; the quick search passes
  // over every backslash that cannot begin an escape of a character.
  const Client client(scripted_options(std::make_shared<Scripted>(std::deque{ok_body("{}")})));
  const std::vector<std::string> pieces = {kKey,
                                           kEscapedKey,
                                           R"(sk\\u002dtest-SENTINEL-9f8e)",
                                           R"(\u0073k-test-SENTINEL-9f8e)",
                                           R"(\")",
                                           R"(\\)",
                                           R"(\)",
                                           "u",
                                           "sk-",
                                           R"(\u002d)",
                                           R"(\\u)",
                                           "s",
                                           "x",
                                           "\"",
                                           "9f8e"};
  std::mt19937 random(26);
  for (int round = 0; round < 3000; ++round) {
    const std::string text = random_text(pieces, 24, random);
    ASSERT_EQ(client.redacted(text), redacted_at_every_byte(text, kKey)) << text;
  }
}

// `spelled` (the key, in some spelling) after 0 to 99 bytes of `filler` repeated and before a
// few `tail` characters: redacted as by trying every byte, no piece of the key left. Its
// ASSERTs end only this helper: callers wrap it in ASSERT_NO_FATAL_FAILURE.
void expect_redacted_at_every_place(const Client& client, const std::string& filler,
                                    const std::string& spelled, char tail) {
  for (std::size_t before = 0; before < 100; ++before) {
    std::string text;
    while (text.size() < before) text += filler;
    text.resize(before);
    text += spelled;
    text += std::string(before % 40, tail);
    ASSERT_EQ(client.redacted(text), redacted_at_every_byte(text, kKey)) << text;
    ASSERT_EQ(client.redacted(text).find("SENTINEL"), std::string::npos) << text;
  }
}

// A long body is searched for escapes 32 bytes at a time where the processor allows it: an
// escaped key at any place of a block, or straddling two, is found as by trying every byte. A key
// whose first character is escaped is found only through that search.
TEST(HostileRedaction, AnEscapedKeyAtAnyPlaceOfALongBodyIsFoundAsByTryingEveryByte) {
  const Client client(scripted_options(std::make_shared<Scripted>(std::deque{ok_body("{}")})));
  for (const std::string& escaped : {kEscapedKey, std::string(R"(\u0073k-test-SENTINEL-9f8e)")}) {
    ASSERT_NO_FATAL_FAILURE(
        expect_redacted_at_every_place(client, R"(a\"b c\\d u )", escaped, 'x'));
  }
}

// The search stops only where the key's first character is followed by its second or by a
// backslash (the second escaped), or at an escape: a key whose second character alone is
// escaped, among many lone first characters and near-misses, is found at any place of a long
// body as by trying every byte. This guards the scan's filter (next_candidate in
// src/transport/redaction.cpp): without its "first character followed by a backslash" term
// (`after == '\\'`) this test fails.
TEST(HostileRedaction, AKeyWhoseSecondCharacterIsEscapedIsFoundAsByTryingEveryByte) {
  const Client client(scripted_options(std::make_shared<Scripted>(std::deque{ok_body("{}")})));
  for (const std::string& spelled : {std::string(R"(s\u006b-test-SENTINEL-9f8e)"),
                                     std::string(R"(s\\u006b-test-SENTINEL-9f8e)"), kKey}) {
    ASSERT_NO_FATAL_FAILURE(
        expect_redacted_at_every_place(client, R"(s ss s\"sk sx\s)", spelled, 's'));
  }
}

// A text's last places (fewer than a block) are searched with one block ending at the text's end,
// which overlaps places already searched (masked off). Held against the byte-by-byte oracle: a
// key or a near-miss ("sk" not followed by the key) ending at any of the last bytes of a text of
// any length is redacted, or left, as by trying every byte.
TEST(HostileRedaction, TheLastPlacesOfATextOfAnyLengthAreSearchedAsByTryingEveryByte) {
  const Client client(scripted_options(std::make_shared<Scripted>(std::deque{ok_body("{}")})));
  for (const std::string& ending :
       {kKey, kEscapedKey, std::string("sk"), std::string("s\\"), std::string("\\u")}) {
    for (std::size_t length = ending.size(); length < ending.size() + 70; ++length) {
      for (std::size_t after = 0; after < 20 && ending.size() + after <= length; ++after) {
        std::string text(length - ending.size() - after, 'x');
        for (std::size_t i = 3; i < text.size(); i += 7) text[i] = 's';  // lone first characters
        text += ending;
        text += std::string(after, 'k');
        ASSERT_EQ(client.redacted(text), redacted_at_every_byte(text, kKey)) << text;
      }
    }
  }
}

// A custom transport's error may quote the request's headers: a call's own credential-named
// header (not the client's) is taken out of the transport log, the reply's detail and the error.
TEST(HostileRedaction, ATransportErrorQuotingACallsCredentialHeaderLeavesItOut) {
  class HeaderQuoting final : public Transport {
   public:
    TransportResult post(const HttpRequest& request) override {
      std::string headers;
      for (const auto& [name, value] : request.headers) headers += name + ": " + value + "; ";
      return TransportResult{std::nullopt,
                             TransportError{TransportFailure::dropped, "lost sending " + headers},
                             milliseconds{1}};
    }
  };
  const std::string secret = "tok-CALL-7c6b5a";
  auto options = scripted_options(std::make_shared<HeaderQuoting>());
  options.retry.max_retries = 1;
  const Client client(options);
  auto request = note_request();
  request.parameters.extra_headers = {{"x-trace-token", secret}};
  const auto result = client.extract(request);
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(has(result.error().message, secret)) << result.error().message;
  const auto& trace = result.error().trace;
  ASSERT_FALSE(trace.attempts.empty());
  for (const auto& line : trace.attempts.back().transport_log)
    EXPECT_FALSE(has(line, secret)) << line;
  EXPECT_FALSE(has(trace.to_json().dump(), secret));
  EXPECT_FALSE(has(trace.to_text(), secret));
}

// The piece of a key cut at a stream's continuation may begin with the backslash of an escape
// (`\u002dtest-...`); inside JSON text that backslash is doubled, and a match may begin at any
// backslash of a run, not only its first.
TEST(HostileRedaction, AKeyPieceBeginningWithABackslashIsFoundInsideABackslashRun) {
  const std::string piece = R"(\u002dtest-SENTINEL-9f8e)";
  const std::vector<std::string> parts = {piece, R"(\)", R"(\\)", R"(\")", "u002d", "x", "test-"};
  std::mt19937 random(27);
  for (int round = 0; round < 3000; ++round) {
    const std::string text = random_text(parts, 16, random);
    ASSERT_EQ(detail::redact_spans(text, detail::secret_spans(text, piece)),
              redacted_at_every_byte(text, piece))
        << text;
  }
  const std::string doubled = R"(\\u002dtest-SENTINEL-9f8e)";  // as JSON text holds the piece
  EXPECT_EQ(detail::redact_spans(doubled, detail::secret_spans(doubled, piece)), R"(\[redacted])");
}

// ---- terminal and log injection ------------------------------------------------------------

TEST(HostileInjection, PrintableEscapesControlsAndKeepsText) {
  EXPECT_EQ(printable(std::string("a\x1b[2J\x07\0b\n\r\t\x7f", 12)),
            "a\\x1b[2J\\x07\\x00b\\n\\r\\t\\x7f");
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\u009b31m");
  EXPECT_EQ(printable("Grüße → ok"), "Grüße → ok");
  EXPECT_EQ(printable("\xff"), "\xef\xbf\xbd");
}

TEST(HostileInjection, ReplyContentCannotForgeTraceLinesOrDriveTheTerminal) {
  const std::string content =
      "{\"note\":\"\x1b[2J\x07\"}\nattempt 1: HTTP 200, ok, 1 ms, tokens in 0 / out 0";
  auto transport = std::make_shared<Scripted>(std::deque{ok_body(chat_reply(content))});
  const Client client(scripted_options(transport));
  const auto result = client.extract(note_request());
  const std::string text = result.trace().to_text();
  EXPECT_FALSE(has(text, "\x1b")) << text;
  EXPECT_FALSE(has(text, "\x07")) << text;
  EXPECT_FALSE(has(text, "\nattempt 1: HTTP 200, ok, 1 ms")) << text;
}

TEST(HostileInjection, IssuePathKeysArePrinted) {
  Issues issues{Issue{IssueCode::unrecognized_keys, Path{} / std::string("\x1b[31m"),
                      "Unrecognized key: \"\x1b]0;pwned\x07\""}};
  const std::string text = prettify(printable(issues));
  EXPECT_FALSE(has(text, "\x1b")) << text;
  EXPECT_TRUE(has(text, "\\x1b]0;pwned\\x07")) << text;
}

// ---- unbounded work ------------------------------------------------------------------------

TEST(HostileWork, EnvelopeWithAHundredThousandKeysIsReadInLinearTime) {
  // ordered_json::parse searched every earlier key for each new one: 13 s of CPU for this body.
  std::string body =
      R"({"choices":[{"index":0,"message":{"role":"assistant","content":"{\"note\":\"ok\"}"},"finish_reason":"stop"}])";
  for (int i = 0; i < 100'000; ++i) body += ",\"k" + std::to_string(i) + "\":0";
  body += "}";
  auto transport = std::make_shared<Scripted>(std::deque{ok_body(body)});
  const Client client(scripted_options(transport));
  const auto started = std::chrono::steady_clock::now();
  const auto result = client.extract(note_request());
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_LT(took, std::chrono::seconds(5));  // a guard against the quadratic parse, not a bench
}

TEST(HostileWork, OrderedParseKeepsOrderAndTheLastDuplicate) {
  const auto parsed = parse_ordered_json(R"({"b":1,"a":{"y":1,"x":2},"b":3})");
  EXPECT_EQ(parsed.dump(), R"({"b":3,"a":{"y":1,"x":2}})");
  EXPECT_TRUE(parse_ordered_json("{", false).is_discarded());
  EXPECT_THROW((void)parse_ordered_json("{"), nlohmann::json::parse_error);
}

// Seconds to lower for OpenAI strict an object of n string properties.
double openai_lowering_seconds(int n) {
  std::string text = R"({"type":"object","properties":{)";
  for (int i = 0; i < n; ++i) {
    text += (i ? "," : "") + ("\"p" + std::to_string(i) + "\":{\"type\":\"string\"}");
  }
  text += "}}";
  const auto schema = parse_ordered_json(text);
  const auto started = std::chrono::steady_clock::now();
  // OpenAI strict: every property also gets its Report entry changed (optional -> nullable).
  const auto wire = make_provider("openai-chat")->lower(schema, Report{});
  EXPECT_EQ(wire.schema["properties"].size(), static_cast<std::size_t>(n));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

TEST(HostileWork, SchemaWithFortyThousandPropertiesIsLoweredInLinearTime) {
  // Lowering set each property with operator[] and searched the whole Report for each optional
  // one: 40,000 properties took about 13 s. Eight times the properties must cost far less than
  // the 64 times a quadratic walk would; a ratio, not a clock limit, so that sanitizers, -O0
  // test code and a loaded machine do not decide it. (Compiling the file is the validation
  // engine's part and is measured in docs/reliability.md.)
  const double small = openai_lowering_seconds(5'000);
  const double large = openai_lowering_seconds(40'000);
  EXPECT_LT(large, 24 * small + 0.5) << "5,000 properties: " << small << " s, 40,000: " << large;
}

TEST(HostileWork, TrickledBodyEndsAtTheCallDeadline) {
  hostile::Server server(hostile::trickle(milliseconds{20}));
  ClientOptions options;
  options.base_url = server.base_url();
  options.call_timeout = milliseconds{300};
  options.retry.initial_backoff = milliseconds{1};
  const Client client(options);
  const auto started = std::chrono::steady_clock::now();
  const auto result = client.extract(note_request());
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::transport) << result.error().message;
  EXPECT_LT(took, std::chrono::seconds(3));  // the per-try limit is 120 s: the deadline cut it
}

TEST(HostileWork, EndlessContinueEndsAtTheCallDeadline) {
  hostile::Server server(hostile::endless_continue(milliseconds{10}));
  ClientOptions options;
  options.base_url = server.base_url();
  options.call_timeout = milliseconds{300};
  const Client client(options);
  const auto started = std::chrono::steady_clock::now();
  const auto result = client.extract(note_request());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::transport) << result.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
}

TEST(HostileWork, NoRetryIsMadeOnceTheDeadlineHasPassed) {
  class Failing final : public Transport {
   public:
    TransportResult post(const HttpRequest& request) override {
      timeouts.push_back(request.timeout);
      return TransportResult{std::nullopt, TransportError{TransportFailure::dropped, "gone"}, {}};
    }
    std::vector<milliseconds> timeouts;
  } transport;
  RetryPolicy policy;
  policy.initial_backoff = milliseconds{1'000};
  policy.jitter = 0;
  const auto delivery = deliver(transport, HttpRequest{"http://127.0.0.1:9", {}, "{}"}, policy, {},
                                std::chrono::steady_clock::now() + milliseconds{200});
  ASSERT_EQ(transport.timeouts.size(), 1u);  // the 1 s backoff would end past the deadline
  EXPECT_GT(transport.timeouts[0], milliseconds{0});
  EXPECT_LE(transport.timeouts[0], milliseconds{200});
  EXPECT_TRUE(has(delivery.decisions.back().reason, "deadline"))
      << delivery.decisions.back().reason;
}

TEST(HostileWork, CorrectionsAboveTheBoundAreRefusedSayingTheBound) {
  ClientOptions options;
  options.corrections = kMaxCorrections + 1;
  try {
    const Client client(options);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(has(e.what(), "0 to 10")) << e.what();
  }
  const Client client(scripted_options(std::make_shared<Scripted>(std::deque{ok_body("{}")})));
  auto request = note_request();
  request.corrections = -1;
  EXPECT_THROW((void)client.extract(request), std::invalid_argument);
}

TEST(HostileWork, EachCorrectiveRequestStaysBounded) {
  // A 100 KB invalid reply, corrected 3 times: the echo is cut, so no request grows past the
  // first one by more than the bounded turns.
  const std::string content = R"({"note":")" + std::string(100'000, 'n') + R"("})";
  auto transport = std::make_shared<Scripted>(std::deque{ok_body(chat_reply(content))});
  const Client client(scripted_options(transport));
  auto request = note_request();
  request.corrections = 3;
  const auto result = client.extract(request);
  ASSERT_FALSE(result.ok());
  ASSERT_EQ(transport->bodies.size(), 4u);
  EXPECT_LT(transport->bodies.back().size(), transport->bodies.front().size() + 3 * 30'000);
  EXPECT_TRUE(has(transport->bodies.back(), "not repeated]"));
}

// ---- hostile schema files ------------------------------------------------------------------

std::string schema_problem(const std::string& text) {
  try {
    (void)import_json_schema(parse_ordered_json(text));
  } catch (const SchemaError& e) {
    std::string out;
    for (const auto& problem : e.problems())
      out += problem.path.to_pointer() + ": " + problem.message + "\n";
    return out;
  }
  return "";
}

TEST(HostileFiles, HugeLengthIsRefusedTheSameWayWhateverItsSpelling) {
  const auto as_float = schema_problem(R"({"type":"string","minLength":1e30})");
  const auto as_integer = schema_problem(R"({"type":"string","minLength":10000000000000000000})");
  EXPECT_TRUE(has(as_float, "/minLength: minLength 1e+30 is larger than any length")) << as_float;
  EXPECT_TRUE(
      has(as_integer, "/minLength: minLength 10000000000000000000 is larger than any length"))
      << as_integer;
}

TEST(HostileFiles, NestedRepetitionSaysTheEnginesLimitAndNamesThePattern) {
  const auto problem = schema_problem(R"({"type":"string","pattern":"((a{100}){100}){100}"})");
  EXPECT_TRUE(has(problem, "((a{100}){100}){100}")) << problem;
  EXPECT_TRUE(has(problem, "too large for the regex engine")) << problem;
}

TEST(HostileFiles, DeepSchemaIsRefusedBeforeAnyRecursivePass) {
  std::string text;
  for (int i = 0; i < 100'000; ++i) text += R"({"not":)";
  text += "{}";
  text += std::string(100'000, '}');
  const auto problem = schema_problem(text);
  EXPECT_TRUE(has(problem, "nests deeper than 256 levels")) << problem.substr(0, 300);
}

}  // namespace
