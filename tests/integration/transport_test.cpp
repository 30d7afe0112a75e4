#include "accord/transport.hpp"
#include "accord/redaction.hpp"

#include <gtest/gtest.h>

#include <string>

namespace accord {
namespace {

// --- helpers that need no network ----------------------------------------------------------

TEST(TransportFailureName, EachFailureHasItsName) {
  EXPECT_EQ(to_string(TransportFailure::connect), "connect");
  EXPECT_EQ(to_string(TransportFailure::timeout), "timeout");
  EXPECT_EQ(to_string(TransportFailure::dropped), "dropped");
  EXPECT_EQ(to_string(TransportFailure::too_large), "too_large");
  EXPECT_EQ(to_string(TransportFailure::tls), "tls");
  EXPECT_EQ(to_string(TransportFailure::other), "other");
}

TEST(HttpResponseHeader, LooksUpNamesCaseInsensitively) {
  const HttpResponse response{
      200, {{"retry-after", "2"}, {"content-type", "application/json"}}, ""};
  EXPECT_EQ(response.header("Retry-After"), "2");
  EXPECT_EQ(response.header("CONTENT-TYPE"), "application/json");
}

TEST(HttpResponseHeader, MissingHeaderIsEmpty) {
  const HttpResponse response{200, {{"retry-after", "2"}}, ""};
  EXPECT_FALSE(response.header("x-should-retry").has_value());
}

TEST(HttpResponseHeader, FirstOfRepeatedHeadersWins) {
  const HttpResponse response{200, {{"via", "a"}, {"via", "b"}}, ""};
  EXPECT_EQ(response.header("via"), "a");
}

TEST(RedactedHeaders, CredentialHeadersAreRedacted) {
  const Headers headers = {{"authorization", "Bearer sk-1"}, {"proxy-authorization", "Basic x"},
                           {"x-api-key", "sk-ant-1"},        {"api-key", "azure-1"},
                           {"cookie", "session=1"},          {"set-cookie", "session=2"}};
  for (const auto& [name, value] : redacted_headers(headers)) {
    EXPECT_EQ(value, "[redacted]") << name;
  }
}

TEST(RedactedHeaders, NamesMatchWhateverTheirCase) {
  const Headers redacted = redacted_headers({{"Authorization", "Bearer sk-1"}, {"X-Api-Key", "k"}});
  EXPECT_EQ(redacted[0].second, "[redacted]");
  EXPECT_EQ(redacted[1].second, "[redacted]");
}

TEST(RedactedHeaders, NamesContainingKeyTokenOrSecretAreRedacted) {
  const Headers redacted = redacted_headers({{"x-goog-api-key", "g"},
                                             {"X-Auth-Token", "t"},
                                             {"client-secret", "s"},
                                             {"OpenAI-Key", "o"}});
  for (const auto& [name, value] : redacted) EXPECT_EQ(value, "[redacted]") << name;
}

TEST(RedactedHeaders, OtherHeadersKeepTheirValuesAndOrder) {
  const Headers headers = {{"content-type", "application/json"},
                           {"authorization", "Bearer sk-1"},
                           {"anthropic-version", "2023-06-01"}};
  const Headers redacted = redacted_headers(headers);
  ASSERT_EQ(redacted.size(), 3u);
  EXPECT_EQ(redacted[0], headers[0]);
  EXPECT_EQ(redacted[1].first, "authorization");
  EXPECT_EQ(redacted[2], headers[2]);
}

}  // namespace
}  // namespace accord

#ifdef ACCORD_HAVE_HTTPLIB

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

namespace accord {
namespace {

using std::chrono::milliseconds;

// Loopback traffic must never go through a proxy picked up from the environment.
class LoopbackWithoutProxy : public testing::Environment {
 public:
  void SetUp() override {
    setenv("no_proxy", "127.0.0.1,localhost", 1);
    setenv("NO_PROXY", "127.0.0.1,localhost", 1);
  }
};
[[maybe_unused]] testing::Environment* const kLoopbackEnvironment =
    testing::AddGlobalTestEnvironment(new LoopbackWithoutProxy);

// A latch that slow handlers wait on, released when the test ends so no server thread lingers.
class Gate {
 public:
  void wait(milliseconds at_most) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, at_most, [&] { return open_; });
  }
  void open() {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = false;
};

// cpp-httplib on 127.0.0.1, a free port, serving on its own thread.
class LoopbackServer {
 public:
  explicit LoopbackServer(const std::function<void(httplib::Server&, Gate&)>& routes,
                          httplib::Server* server = nullptr)
      : owned_(server == nullptr ? std::make_unique<httplib::Server>() : nullptr),
        server_(server == nullptr ? *owned_ : *server) {
    server_.new_task_queue = [] { return new httplib::ThreadPool(16); };
    server_.set_tcp_nodelay(true);  // no Nagle delay between httplib's header and body writes
    routes(server_, gate_);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // stop() is a no-op before listening starts, so wait for it (the port already accepts).
    while (!server_.is_running()) std::this_thread::yield();
  }
  ~LoopbackServer() {
    gate_.open();
    server_.stop();
    thread_.join();
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] std::string url(const std::string& path, const std::string& scheme = "http") const {
    return scheme + "://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  std::unique_ptr<httplib::Server> owned_;
  httplib::Server& server_;
  Gate gate_;
  int port_ = 0;
  std::thread thread_;
};

int listening_socket(int& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return -1;
  socklen_t size = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  port = ntohs(address.sin_port);
  return fd;
}

// A port on 127.0.0.1 that nothing listens on.
int closed_port() {
  int port = 0;
  const int fd = listening_socket(port);
  ::close(fd);
  return port;
}

// A bare TCP listener for what a real HTTP server will not do: hang up without answering, or
// answer part of a body. `on_connection` gets each accepted socket and the request bytes read.
class RawListener {
 public:
  explicit RawListener(std::function<void(int, const std::string&)> on_connection)
      : on_connection_(std::move(on_connection)) {
    fd_ = listening_socket(port_);
    ::listen(fd_, 16);
    thread_ = std::thread([this] {
      for (;;) {
        const int client = ::accept(fd_, nullptr, nullptr);
        if (client < 0) return;  // shutdown() below ends the loop
        on_connection_(client, read_request(client));
        ::close(client);
      }
    });
  }
  ~RawListener() {
    ::shutdown(fd_, SHUT_RDWR);
    thread_.join();
    ::close(fd_);
  }
  [[nodiscard]] std::string url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/v1/messages";
  }

 private:
  // Reads until the test request's body marker, so closing does not reset unread data.
  static std::string read_request(int client) {
    std::string request;
    char buffer[4096];
    while (request.find("END-OF-BODY") == std::string::npos) {
      const ssize_t got = ::recv(client, buffer, sizeof buffer, 0);
      if (got <= 0) break;
      request.append(buffer, static_cast<size_t>(got));
    }
    return request;
  }
  std::function<void(int, const std::string&)> on_connection_;
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

HttpRequest post_to(const std::string& url, std::string body = R"({"ping": "END-OF-BODY"})") {
  return HttpRequest{url, {{"content-type", "application/json"}}, std::move(body)};
}

TransportOptions quick() {
  TransportOptions options;
  options.connect_timeout = milliseconds{2000};
  options.total_timeout = milliseconds{5000};
  return options;
}

void echo(httplib::Server& server, Gate&) {
  server.Post("/echo", [](const httplib::Request& request, httplib::Response& response) {
    response.set_content(request.body, "application/json");
  });
}

// --- CurlTransport against a real server --------------------------------------------------

TEST(CurlTransport, PostsTheBodyAndReturnsTheReply) {
  LoopbackServer server(echo);
  CurlTransport transport(quick());
  const TransportResult result = transport.post(post_to(server.url("/echo"), R"({"a": 1})"));
  ASSERT_TRUE(result.response.has_value()) << result.error->message;
  EXPECT_FALSE(result.error.has_value());
  EXPECT_EQ(result.response->status, 200);
  EXPECT_EQ(result.response->body, R"({"a": 1})");
}

TEST(CurlTransport, SendsTheMethodPostAndTheRequestHeaders) {
  std::string method;
  std::string custom;
  std::string content_type;
  LoopbackServer server([&](httplib::Server& s, Gate&) {
    s.Post("/h", [&](const httplib::Request& request, httplib::Response& response) {
      method = request.method;
      custom = request.get_header_value("X-Custom");
      content_type = request.get_header_value("Content-Type");
      response.set_content("{}", "application/json");
    });
  });
  CurlTransport transport(quick());
  HttpRequest request = post_to(server.url("/h"));
  request.headers.emplace_back("X-Custom", "hello there");
  ASSERT_TRUE(transport.post(request).response.has_value());
  EXPECT_EQ(method, "POST");
  EXPECT_EQ(custom, "hello there");
  EXPECT_EQ(content_type, "application/json");
}

TEST(CurlTransport, ResponseHeaderNamesAreLowerCased) {
  LoopbackServer server([](httplib::Server& s, Gate&) {
    s.Post("/h", [](const httplib::Request&, httplib::Response& response) {
      response.set_header("Retry-After", "2");
      response.set_header("X-Should-Retry", "true");
      response.set_content("{}", "application/json");
    });
  });
  CurlTransport transport(quick());
  const TransportResult result = transport.post(post_to(server.url("/h")));
  ASSERT_TRUE(result.response.has_value());
  bool saw_retry_after = false;
  for (const auto& [name, value] : result.response->headers) {
    EXPECT_TRUE(std::none_of(name.begin(), name.end(), [](char c) { return std::isupper(c); }))
        << name;
    if (name == "retry-after") saw_retry_after = value == "2";
  }
  EXPECT_TRUE(saw_retry_after);
  EXPECT_EQ(result.response->header("x-should-retry"), "true");
}

TEST(CurlTransport, ErrorStatusIsAResponseNotAFailure) {
  LoopbackServer server([](httplib::Server& s, Gate&) {
    s.Post("/e", [](const httplib::Request&, httplib::Response& response) {
      response.status = 503;
      response.set_content(R"({"error": {"type": "overloaded_error"}})", "application/json");
    });
  });
  CurlTransport transport(quick());
  const TransportResult result = transport.post(post_to(server.url("/e")));
  ASSERT_TRUE(result.response.has_value());
  EXPECT_EQ(result.response->status, 503);
  EXPECT_EQ(result.response->body, R"({"error": {"type": "overloaded_error"}})");
}

TEST(CurlTransport, SequentialPostsReuseOneConnection) {
  std::mutex mutex;
  std::vector<int> ports;
  LoopbackServer server([&](httplib::Server& s, Gate&) {
    s.Post("/k", [&](const httplib::Request& request, httplib::Response& response) {
      std::lock_guard lock(mutex);
      ports.push_back(request.remote_port);
      response.set_content("{}", "application/json");
    });
  });
  CurlTransport transport(quick());
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(transport.post(post_to(server.url("/k"))).response->status, 200);
  }
  ASSERT_EQ(ports.size(), 3u);
  EXPECT_EQ(ports[1], ports[0]);
  EXPECT_EQ(ports[2], ports[0]);
}

TEST(CurlTransport, EightThreadsPostAtOnce) {
  LoopbackServer server(echo);
  CurlTransport transport(quick());
  std::atomic<int> matched{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        const std::string body =
            "{\"thread\": " + std::to_string(t) + ", \"i\": " + std::to_string(i) + "}";
        const TransportResult result = transport.post(post_to(server.url("/echo"), body));
        if (result.response && result.response->status == 200 && result.response->body == body) {
          ++matched;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(matched.load(), 80);
}

TEST(CurlTransport, SlowReplyHitsTheTotalTimeout) {
  LoopbackServer server([](httplib::Server& s, Gate& gate) {
    s.Post("/slow", [&gate](const httplib::Request&, httplib::Response& response) {
      gate.wait(milliseconds{10'000});
      response.set_content("{}", "application/json");
    });
  });
  TransportOptions options = quick();
  options.total_timeout = milliseconds{300};
  CurlTransport transport(options);
  const TransportResult result = transport.post(post_to(server.url("/slow")));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::timeout) << result.error->message;
  EXPECT_GE(result.elapsed, milliseconds{250});
  EXPECT_LT(result.elapsed, milliseconds{5000});
}

TEST(CurlTransport, HeadersThenStallHitsTheTotalTimeout) {
  LoopbackServer server([](httplib::Server& s, Gate& gate) {
    s.Post("/stall", [&gate](const httplib::Request&, httplib::Response& response) {
      response.set_chunked_content_provider("application/json",
                                            [&gate](size_t offset, httplib::DataSink& sink) {
                                              if (offset == 0)
                                                return sink.write("{\"partial\": ", 12);
                                              gate.wait(milliseconds{10'000});
                                              return false;
                                            });
    });
  });
  TransportOptions options = quick();
  options.total_timeout = milliseconds{300};
  CurlTransport transport(options);
  const TransportResult result = transport.post(post_to(server.url("/stall")));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::timeout) << result.error->message;
  EXPECT_LT(result.elapsed, milliseconds{5000});
}

TEST(CurlTransport, ClosedPortIsAConnectFailure) {
  CurlTransport transport(quick());
  const std::string url = "http://127.0.0.1:" + std::to_string(closed_port()) + "/v1/messages";
  const TransportResult result = transport.post(post_to(url));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_FALSE(result.response.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::connect) << result.error->message;
}

TEST(CurlTransport, FailureMessageNamesTheOriginButNotThePath) {
  CurlTransport transport(quick());
  const std::string origin = "http://127.0.0.1:" + std::to_string(closed_port());
  const TransportResult result = transport.post(post_to(origin + "/v1/secret-path?x=1"));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_NE(result.error->message.find(origin), std::string::npos) << result.error->message;
  EXPECT_EQ(result.error->message.find("secret-path"), std::string::npos) << result.error->message;
}

TEST(CurlTransport, BodyOverTheCapIsTooLarge) {
  LoopbackServer server([](httplib::Server& s, Gate&) {
    s.Post("/big", [](const httplib::Request&, httplib::Response& response) {
      response.set_content(std::string(2 * 1024 * 1024, 'x'), "application/json");
    });
  });
  TransportOptions options = quick();
  options.max_response_bytes = 1024 * 1024;
  CurlTransport transport(options);
  const TransportResult result = transport.post(post_to(server.url("/big")));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::too_large) << result.error->message;
}

TEST(CurlTransport, ChunkedBodyOverTheCapIsTooLarge) {
  // No Content-Length: the cap must be enforced while the body streams in.
  LoopbackServer server([](httplib::Server& s, Gate&) {
    s.Post("/big", [](const httplib::Request&, httplib::Response& response) {
      response.set_chunked_content_provider("application/json",
                                            [](size_t offset, httplib::DataSink& sink) {
                                              if (offset >= 4 * 1024 * 1024) {
                                                sink.done();
                                                return true;
                                              }
                                              const std::string chunk(64 * 1024, 'x');
                                              return sink.write(chunk.data(), chunk.size());
                                            });
    });
  });
  TransportOptions options = quick();
  options.max_response_bytes = 1024 * 1024;
  CurlTransport transport(options);
  const TransportResult result = transport.post(post_to(server.url("/big")));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::too_large) << result.error->message;
}

TEST(CurlTransport, BodyExactlyAtTheCapIsAccepted) {
  LoopbackServer server([](httplib::Server& s, Gate&) {
    s.Post("/cap", [](const httplib::Request&, httplib::Response& response) {
      response.set_content(std::string(4096, 'x'), "application/json");
    });
  });
  TransportOptions options = quick();
  options.max_response_bytes = 4096;
  CurlTransport transport(options);
  const TransportResult result = transport.post(post_to(server.url("/cap")));
  ASSERT_TRUE(result.response.has_value()) << result.error->message;
  EXPECT_EQ(result.response->body.size(), 4096u);
}

TEST(CurlTransport, HangUpWithoutAnswerIsDropped) {
  RawListener listener([](int, const std::string&) {});
  CurlTransport transport(quick());
  const TransportResult result = transport.post(post_to(listener.url()));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::dropped) << result.error->message;
}

TEST(CurlTransport, HangUpMidBodyIsDropped) {
  RawListener listener([](int client, const std::string&) {
    const std::string partial =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":";
    (void)::send(client, partial.data(), partial.size(), MSG_NOSIGNAL);
  });
  CurlTransport transport(quick());
  const TransportResult result = transport.post(post_to(listener.url()));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::dropped) << result.error->message;
}

TEST(CurlTransport, TlsHandshakeWithAPlainHttpServerIsATlsFailure) {
  LoopbackServer server(echo);
  CurlTransport transport(quick());
  const TransportResult result = transport.post(post_to(server.url("/echo", "https")));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::tls) << result.error->message;
}

TEST(CurlTransport, MeasuresElapsedTime) {
  LoopbackServer server([](httplib::Server& s, Gate& gate) {
    s.Post("/slow", [&gate](const httplib::Request&, httplib::Response& response) {
      gate.wait(milliseconds{100});  // nobody opens it: the handler takes 100 ms
      response.set_content("{}", "application/json");
    });
  });
  CurlTransport transport(quick());
  const TransportResult result = transport.post(post_to(server.url("/slow")));
  ASSERT_TRUE(result.response.has_value());
  EXPECT_GE(result.elapsed, milliseconds{90});
}

TEST(CurlTransport, HonoursTheHttpProxyVariable) {
  std::string seen_target;
  LoopbackServer proxy([&](httplib::Server& s, Gate&) {
    // A proxy receives the absolute URL; httplib routes on whatever follows the method.
    s.Post(".*", [&](const httplib::Request& request, httplib::Response& response) {
      seen_target = request.target;
      response.set_content("{}", "application/json");
    });
  });
  const std::string proxy_url = "http://127.0.0.1:" + std::to_string(proxy.port());
  setenv("http_proxy", proxy_url.c_str(), 1);
  CurlTransport transport(quick());
  const TransportResult result = transport.post(post_to("http://provider.invalid/v1/messages"));
  unsetenv("http_proxy");
  ASSERT_TRUE(result.response.has_value()) << result.error->message;
  EXPECT_EQ(result.response->status, 200);
  EXPECT_EQ(seen_target, "http://provider.invalid/v1/messages");
}

// --- credentials never leak into error messages -------------------------------------------

constexpr const char* kSentinel = "sk-SENTINEL-0123456789abcdef";

HttpRequest with_credentials(const std::string& url) {
  HttpRequest request = post_to(url);
  request.headers.emplace_back("Authorization", std::string("Bearer ") + kSentinel);
  request.headers.emplace_back("x-api-key", kSentinel);
  request.headers.emplace_back("api-key", kSentinel);
  return request;
}

TEST(CurlTransportSecrets, ConnectFailureMessageHoldsNoKey) {
  CurlTransport transport(quick());
  const std::string host = "127.0.0.1:" + std::to_string(closed_port());
  const TransportResult result = transport.post(with_credentials(
      "http://user:" + std::string(kSentinel) + "@" + host + "/v1?key=" + kSentinel));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->message.find("SENTINEL"), std::string::npos) << result.error->message;
}

TEST(CurlTransportSecrets, TimeoutMessageHoldsNoKey) {
  LoopbackServer server([](httplib::Server& s, Gate& gate) {
    s.Post("/slow", [&gate](const httplib::Request&, httplib::Response&) {
      gate.wait(milliseconds{10'000});
    });
  });
  TransportOptions options = quick();
  options.total_timeout = milliseconds{200};
  CurlTransport transport(options);
  const TransportResult result =
      transport.post(with_credentials(server.url("/slow?api_key=") + kSentinel));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->message.find("SENTINEL"), std::string::npos) << result.error->message;
}

TEST(CurlTransportSecrets, TooLargeMessageHoldsNoKey) {
  LoopbackServer server([](httplib::Server& s, Gate&) {
    s.Post("/big", [](const httplib::Request& request, httplib::Response& response) {
      // Echo the key back, as a hostile or careless server might.
      response.set_content(request.get_header_value("x-api-key") + std::string(8192, 'x'),
                           "text/plain");
    });
  });
  TransportOptions options = quick();
  options.max_response_bytes = 1024;
  CurlTransport transport(options);
  const TransportResult result = transport.post(with_credentials(server.url("/big")));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->message.find("SENTINEL"), std::string::npos) << result.error->message;
}

TEST(CurlTransportSecrets, DroppedMessageHoldsNoKey) {
  RawListener listener([](int, const std::string&) {});
  CurlTransport transport(quick());
  const TransportResult result = transport.post(with_credentials(listener.url()));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->message.find("SENTINEL"), std::string::npos) << result.error->message;
}

// --- TLS verification ---------------------------------------------------------------------

// A self-signed certificate for 127.0.0.1 made with the openssl command, or nothing.
struct SelfSigned {
  std::filesystem::path dir;
  std::string cert;
  std::string key;
};

std::optional<SelfSigned> make_self_signed(const std::string& subject_alt_name) {
  SelfSigned out;
  out.dir = std::filesystem::temp_directory_path() /
            ("accord-tls-" + std::to_string(::getpid()) + "-" +
             std::to_string(std::hash<std::string>{}(subject_alt_name)));
  std::filesystem::create_directories(out.dir);
  out.cert = (out.dir / "cert.pem").string();
  out.key = (out.dir / "key.pem").string();
  const std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=accord-test -addext "
      "subjectAltName=" +
      subject_alt_name + " -keyout " + out.key + " -out " + out.cert + " >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) return std::nullopt;
  return out;
}

class TlsServer : public testing::Test {
 protected:
  // False when no certificate could be made; the test then skips.
  bool start(const std::string& subject_alt_name) {
    cert_ = make_self_signed(subject_alt_name);
    if (!cert_) return false;
    ssl_server_ = std::make_unique<httplib::SSLServer>(cert_->cert.c_str(), cert_->key.c_str());
    server_ = std::make_unique<LoopbackServer>(echo, ssl_server_.get());
    return true;
  }
  void TearDown() override {
    server_.reset();
    ssl_server_.reset();
    if (cert_) std::filesystem::remove_all(cert_->dir);
  }
  std::string url() const { return server_->url("/echo", "https"); }
  std::optional<SelfSigned> cert_;
  std::unique_ptr<httplib::SSLServer> ssl_server_;
  std::unique_ptr<LoopbackServer> server_;
};

TEST_F(TlsServer, UnknownCertificateIsRejectedByDefault) {
  if (!start("IP:127.0.0.1")) GTEST_SKIP() << "needs the openssl command";
  CurlTransport transport(quick());
  const TransportResult result = transport.post(post_to(url()));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::tls) << result.error->message;
}

TEST_F(TlsServer, CaBundleOptionTrustsTheGivenCertificate) {
  if (!start("IP:127.0.0.1")) GTEST_SKIP() << "needs the openssl command";
  TransportOptions options = quick();
  options.ca_bundle = cert_->cert;
  CurlTransport transport(options);
  const TransportResult result = transport.post(post_to(url(), R"({"tls": true})"));
  ASSERT_TRUE(result.response.has_value()) << result.error->message;
  EXPECT_EQ(result.response->body, R"({"tls": true})");
}

TEST_F(TlsServer, HostNameMismatchIsRejectedEvenWithTheCaBundle) {
  if (!start("DNS:somewhere-else.example")) GTEST_SKIP() << "needs the openssl command";
  TransportOptions options = quick();
  options.ca_bundle = cert_->cert;
  CurlTransport transport(options);
  const TransportResult result = transport.post(post_to(url()));
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->failure, TransportFailure::tls) << result.error->message;
}

TEST_F(TlsServer, InsecureOptionSkipsVerification) {
  if (!start("DNS:somewhere-else.example")) GTEST_SKIP() << "needs the openssl command";
  TransportOptions options = quick();
  options.insecure_skip_tls_verification = true;
  CurlTransport transport(options);
  const TransportResult result = transport.post(post_to(url()));
  ASSERT_TRUE(result.response.has_value()) << result.error->message;
  EXPECT_EQ(result.response->status, 200);
}

}  // namespace
}  // namespace accord

#endif  // ACCORD_HAVE_HTTPLIB
