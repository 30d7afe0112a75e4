// API keys never leave the process in anything accord writes: Traces (JSON and text), Error
// messages, ExtractError::what(), transport messages, or accord-mock's log; for success and for
// every failure kind. And TLS is verified unless a loudly named option says otherwise.
#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>

#include "accord/client.hpp"
#include "accord/providers/provider.hpp"
#include "accord/redaction.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "fixtures/scoped_env.hpp"
#include "fixtures/sentinel_key.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

using sentinel::kKey;
constexpr const char* kMarker = "SENTINEL-9f8e";

using namespace testing_documents;

using sentinel::kProviders;

using sentinel::contains;

// Everything an extraction left behind that a user might log.
std::string everything_written(const Result<json>& result) {
  std::string out = result.trace().to_json().dump() + "\n" + result.trace().to_text();
  if (!result.ok()) {
    out += "\n" + result.error().message;
    out += "\n" + std::string(ExtractError(result.error()).what());
  }
  return out;
}

enum class KeySource { option, environment };

class Secrets : public ::testing::TestWithParam<std::tuple<std::string, KeySource>> {
 protected:
  const std::string& provider() const { return std::get<0>(GetParam()); }

  Result<json> run(const std::vector<json>& replies, const std::string& base_url_override = "",
                   milliseconds total_timeout = milliseconds(10'000)) {
    // A scenario needs a reply even when the client is pointed elsewhere.
    mock_ = std::make_unique<MockProcess>(json{
        {"replies", replies.empty()
                        ? std::vector<json>{{{"json", kValidRefund}}}
                        : replies}}.dump());
    ClientOptions options{
        .provider = provider(),
        .model = "test-model",
        .base_url = base_url_override.empty() ? mock_->base_url() : base_url_override,
        .retry = {.max_retries = 1, .initial_backoff = milliseconds(5)}};
    options.transport.total_timeout = total_timeout;
    std::optional<ScopedEnv> env;
    if (std::get<1>(GetParam()) == KeySource::option) {
      options.api_key = kKey;
    } else {
      env.emplace(std::string(make_provider(provider())->api_key_env()), kKey);
    }
    const Client client(options);
    return client.extract({.schema = examples::refund_schema(),
                           .prompt = "Extract the refund.",
                           .name = "refund",
                           .corrections = 1});
  }

  // The header the provider's encoder puts the key in (lower-cased, as the mock logs it): asked of
  // the provider, so a new one needs no entry here.
  [[nodiscard]] std::string header_carrying_the_key() const {
    CallSpec call{.base_url = "http://127.0.0.1/v1", .api_key = kKey, .model = "test-model"};
    call.turns.push_back(Turn{.role = Turn::Role::user, .text = "Extract the refund."});
    for (auto [name, value] : make_provider(provider())->encode(call).headers) {
      if (!contains(value, kKey)) continue;
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      return name;
    }
    return "";
  }

  // The key was really sent (so its absence elsewhere means something) and never logged.
  void expect_sent_but_never_logged() {
    const json requests = mock_->requests();
    ASSERT_FALSE(requests.empty());
    const json& headers = requests[0]["headers"];
    const std::string key_header = header_carrying_the_key();
    ASSERT_FALSE(key_header.empty()) << provider() << " sends the key in no header";
    EXPECT_EQ(headers.value(key_header, ""), "[redacted]") << headers.dump();
    mock_.reset();  // flushes and closes the log; MockProcess keeps the file until destruction
  }

  void expect_clean(const Result<json>& result) {
    const std::string written = everything_written(result);
    EXPECT_FALSE(contains(written, kMarker)) << written;
    if (mock_) {
      EXPECT_FALSE(contains(mock_->log_text(), kMarker)) << mock_->log_text();
      EXPECT_FALSE(contains(mock_->requests().dump(), kMarker));
    }
  }

  std::unique_ptr<MockProcess> mock_;
};

TEST_P(Secrets, SuccessWritesNoKey) {
  const auto result = run({{{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  expect_clean(result);
  expect_sent_but_never_logged();
}

TEST_P(Secrets, RefusalWritesNoKey) {
  if (!make_provider(provider())->schema_capabilities().signals_refusal) {
    GTEST_SKIP() << provider() << " has no refusal signal";
  }
  const auto result = run({{{"refusal", "I can't help with that."}}});
  ASSERT_EQ(result.error().kind, ErrorKind::refused);
  expect_clean(result);
}

TEST_P(Secrets, TruncationWritesNoKey) {
  const auto result = run({{{"truncated", R"({"orderId":"ORD-4)"}}});
  ASSERT_EQ(result.error().kind, ErrorKind::truncated);
  expect_clean(result);
}

TEST_P(Secrets, ContentFilterWritesNoKey) {
  const auto result = run({{{"content_filter", true}}});
  ASSERT_FALSE(result.ok());
  expect_clean(result);
}

TEST_P(Secrets, InvalidAfterRetriesWritesNoKey) {
  const auto result = run({{{"json", {{"orderId", "nope"}}}}});
  ASSERT_EQ(result.error().kind, ErrorKind::invalid_after_retries);
  expect_clean(result);
}

TEST_P(Secrets, UnauthorizedEchoingTheKeyInItsErrorMessageWritesNoKey) {
  const auto result =
      run({{{"status", 401},
            {"error", {{"message", std::string("Incorrect API key provided: ") + kKey}}}}});
  ASSERT_EQ(result.error().kind, ErrorKind::http);
  EXPECT_EQ(result.error().message, "Incorrect API key provided: [redacted]");
  expect_clean(result);
}

TEST_P(Secrets, UnauthorizedEchoingTheKeyInAPlainTextBodyWritesNoKey) {
  const auto result = run({{{"status", 401},
                            {"content_type", "text/plain"},
                            {"body", std::string("bad key ") + kKey}}});
  ASSERT_EQ(result.error().kind, ErrorKind::http);
  expect_clean(result);
}

TEST_P(Secrets, BadReplyEchoingTheKeyWritesNoKey) {
  const auto result = run({{{"status", 200}, {"body", std::string("not json ") + kKey}}});
  ASSERT_EQ(result.error().kind, ErrorKind::bad_reply);
  expect_clean(result);
}

TEST_P(Secrets, ModelOutputEchoingTheKeyWritesNoKey) {
  // A hostile server puts the key into the model's output: as a value and as an unknown field,
  // so it lands in the content, an issue's path, the error message and the corrective request.
  json echoed = kValidRefund;
  echoed["note"] = std::string("key: ") + kKey;
  echoed[kKey] = true;
  const auto result = run({{{"json", echoed}}});
  ASSERT_EQ(result.error().kind, ErrorKind::invalid_after_retries);
  const std::string written = everything_written(result);
  EXPECT_FALSE(contains(written, kMarker)) << written;
}

TEST_P(Secrets, ConnectionRefusedWritesNoKey) {
  const auto result = run({}, "http://127.0.0.1:9/v1");
  ASSERT_EQ(result.error().kind, ErrorKind::transport);
  expect_clean(result);
}

TEST_P(Secrets, TimeoutWritesNoKey) {
  const auto result = run({{{"json", kValidRefund}, {"delay_ms", 3000}}}, "", milliseconds(300));
  ASSERT_EQ(result.error().kind, ErrorKind::transport);
  expect_clean(result);
}

TEST_P(Secrets, DroppedConnectionWritesNoKey) {
  const auto result = run({{{"json", kValidRefund}, {"partial_body", true}}});
  ASSERT_EQ(result.error().kind, ErrorKind::transport);
  expect_clean(result);
}

TEST_P(Secrets, OversizedBodyWritesNoKey) {
  const auto result = run({{{"json", kValidRefund}, {"pad_bytes", 20 * 1024 * 1024}}});
  ASSERT_EQ(result.error().kind, ErrorKind::transport);
  expect_clean(result);
}

TEST_P(Secrets, ExtractOrThrowCarriesNoKey) {
  mock_ = std::make_unique<MockProcess>(json{{"replies", {{{"status", 401}}}}}.dump());
  std::optional<ScopedEnv> env;
  ClientOptions options{.provider = provider(), .base_url = mock_->base_url()};
  if (std::get<1>(GetParam()) == KeySource::option) {
    options.api_key = kKey;
  } else {
    env.emplace(std::string(make_provider(provider())->api_key_env()), kKey);
  }
  const Client client(options);
  try {
    (void)client.extract_or_throw({.schema = examples::refund_schema(), .prompt = "x"});
    FAIL() << "a 401 did not throw";
  } catch (const ExtractError& error) {
    EXPECT_FALSE(contains(error.what(), kMarker)) << error.what();
    EXPECT_FALSE(contains(error.error().trace.to_json().dump(), kMarker));
  }
}

INSTANTIATE_TEST_SUITE_P(Providers, Secrets,
                         ::testing::Combine(::testing::ValuesIn(kProviders),
                                            ::testing::Values(KeySource::option,
                                                              KeySource::environment)),
                         [](const auto& info) {
                           std::string name = std::get<0>(info.param);
                           std::erase(name, '-');
                           return name + (std::get<1>(info.param) == KeySource::option ? "_option"
                                                                                       : "_env");
                         });

TEST(TransportSecrets, CurlErrorMessagesCarryNoKeyFromHeadersOrUrl) {
  CurlTransport transport(
      {.connect_timeout = milliseconds(2000), .total_timeout = milliseconds(2000)});
  const HttpRequest request{"http://user:" + std::string(kKey) + "@127.0.0.1:9/v1?key=" + kKey,
                            {{"authorization", std::string("Bearer ") + kKey}, {"x-api-key", kKey}},
                            "{}"};
  const TransportResult result = transport.post(request);
  ASSERT_TRUE(result.error.has_value());
  EXPECT_FALSE(contains(result.error->message, kMarker)) << result.error->message;
}

TEST(TransportSecrets, RedactedHeadersHideEveryCredentialHeader) {
  const Headers headers = redacted_headers({{"Authorization", std::string("Bearer ") + kKey},
                                            {"x-api-key", kKey},
                                            {"x-goog-api-key", kKey},
                                            {"api-key", kKey},
                                            {"content-type", "application/json"}});
  for (const auto& [name, value] : headers) EXPECT_FALSE(contains(value, kMarker)) << name;
  EXPECT_EQ(headers.back().second, "application/json");
}

// ---- TLS through the Client ------------------------------------------------------------------

TEST(ClientTls, VerificationIsOnByDefault) {
  const ClientOptions defaults;
  EXPECT_FALSE(defaults.transport.insecure_skip_tls_verification);
  EXPECT_TRUE(defaults.transport.ca_bundle.empty());
}

// A self-signed certificate for 127.0.0.1 made with the openssl command, or nothing.
std::optional<std::filesystem::path> make_certificate() {
  const auto dir =
      std::filesystem::temp_directory_path() / ("accord-secrets-tls-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=accord-test -addext "
      "subjectAltName=IP:127.0.0.1 -keyout " +
      (dir / "key.pem").string() + " -out " + (dir / "cert.pem").string() + " >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) return std::nullopt;
  return dir;
}

// An HTTPS stand-in answering every Chat Completions call with a valid refund.
class TlsProvider : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_certificate();
    if (!dir_) GTEST_SKIP() << "needs the openssl command";
    server_ = std::make_unique<httplib::SSLServer>((*dir_ / "cert.pem").c_str(),
                                                   (*dir_ / "key.pem").c_str());
    server_->Post("/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
      const json body = {
          {"id", "chatcmpl-1"},
          {"object", "chat.completion"},
          {"choices",
           {{{"index", 0},
             {"message", {{"role", "assistant"}, {"content", kValidRefund.dump()}}},
             {"finish_reason", "stop"}}}},
          {"usage", {{"prompt_tokens", 1}, {"completion_tokens", 1}, {"total_tokens", 2}}}};
      res.set_content(body.dump(), "application/json");
    });
    port_ = server_->bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    // stop() is a no-op before listening starts, so wait for it (the port already accepts).
    while (!server_->is_running()) std::this_thread::yield();
  }
  void TearDown() override {
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
    if (dir_) std::filesystem::remove_all(*dir_);
  }

  Result<json> extract(TransportOptions transport) const {
    ClientOptions options{.provider = "openai-chat",
                          .base_url = "https://127.0.0.1:" + std::to_string(port_) + "/v1",
                          .api_key = kKey,
                          .retry = {.max_retries = 1, .initial_backoff = milliseconds(5)},
                          .transport = transport};
    return Client(options).extract({.schema = examples::refund_schema(), .prompt = "x"});
  }

  std::optional<std::filesystem::path> dir_;
  std::unique_ptr<httplib::SSLServer> server_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(TlsProvider, UnknownCertificateIsATransportErrorByDefault) {
  const auto result = extract({});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::transport);
  EXPECT_TRUE(result.error().message.rfind("tls: ", 0) == 0) << result.error().message;
  // A certificate problem is not retried: it will not fix itself.
  EXPECT_EQ(result.trace().attempts.at(0).transport_log.size(), 1u);
  EXPECT_FALSE(contains(everything_written(result), kMarker));
}

TEST_F(TlsProvider, CaBundleOptionTrustsAPrivateAuthority) {
  const auto result = extract({.ca_bundle = (*dir_ / "cert.pem").string()});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
}

}  // namespace
}  // namespace accord
