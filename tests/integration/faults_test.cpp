// The fault matrix: every network or provider fault, for every provider, ends in its documented
// outcome within a bounded time, with every try in the Trace (docs/reliability.md lists them).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <tuple>

#include "accord/client.hpp"
#include "accord/json_text.hpp"
#include "accord/providers/provider.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "fixtures/sentinel_key.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

using sentinel::kKey;
// Far above what any case needs (the slowest honours a 1 s retry-after), far below a hang.
constexpr milliseconds kBound{15'000};
// Short enough that the timeout cases are quick, long enough for a sanitizer build's round trip.
constexpr milliseconds kShortTimeout{400};

using namespace testing_documents;

using sentinel::kProviders;

std::string provider_name(const std::string& provider) {
  std::string name = provider;
  std::erase(name, '-');
  return name;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

using sentinel::contains;

// A port nothing listens on: bound once by the kernel's choice, then closed.
int closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    if (fd >= 0) ::close(fd);
    return 9;  // discard: nothing listens there on a test machine
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

struct Outcome {
  Result<json> result;
  milliseconds took;
};

class FaultRunner {
 public:
  explicit FaultRunner(std::string provider) : provider_(std::move(provider)) {}

  // Runs one extraction of the refund schema against accord-mock playing `replies`.
  Outcome run(const std::vector<json>& replies, OutputMode mode = OutputMode::response_format) {
    mock_ = std::make_unique<MockProcess>(json{{"replies", replies}}.dump());
    return run_at(mock_->base_url(), mode);
  }

  Outcome run_at(const std::string& base_url, OutputMode mode = OutputMode::response_format) {
    ClientOptions options{.provider = provider_,
                          .model = "test-model",
                          .base_url = base_url,
                          .api_key = kKey,
                          .retry = {.max_retries = 2,
                                    .initial_backoff = milliseconds(5),
                                    .max_backoff = milliseconds(20),
                                    .jitter = 0}};
    options.transport.connect_timeout = milliseconds(2000);
    options.transport.total_timeout = total_timeout;
    const Client client(options);
    const auto started = std::chrono::steady_clock::now();
    auto result = client.extract({.schema = examples::refund_schema(),
                                  .prompt = "Extract the refund.",
                                  .name = "refund",
                                  .mode = mode});
    const auto took =
        std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - started);
    return {std::move(result), took};
  }

  milliseconds total_timeout{10'000};

 private:
  std::string provider_;
  std::unique_ptr<MockProcess> mock_;
};

// What every outcome must satisfy whatever the fault: bounded, renderable, free of the key.
void expect_well_formed(const Outcome& outcome) {
  EXPECT_LT(outcome.took, kBound);
  const Trace& trace = outcome.result.trace();
  ASSERT_FALSE(trace.attempts.empty());
  for (const auto& attempt : trace.attempts) EXPECT_FALSE(attempt.transport_log.empty());
  std::string rendered;
  EXPECT_NO_THROW(rendered = trace.to_json().dump());
  EXPECT_NO_THROW(rendered += trace.to_text());
  if (!outcome.result.ok()) {
    rendered += outcome.result.error().message;
    rendered += ExtractError(outcome.result.error()).what();
  }
  EXPECT_FALSE(contains(rendered, "SENTINEL"));
}

const Error& error_of(const Outcome& outcome) {
  EXPECT_FALSE(outcome.result.ok());
  return outcome.result.error();
}

const std::vector<std::string>& log_of(const Outcome& outcome) {
  return outcome.result.trace().attempts.front().transport_log;
}

class Fault : public ::testing::TestWithParam<std::string> {
 protected:
  FaultRunner runner{GetParam()};
  bool is_anthropic() const { return GetParam() == "anthropic"; }
  // Chat Completions' wire (openai-chat and the local servers that speak it), by where it posts.
  bool is_chat_completions() const {
    return make_provider(GetParam())
               ->encode(CallSpec{.base_url = "http://127.0.0.1:9/v1"})
               .url.find("/chat/completions") != std::string::npos;
  }
  bool forces_tool() const { return make_provider(GetParam())->schema_capabilities().forces_tool; }
};

// ---- rate limits --------------------------------------------------------------------------------

TEST_P(Fault, RateLimitWithRetryAfterMsIsRetriedAfterTheAskedWait) {
  const auto outcome = runner.run(
      {{{"status", 429}, {"headers", {{"retry-after-ms", "30"}}}}, {{"json", kValidRefund}}});
  expect_well_formed(outcome);
  ASSERT_TRUE(outcome.result.ok()) << outcome.result.error().message;
  ASSERT_EQ(outcome.result.trace().attempts.size(), 1u);
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_TRUE(starts_with(log[0], "HTTP 429; retry in 30 ms")) << log[0];
  EXPECT_TRUE(contains(log[0], "retry-after-ms: 30")) << log[0];
  EXPECT_EQ(log[1], "HTTP 200");
}

TEST_P(Fault, RateLimitWithRetryAfterSecondsIsRetriedAfterTheAskedWait) {
  const auto outcome = runner.run(
      {{{"status", 429}, {"headers", {{"retry-after", "1"}}}}, {{"json", kValidRefund}}});
  expect_well_formed(outcome);
  ASSERT_TRUE(outcome.result.ok()) << outcome.result.error().message;
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_TRUE(starts_with(log[0], "HTTP 429; retry in 1000 ms")) << log[0];
  EXPECT_TRUE(contains(log[0], "retry-after: 1")) << log[0];
  EXPECT_GE(outcome.took, milliseconds(950));
}

TEST_P(Fault, RateLimitEveryTimeIsAnHttpErrorAfterTheRetries) {
  const auto outcome = runner.run({{{"status", 429}, {"headers", {{"retry-after-ms", "10"}}}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::http);
  EXPECT_TRUE(contains(error.message, "Rate limit reached")) << error.message;
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[2], "HTTP 429, not retried: 2 retries used up");
}

TEST_P(Fault, InsufficientQuotaIsNotRetried) {
  if (GetParam() == "bedrock") {
    GTEST_SKIP() << "Bedrock has no quota error on 429: ServiceQuotaExceededException is a 400";
  }
  // Ollama's error is {"error": "..."}: no code can say the quota is spent.
  if (GetParam() == "ollama") GTEST_SKIP() << "Ollama's error envelope carries no code";
  const auto outcome = runner.run({{{"status", 429},
                                    {"error",
                                     {{"type", "insufficient_quota"},
                                      {"code", "insufficient_quota"},
                                      {"message", "You exceeded your current quota"}}}},
                                   {{"json", kValidRefund}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::http);
  EXPECT_EQ(error.message, "You exceeded your current quota");
  ASSERT_EQ(log_of(outcome).size(), 1u);
  EXPECT_EQ(log_of(outcome)[0],
            "HTTP 429, not retried: insufficient_quota (retrying will not help)");
}

// ---- connection faults --------------------------------------------------------------------------

TEST_P(Fault, ConnectionRefusedIsRetriedThenATransportError) {
  const int port = closed_port();
  const auto outcome = runner.run_at("http://127.0.0.1:" + std::to_string(port) + "/v1");
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::transport);
  EXPECT_TRUE(contains(error.message, "127.0.0.1:" + std::to_string(port))) << error.message;
  const auto& attempt = outcome.result.trace().attempts.at(0);
  EXPECT_EQ(attempt.http_status, 0);
  ASSERT_EQ(attempt.transport_log.size(), 3u);
  for (const auto& line : attempt.transport_log)
    EXPECT_TRUE(starts_with(line, "connect: ")) << line;
}

TEST_P(Fault, ConnectionDroppedMidBodyIsRetried) {
  const auto outcome =
      runner.run({{{"json", kValidRefund}, {"partial_body", true}}, {{"json", kValidRefund}}});
  expect_well_formed(outcome);
  ASSERT_TRUE(outcome.result.ok()) << outcome.result.error().message;
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_TRUE(starts_with(log[0], "dropped: ")) << log[0];
  EXPECT_EQ(log[1], "HTTP 200");
}

TEST_P(Fault, ConnectionDroppedMidBodyEveryTimeIsATransportError) {
  const auto outcome = runner.run({{{"json", kValidRefund}, {"partial_body", true}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::transport);
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 3u);
  for (const auto& line : log) EXPECT_TRUE(starts_with(line, "dropped: ")) << line;
  EXPECT_TRUE(contains(log[2], "not retried: 2 retries used up")) << log[2];
}

TEST_P(Fault, ReplySlowerThanTheTotalTimeoutIsATransportErrorAfterEachTry) {
  runner.total_timeout = kShortTimeout;
  const auto outcome = runner.run({{{"json", kValidRefund}, {"delay_ms", 5000}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::transport);
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 3u);
  for (const auto& line : log) EXPECT_TRUE(starts_with(line, "timeout: ")) << line;
  // Three tries of one timeout each, not one 5 s wait.
  EXPECT_LT(outcome.took, milliseconds(4500));
}

TEST_P(Fault, HeadersThenStallIsATimeoutNotAHang) {
  runner.total_timeout = kShortTimeout;
  const auto outcome = runner.run({{{"json", kValidRefund}, {"stall_after_headers_ms", 5000}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::transport);
  EXPECT_EQ(outcome.result.trace().attempts.at(0).http_status, 0);
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 3u);
  for (const auto& line : log) EXPECT_TRUE(starts_with(line, "timeout: ")) << line;
  EXPECT_LT(outcome.took, milliseconds(4500));
}

// ---- bodies that are not a usable reply
// -----------------------------------------------------------

TEST_P(Fault, BodyThatIsNotJsonIsABadReplyNotRetried) {
  const auto outcome = runner.run({{{"status", 200}, {"body", "<html>gateway</html>"}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::bad_reply);
  EXPECT_TRUE(contains(error.message, "the body is not JSON: <html>gateway</html>"))
      << error.message;
  EXPECT_EQ(outcome.result.trace().attempts.size(), 1u);
  EXPECT_EQ(log_of(outcome), std::vector<std::string>{"HTTP 200"});
}

TEST_P(Fault, JsonBodyOfTheWrongShapeIsABadReply) {
  const auto outcome = runner.run({{{"status", 200}, {"body", {{"unexpected", 1}}}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::bad_reply);
  EXPECT_TRUE(starts_with(error.message, "the reply is not the provider's shape: "))
      << error.message;
  EXPECT_EQ(outcome.result.trace().attempts.size(), 1u);
}

TEST_P(Fault, EmptyChoicesOrContentIsABadReply) {
  const auto outcome = runner.run({{{"empty", true}}, {{"json", kValidRefund}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::bad_reply);
  if (is_chat_completions()) {
    EXPECT_TRUE(contains(error.message, "choices array is empty")) << error.message;
  } else {
    EXPECT_EQ(error.message, "the reply had no output");
  }
  EXPECT_EQ(outcome.result.trace().attempts.size(), 1u);
}

TEST_P(Fault, BodyOverTheSizeCapIsANamedTransportErrorNotRetried) {
  // 20 MiB against ClientOptions' default cap of 16 MiB.
  ASSERT_EQ(ClientOptions{}.transport.max_response_bytes, 16u * 1024 * 1024);
  const auto outcome = runner.run({{{"json", kValidRefund}, {"pad_bytes", 20 * 1024 * 1024}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::transport);
  EXPECT_TRUE(contains(error.message, "response body exceeds 16777216 bytes")) << error.message;
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_TRUE(starts_with(log[0], "too_large: response body exceeds 16777216 bytes")) << log[0];
  EXPECT_TRUE(contains(log[0], "not retried")) << log[0];
}

TEST_P(Fault, InvalidUtf8InContentIsACleanBadReply) {
  // Raw FF FE C3 inside a JSON string: the body is not JSON (RFC 8259 text is UTF-8).
  const auto outcome = runner.run({{{"json", kValidRefund}, {"invalid_utf8", true}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::bad_reply);
  EXPECT_TRUE(contains(error.message, "the body is not JSON")) << error.message;
  EXPECT_EQ(outcome.result.trace().attempts.size(), 1u);
}

TEST_P(Fault, InvalidUtf8IsKeptOutOfTheRenderedTrace) {
  const auto outcome = runner.run({{{"json", kValidRefund}, {"invalid_utf8", true}}});
  const auto& attempt = outcome.result.trace().attempts.at(0);
  ASSERT_TRUE(contains(attempt.raw_reply, "\xFF\xFE\xC3"));  // kept as received
  const std::string dumped = outcome.result.trace().to_json().dump();
  EXPECT_TRUE(contains(dumped, "\xEF\xBF\xBD")) << "U+FFFD stands in for each bad byte";
}

TEST_P(Fault, ContentNested100000DeepIsAnIssueThenInvalidAfterRetries) {
  const auto outcome = runner.run({{{"json", json::object()}, {"nest_depth", 100000}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::invalid_after_retries);
  ASSERT_EQ(outcome.result.trace().attempts.size(), 2u);
  for (const auto& attempt : outcome.result.trace().attempts) {
    ASSERT_EQ(attempt.issues.size(), 1u);
    EXPECT_EQ(attempt.issues[0].code, IssueCode::invalid_json);
    EXPECT_TRUE(contains(attempt.issues[0].message, "nested deeper than 256 levels"))
        << attempt.issues[0].message;
  }
}

TEST_P(Fault, ForcedToolOutputNested100000DeepIsRefusedByName) {
  if (!forces_tool()) GTEST_SKIP() << GetParam() << " is not known to force a tool";
  const auto outcome =
      runner.run({{{"json", json::object()}, {"nest_depth", 100000}}}, OutputMode::forced_tool);
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  if (is_anthropic() || GetParam() == "gemini" || GetParam() == "bedrock") {
    // tool_use.input (Gemini: functionCall.args, Bedrock: toolUse.input) is the nesting itself, so
    // the body is what is too deep.
    EXPECT_EQ(error.kind, ErrorKind::bad_reply);
    EXPECT_TRUE(contains(error.message, "the body nests deeper than 512 levels")) << error.message;
  } else {
    // OpenAI's arguments are a string: the envelope is shallow, the arguments are the issue.
    EXPECT_EQ(error.kind, ErrorKind::invalid_after_retries);
    EXPECT_TRUE(contains(error.message, "nested deeper than 256 levels")) << error.message;
  }
}

INSTANTIATE_TEST_SUITE_P(Providers, Fault, ::testing::ValuesIn(kProviders),
                         [](const auto& info) { return provider_name(info.param); });

// ---- status codes
// ---------------------------------------------------------------------------------

class StatusFault : public ::testing::TestWithParam<std::tuple<std::string, int>> {
 protected:
  FaultRunner runner{std::get<0>(GetParam())};
  int status() const { return std::get<1>(GetParam()); }
};

using ServerError = StatusFault;

TEST_P(ServerError, IsRetriedThenSucceeds) {
  const auto outcome = runner.run({{{"status", status()}}, {{"json", kValidRefund}}});
  expect_well_formed(outcome);
  ASSERT_TRUE(outcome.result.ok()) << outcome.result.error().message;
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_TRUE(starts_with(log[0], "HTTP " + std::to_string(status()) + "; retry in ")) << log[0];
  EXPECT_EQ(log[1], "HTTP 200");
}

TEST_P(ServerError, EveryTimeIsAnHttpErrorWithEveryTryLogged) {
  const auto outcome = runner.run({{{"status", status()}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::http);
  EXPECT_FALSE(error.message.empty());
  EXPECT_EQ(outcome.result.trace().attempts.at(0).http_status, status());
  const auto& log = log_of(outcome);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[2], "HTTP " + std::to_string(status()) + ", not retried: 2 retries used up");
}

INSTANTIATE_TEST_SUITE_P(Providers, ServerError,
                         ::testing::Combine(::testing::ValuesIn(kProviders),
                                            ::testing::Values(500, 502, 503, 529)),
                         [](const auto& info) {
                           return provider_name(std::get<0>(info.param)) + "_" +
                                  std::to_string(std::get<1>(info.param));
                         });

using ClientError = StatusFault;

TEST_P(ClientError, IsNotRetriedAndSurfacesTheProvidersMessage) {
  const auto outcome = runner.run({{{"status", status()}}, {{"json", kValidRefund}}});
  expect_well_formed(outcome);
  const Error& error = error_of(outcome);
  EXPECT_EQ(error.kind, ErrorKind::http);
  const std::map<int, std::string> messages = {{400, "Invalid request."},
                                               {401, "Incorrect API key provided."},
                                               {404, "The requested resource was not found."}};
  EXPECT_EQ(error.message, messages.at(status()));
  EXPECT_EQ(log_of(outcome), std::vector<std::string>{"HTTP " + std::to_string(status()) +
                                                      ", not retried: status is not retryable"});
}

TEST_P(ClientError, MessageEchoingTheKeyIsSurfacedWithTheKeyRedacted) {
  const auto outcome = runner.run(
      {{{"status", status()}, {"error", {{"message", std::string("Rejected key ") + kKey}}}}});
  expect_well_formed(outcome);
  EXPECT_EQ(error_of(outcome).message, "Rejected key [redacted]");
}

INSTANTIATE_TEST_SUITE_P(Providers, ClientError,
                         ::testing::Combine(::testing::ValuesIn(kProviders),
                                            ::testing::Values(400, 401, 404)),
                         [](const auto& info) {
                           return provider_name(std::get<0>(info.param)) + "_" +
                                  std::to_string(std::get<1>(info.param));
                         });

// ---- depth limits without the network -----------------------------------------------------------

std::string nested_objects(std::size_t depth) {
  std::string text;
  text.reserve(depth * 6 + 1);
  for (std::size_t i = 0; i < depth; ++i) text += "{\"n\":";
  text += "0";
  text.append(depth, '}');
  return text;
}

TEST(DepthLimit, ParseJsonRefuses100000DeepWithANamedIssue) {
  const auto parsed = parse_json(nested_objects(100000));
  EXPECT_FALSE(parsed.value.has_value());
  ASSERT_EQ(parsed.issues.size(), 1u);
  EXPECT_EQ(parsed.issues[0].message, "Invalid JSON: nested deeper than 256 levels at byte 1280");
}

TEST(DepthLimit, ValidateRefusesA100000DeepValueBuiltByCode) {
  json value = 0;
  for (int i = 0; i < 100000; ++i) value = json{{"n", std::move(value)}};
  const Validator validator(examples::refund_schema());
  const Issues issues = validator.validate(value);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].code, IssueCode::invalid_json);
  EXPECT_TRUE(contains(issues[0].message, "nested deeper than")) << issues[0].message;
  // Destroying `value` at scope end must not recurse 100000 frames either.
}

TEST(DepthLimit, EveryProviderDecoderRefusesA100000DeepBody) {
  const std::string body = nested_objects(100000);
  for (const auto& name : kProviders) {
    SCOPED_TRACE(name);
    const auto provider = make_provider(name);
    for (const auto mode : {OutputMode::response_format, OutputMode::forced_tool}) {
      const Reply reply = provider->decode(HttpResponse{200, {}, body}, mode);
      EXPECT_EQ(reply.status, ReplyStatus::bad_reply);
      EXPECT_TRUE(contains(reply.detail, "nests deeper than 512 levels")) << reply.detail;
      const Reply error = provider->decode(HttpResponse{500, {}, body}, mode);
      EXPECT_EQ(error.status, ReplyStatus::http_error);
    }
  }
}

TEST(DepthLimit, RetryDecisionOnA100000DeepErrorBodyUsesNoStack) {
  const std::string body =
      "{\"error\":" + nested_objects(100000) + ",\"x\":\"insufficient_quota\"}";
  const auto decision = decide_retry(TransportResult{HttpResponse{429, {}, body}, {}, {}}, 0, {});
  EXPECT_TRUE(decision.retry);
}

}  // namespace
}  // namespace accord
