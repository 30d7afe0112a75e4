// accord-mock: a scripted stand-in for the OpenAI and Anthropic HTTP APIs, for tests and demos.
// Usage and the scenario format: mock_server/README.md.

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "azure_shape.hpp"
#include "batches.hpp"
#include "bedrock_shape.hpp"
#include "converse_output.hpp"
#include "gemini_batches.hpp"
#include "gemini_shape.hpp"
#include "growing_pool.hpp"
#include "parameters.hpp"
#include "prompt_cache.hpp"
#include "quiet_keep_alive.hpp"
#include "render.hpp"
#include "request_log.hpp"
#include "request_shaping.hpp"
#include "scenario.hpp"
#include "stream.hpp"

namespace {

using nlohmann::json;
using namespace accord_mock;

// Connections served at once: like a real API, thousands of idle keep-alive clients are held.
constexpr std::size_t kMaxConnections = 8192;

constexpr const char* kUsage =
    "usage: accord-mock [--host 127.0.0.1] [--port 0] [--scenario FILE | --scenario-json JSON]\n"
    "                   [--log FILE] [--keep-requests N]\n";

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;
  std::string scenario_file;
  std::string scenario_json;
  std::string log_path;
  std::size_t keep_requests = kDefaultKeptRequests;
};

bool parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    }
    if (i + 1 >= argc) {
      std::cerr << "accord-mock: " << arg << " needs a value (or is unknown)\n" << kUsage;
      return false;
    }
    const std::string value = argv[++i];
    if (arg == "--host") {
      options.host = value;
    } else if (arg == "--port") {
      char* end = nullptr;
      const long port = std::strtol(value.c_str(), &end, 10);
      if (*end != '\0' || port < 0 || port > 65535) {
        std::cerr << "accord-mock: bad --port " << value << "\n";
        return false;
      }
      options.port = static_cast<int>(port);
    } else if (arg == "--scenario") {
      options.scenario_file = value;
    } else if (arg == "--scenario-json") {
      options.scenario_json = value;
    } else if (arg == "--log") {
      options.log_path = value;
    } else if (arg == "--keep-requests") {
      char* end = nullptr;
      errno = 0;
      const unsigned long long keep = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || value[0] == '-' || *end != '\0' || errno != 0) {
        std::cerr << "accord-mock: bad --keep-requests " << value << "\n";
        return false;
      }
      options.keep_requests = static_cast<std::size_t>(keep);
    } else {
      std::cerr << "accord-mock: unknown option " << arg << "\n" << kUsage;
      return false;
    }
  }
  if (!options.scenario_file.empty() && !options.scenario_json.empty()) {
    std::cerr << "accord-mock: give --scenario or --scenario-json, not both\n";
    return false;
  }
  return true;
}

Scenario load_scenario(const Options& options) {
  if (!options.scenario_json.empty()) return parse_scenario(json::parse(options.scenario_json));
  if (!options.scenario_file.empty()) {
    std::ifstream in(options.scenario_file);
    if (!in) throw std::runtime_error("cannot read scenario file " + options.scenario_file);
    return parse_scenario(json::parse(in));
  }
  return default_scenario();
}

// Waits that end early when the server shuts down, so a stalled reply never delays exit.
class Shutdown {
 public:
  // False when shutdown began before the wait ran out.
  bool sleep_for(std::chrono::milliseconds duration) {
    std::unique_lock lock(mutex_);
    return !cv_.wait_for(lock, duration, [&] { return stopping_; });
  }
  void begin() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_all();
  }
  bool stopping() {
    std::lock_guard lock(mutex_);
    return stopping_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stopping_ = false;
};

int port_of(const sockaddr_storage& address) {
  if (address.ss_family == AF_INET)
    return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
  if (address.ss_family == AF_INET6)
    return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
  return -1;
}

// Calls `action` with each open TCP socket of this process whose local port is `local_port` and,
// when `remote_port` >= 0, whose peer port is `remote_port`. httplib hides the accepted socket
// from handlers, so this is how a handler finds its own connection (unique by its port pair).
template <typename Action>
void for_each_connection(int local_port, int remote_port, Action action) {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return;
  while (const dirent* entry = readdir(dir)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (*end != '\0' || fd == dirfd(dir)) continue;
    struct stat st {};
    if (fstat(static_cast<int>(fd), &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
    sockaddr_storage local{}, peer{};
    socklen_t local_len = sizeof local, peer_len = sizeof peer;
    if (getsockname(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&local), &local_len) != 0 ||
        getpeername(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0)
      continue;  // the listening socket has no peer
    if (port_of(local) != local_port) continue;
    if (remote_port >= 0 && port_of(peer) != remote_port) continue;
    action(static_cast<int>(fd));
  }
  closedir(dir);
}

// Ends the connection without a byte of response: the peer sees a clean EOF. shutdown() rather
// than close(), because httplib still owns the descriptor and will close it itself.
bool drop_connection(const httplib::Request& req) {
  bool found = false;
  for_each_connection(req.local_port, req.remote_port, [&](int fd) {
    ::shutdown(fd, SHUT_RDWR);
    found = true;
  });
  return found;
}

class MockServer {
 public:
  MockServer(Scenario scenario, const Options& options)
      : queue_(std::move(scenario)),
        log_(options.log_path, options.keep_requests),
        batches_(queue_, [this] { return ++serial_; }),
        gemini_batches_(queue_, [this] { return ++serial_; }) {}

  httplib::Server& server() { return server_; }
  // Call after bind: a backlog of 5 drops the SYNs of a burst of new connections, and each drop
  // costs the client a 1 s retransmission.
  void widen_accept_backlog() const {
    if (listening_socket_ != -1) ::listen(listening_socket_, SOMAXCONN);
  }
  Shutdown& shutdown() { return shutdown_; }

  void install_routes() {
    // One worker per open connection (httplib serves a kept-alive connection on one thread);
    // idle keep-alive connections must not make new callers wait.
    server_.new_task_queue = [] { return new GrowingPool(kMaxConnections); };
    // httplib passes the listening socket through here before bind(); it is kept so main() can
    // raise the accept backlog that Debian's compiled httplib fixes at 5.
    server_.set_socket_options([this](int sock) {
      httplib::default_socket_options(sock);
      listening_socket_ = sock;
    });
    server_.set_payload_max_length(256u * 1024u * 1024u);
    server_.set_keep_alive_timeout(5);
    server_.set_keep_alive_max_count(1000);  // like a real API: reuse is the client's choice
    // Without it a reply written in two segments waits for the client's delayed ACK (~40 ms),
    // which the loop benchmark would measure instead of the library.
    server_.set_tcp_nodelay(true);

    server_.Get("/_accord/health", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"status":"ok"})", "application/json");
    });
    server_.Get("/_accord/requests", [this](const httplib::Request&, httplib::Response& res) {
      // How many arrived, so a client can tell the list lost its oldest (--keep-requests).
      const auto log = log_.snapshot();
      res.set_header("Accord-Requests-Received", std::to_string(log.received));
      res.set_content(to_json_line(log.entries), "application/json");
    });
    server_.Delete("/_accord/requests", [this](const httplib::Request&, httplib::Response& res) {
      log_.clear();
      res.set_content("{}", "application/json");
    });
    server_.Post("/_accord/scenario", [this](const httplib::Request& req, httplib::Response& res) {
      try {
        auto scenario = parse_scenario(json::parse(req.body));
        const auto count = scenario.replies.size();
        queue_.replace(std::move(scenario));
        res.set_content(json{{"replies", count}}.dump(), "application/json");
      } catch (const std::exception& e) {
        res.status = 400;
        res.set_content(to_json_line(json{{"error", e.what()}}), "application/json");
      }
    });

    server_.Post("/v1/chat/completions",
                 [this](const httplib::Request& req, httplib::Response& res) {
                   serve(Endpoint::chat_completions, req, res);
                 });
    server_.Post("/v1/responses", [this](const httplib::Request& req, httplib::Response& res) {
      serve(Endpoint::responses, req, res);
    });
    server_.Post("/v1/messages", [this](const httplib::Request& req, httplib::Response& res) {
      serve(Endpoint::messages, req, res);
    });
    server_.Post(kGeminiRoute, [this](const httplib::Request& req, httplib::Response& res) {
      serve(Endpoint::gemini, req, res, req.matches[2] == "streamGenerateContent");
    });
    server_.Post(kConverseRoute, [this](const httplib::Request& req, httplib::Response& res) {
      serve(Endpoint::converse, req, res);
    });
    server_.Post(kConverseStreamRoute, [this](const httplib::Request& req, httplib::Response& res) {
      serve(Endpoint::converse, req, res, true);
    });
    server_.Post("/api/chat", [this](const httplib::Request& req, httplib::Response& res) {
      serve(Endpoint::ollama_chat, req, res);
    });

    install_azure_routes();
    install_batch_routes();

    // Everything else is a 404 in OpenAI's envelope. Catch-all routes rather than an error
    // handler, because httplib's error handler would also rewrite the scripted error replies.
    const auto not_found = [this](const httplib::Request& req, httplib::Response& res) {
      record(req);
      send(render_not_found(req.method, req.path, ++serial_), res);
    };
    server_.Get(".*", not_found);
    server_.Post(".*", not_found);
    server_.Put(".*", not_found);
    server_.Patch(".*", not_found);
    server_.Delete(".*", not_found);
    server_.Options(".*", not_found);
  }

 private:
  // Azure OpenAI's deployment URLs and /openai/responses (api-version required) and its
  // /openai/v1 surface; also under /v1, so the one base URL tests give every provider reaches them.
  void install_azure_routes() {
    const auto azure = [this](bool deployment_url,
                              Endpoint endpoint = Endpoint::azure_chat_completions) {
      return [this, deployment_url, endpoint](const httplib::Request& req, httplib::Response& res) {
        const bool credential = req.has_header("api-key") || req.has_header("Authorization");
        if (const auto refused = azure_refusal(deployment_url, req.has_param("api-version"),
                                               credential, ++serial_)) {
          record(req);
          send(*refused, res);
          return;
        }
        serve(endpoint, req, res);
      };
    };
    server_.Post(R"((?:/v1)?/openai/deployments/[^/]+/chat/completions)", azure(true));
    server_.Post(R"((?:/v1)?/openai/v1/chat/completions)", azure(false));
    // The Responses API: the deployment is the body's model, the api-version on the URL.
    server_.Post(R"((?:/v1)?/openai/responses)", azure(true, Endpoint::responses));
    server_.Post(R"((?:/v1)?/openai/v1/responses)", azure(false, Endpoint::responses));
  }

  // Azure's Batch API: OpenAI's under the resource's /openai (an api-version required) or
  // /openai/v1 (none), also under /v1 as install_azure_routes' are.
  template <class Upload>
  void install_azure_batch_routes(const Upload& upload) {
    const auto azure = [this](auto action) {
      return [this, action](const httplib::Request& req, httplib::Response& res) {
        record(req);
        const bool credential = req.has_header("api-key") || req.has_header("Authorization");
        const bool deployment_url = req.matches[1].length() == 0;  // no inner /v1
        if (const auto refused = azure_refusal(deployment_url, req.has_param("api-version"),
                                               credential, ++serial_)) {
          send(*refused, res);
          return;
        }
        send(action(req), res);
      };
    };
    constexpr const char* kRoot = R"((?:/v1)?/openai(/v1)?)";
    server_.Post(std::string(kRoot) + "/files", azure(upload));
    server_.Get(std::string(kRoot) + "/files/([^/]+)/content",
                azure([this](const httplib::Request& req) {
                  return batches_.file_content(req.matches[2]);
                }));
    server_.Post(std::string(kRoot) + "/batches", azure([this](const httplib::Request& req) {
                   return batches_.create_openai(req.body, true);
                 }));
    server_.Get(std::string(kRoot) + "/batches/([^/]+)", azure([this](const httplib::Request& req) {
                  return batches_.retrieve_openai(req.matches[2]);
                }));
    server_.Post(std::string(kRoot) + "/batches/([^/]+)/cancel",
                 azure([this](const httplib::Request& req) {
                   return batches_.cancel_openai(req.matches[2]);
                 }));
  }

  // The batch protocols (mock_server/batches.hpp, gemini_batches.hpp); each request is logged like
  // a provider call.
  void install_batch_routes() {
    const auto logged = [this](auto action) {
      return [this, action](const httplib::Request& req, httplib::Response& res) {
        record(req);
        send(action(req), res);
      };
    };
    // "http://host:port" as the client reached us, for Anthropic's absolute results_url.
    const auto origin = [](const httplib::Request& req) {
      return "http://" + req.get_header_value("Host");
    };
    // Gemini's first: its status path is OpenAI's with ids of its own (gemini_batches.hpp).
    server_.Post(kGeminiBatchCreateRoute, logged([this](const httplib::Request& req) {
                   return gemini_batches_.create(req.matches[1], req.body);
                 }));
    server_.Get(kGeminiBatchRoute, logged([this](const httplib::Request& req) {
                  return gemini_batches_.retrieve(req.matches[1]);
                }));
    server_.Post(kGeminiBatchCancelRoute, logged([this](const httplib::Request& req) {
                   return gemini_batches_.cancel(req.matches[1]);
                 }));
    const auto upload = [this](const httplib::Request& req) {
      if (!req.has_file("file")) {
        return render_error(Endpoint::chat_completions, 400,
                            {{"message", "a multipart field \"file\" is required"}}, ++serial_);
      }
      const auto file = req.get_file_value("file");
      return batches_.upload_file(file.filename, req.get_file_value("purpose").content,
                                  file.content);
    };
    server_.Post("/v1/files", logged(upload));
    server_.Get(R"(/v1/files/([^/]+)/content)", logged([this](const httplib::Request& req) {
                  return batches_.file_content(req.matches[1]);
                }));
    server_.Post("/v1/batches", logged([this](const httplib::Request& req) {
                   return batches_.create_openai(req.body);
                 }));
    server_.Get(R"(/v1/batches/([^/]+))", logged([this](const httplib::Request& req) {
                  return batches_.retrieve_openai(req.matches[1]);
                }));
    server_.Post(R"(/v1/batches/([^/]+)/cancel)", logged([this](const httplib::Request& req) {
                   return batches_.cancel_openai(req.matches[1]);
                 }));
    install_azure_batch_routes(upload);
    // Mistral's batch jobs, on the files above.
    server_.Post("/v1/batch/jobs", logged([this](const httplib::Request& req) {
                   return batches_.create_mistral(req.body);
                 }));
    server_.Get(R"(/v1/batch/jobs/([^/]+))", logged([this](const httplib::Request& req) {
                  return batches_.retrieve_mistral(req.matches[1]);
                }));
    server_.Post(R"(/v1/batch/jobs/([^/]+)/cancel)", logged([this](const httplib::Request& req) {
                   return batches_.cancel_mistral(req.matches[1]);
                 }));
    server_.Post("/v1/messages/batches", logged([this, origin](const httplib::Request& req) {
                   return batches_.create_anthropic(req.body, origin(req));
                 }));
    server_.Get(R"(/v1/messages/batches/([^/]+))",
                logged([this, origin](const httplib::Request& req) {
                  return batches_.retrieve_anthropic(req.matches[1], origin(req));
                }));
    server_.Get(R"(/v1/messages/batches/([^/]+)/results)",
                logged([this](const httplib::Request& req) {
                  return batches_.anthropic_results(req.matches[1]);
                }));
    server_.Post(R"(/v1/messages/batches/([^/]+)/cancel)",
                 logged([this, origin](const httplib::Request& req) {
                   return batches_.cancel_anthropic(req.matches[1], origin(req));
                 }));
  }

  void record(const httplib::Request& req) {
    LoggedRequest logged;
    logged.method = req.method;
    logged.path = req.path;
    for (const auto& [name, value] : req.headers) {
      // httplib adds the connection's addresses as pseudo-headers; they were not sent.
      if (name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" ||
          name == "LOCAL_PORT")
        continue;
      logged.headers.emplace_back(name, value);
    }
    // From the target, not req.params: httplib also puts form-encoded body fields there.
    if (const auto q = req.target.find('?'); q != std::string::npos) {
      std::istringstream query(req.target.substr(q + 1));
      std::string pair;
      while (std::getline(query, pair, '&')) {
        const auto eq = pair.find('=');
        logged.query.emplace_back(pair.substr(0, eq),
                                  eq == std::string::npos ? "" : pair.substr(eq + 1));
      }
    }
    logged.body = req.body;
    log_.append(log_entry(logged));
  }

  static void send(const RenderedReply& reply, httplib::Response& res) {
    res.status = reply.status;
    for (const auto& [name, value] : reply.headers) {
      res.headers.erase(name);  // a scripted header replaces a default one of the same name
      res.set_header(name, value);
    }
    res.set_content(reply.body, reply.content_type);
  }

  // `streamed`: the URL asks for a stream (Gemini); other APIs ask with "stream": true.
  void serve(Endpoint endpoint, const httplib::Request& req, httplib::Response& res,
             bool streamed = false) {
    record(req);
    const auto serial = ++serial_;
    if (endpoint == Endpoint::converse) {
      SignedRequest signed_request{req.method, req.target, {}, req.body};
      for (const auto& [name, value] : req.headers)
        signed_request.headers.emplace_back(name, value);
      if (const auto refused = refused_signature(signed_request, serial)) {
        send(*refused, res);  // as AWS: a bad signature is refused before the body is read
        return;
      }
    }
    const auto request = json::parse(req.body, nullptr, false);
    if (request.is_discarded() || !request.is_object()) {
      // A real API answers 400 here; the scripted reply is kept for the next, well-formed request.
      send(render_error(endpoint, 400,
                        {{"message", "We could not parse the JSON body of your request."}}, serial),
           res);
      return;
    }
    if (const auto refused = refused_request(endpoint, request)) {
      // As for a body that does not parse, the scripted reply waits for the next request.
      send(render_error(endpoint, 400, {{"message", *refused}}, serial), res);
      return;
    }
    if (const auto refused = endpoint == Endpoint::converse
                                 ? refused_tool_choice(req.target, request)
                                 : std::nullopt) {
      send(render_error(endpoint, 400, {{"message", *refused}}, serial), res);
      return;
    }
    if (const auto refused = refused_parameters(endpoint, request)) {
      send(render_error(endpoint, 400, {{"message", *refused}}, serial), res);
      return;
    }
    const Reply reply = prompt_cache_.with_cache_usage(
        endpoint, request, req.body.size(), shaped_by_request(queue_.next(), endpoint, request));

    if (reply.delay_ms > 0 && !shutdown_.sleep_for(std::chrono::milliseconds(reply.delay_ms))) {
      drop_connection(req);
      return;
    }
    if (reply.drop) {
      if (!drop_connection(req)) {
        std::cerr << "accord-mock: could not find the connection to drop\n";
        res.status = 500;
      }
      return;
    }

    const auto rendered = render_reply(endpoint, reply, request, req.body.size(), serial);
    if ((streamed || (request.contains("stream") && request["stream"] == json(true))) &&
        reply.kind != ReplyKind::http && rendered.status / 100 == 2) {
      serve_stream(endpoint, reply, request, rendered, res);
      return;
    }
    res.status = rendered.status;
    for (const auto& [name, value] : rendered.headers) {
      res.headers.erase(name);
      res.set_header(name, value);
    }
    // A sized content provider: httplib writes the status line and headers first (with the full
    // Content-Length), then asks for the body, so a stall or an early close happens after the
    // headers are on the wire. Returning false from the provider makes httplib close the socket.
    auto body = std::make_shared<const std::string>(std::move(rendered.body));
    const std::size_t limit = reply.partial_body ? body->size() / 2 : body->size();
    const auto stall = std::chrono::milliseconds(reply.stall_after_headers_ms);
    auto stalled = std::make_shared<bool>(false);
    res.set_content_provider(body->size(), rendered.content_type,
                             [this, body, limit, stall, stalled](std::size_t offset, std::size_t,
                                                                 httplib::DataSink& sink) {
                               if (!*stalled) {
                                 *stalled = true;
                                 if (stall.count() > 0 && !shutdown_.sleep_for(stall)) return false;
                               }
                               if (offset >= limit)
                                 return false;  // partial_body: close with the rest unsent
                               constexpr std::size_t kChunk = 64 * 1024;
                               const auto n = std::min(kChunk, limit - offset);
                               return sink.write(body->data() + offset, n);
                             });
  }

  // The reply as server-sent events, one event per write, with the scripted fault (if any) after
  // `after_events` of them: a close without the last chunk, a pause, or an event that is not JSON.
  void serve_stream(Endpoint endpoint, const Reply& reply, const json& request,
                    const RenderedReply& rendered, httplib::Response& res) {
    const auto options = request.find("stream_options");
    const bool include_usage = options != request.end() && options->is_object() &&
                               options->contains("include_usage") &&
                               (*options)["include_usage"] == json(true);
    auto events = std::make_shared<const std::vector<std::string>>(
        stream_events(endpoint, rendered.body, include_usage, reply.stream_chunk_chars));
    res.status = rendered.status;
    for (const auto& [name, value] : rendered.headers) {
      res.headers.erase(name);
      res.set_header(name, value);
    }
    res.set_header("cache-control", "no-cache");
    const StreamFault fault = reply.stream_fault;
    auto sent = std::make_shared<std::size_t>(0);
    auto faulted = std::make_shared<bool>(fault.kind == StreamFaultKind::none);
    // Bedrock frames its events in AWS's binary event-stream; the others send server-sent events.
    const bool aws = endpoint == Endpoint::converse;
    auto malformed = std::make_shared<const std::string>(aws ? malformed_converse_event()
                                                             : std::string(kMalformedEvent));
    res.set_chunked_content_provider(
        aws                                 ? std::string(kEventStreamMediaType)
        : endpoint == Endpoint::ollama_chat ? std::string("application/x-ndjson")
                                            : std::string("text/event-stream"),
        [this, events, fault, sent, faulted, malformed](std::size_t, httplib::DataSink& sink) {
          if (!*faulted && *sent >= fault.after_events) {
            *faulted = true;
            switch (fault.kind) {
              case StreamFaultKind::drop:
                return false;  // httplib closes the connection without the last chunk
              case StreamFaultKind::stall:
                if (!shutdown_.sleep_for(std::chrono::milliseconds(fault.stall_ms))) return false;
                break;
              case StreamFaultKind::malformed:
                if (!sink.write(malformed->data(), malformed->size())) return false;
                break;
              case StreamFaultKind::none:
                break;
            }
          }
          if (*sent >= events->size()) {
            sink.done();
            return true;
          }
          const auto& event = (*events)[(*sent)++];
          return sink.write(event.data(), event.size());
        });
  }

  ReplyQueue queue_;
  PromptCache prompt_cache_;  // what a marked prefix seen before reads from the cache
  RequestLog log_;
  Shutdown shutdown_;
  std::atomic<std::uint64_t> serial_{0};
  int listening_socket_ = -1;
  BatchStore batches_;            // after queue_ and serial_, which it uses
  GeminiBatches gemini_batches_;  // likewise
  QuietKeepAliveServer server_;   // idle keep-alive connections wait without waking
};

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, options)) return 2;

  // Writes to a peer that has gone must fail with EPIPE, not kill the server.
  signal(SIGPIPE, SIG_IGN);
  // SIGTERM/SIGINT are taken by a dedicated thread with sigwait; block them before any thread
  // starts so every thread inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::unique_ptr<MockServer> mock;
  try {
    mock = std::make_unique<MockServer>(load_scenario(options), options);
  } catch (const std::exception& e) {
    std::cerr << "accord-mock: " << e.what() << "\n";
    return 2;
  }
  mock->install_routes();

  auto& server = mock->server();
  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.host);
    if (port < 0) port = 0;
  } else if (!server.bind_to_port(options.host, port)) {
    port = 0;
  }
  mock->widen_accept_backlog();
  if (port == 0) {
    std::cerr << "accord-mock: cannot listen on " << options.host << ":" << options.port << "\n";
    return 1;
  }
  std::cout << "listening on " << options.host << ":" << port << std::endl;

  std::promise<void> connections_ended;
  auto stopped = connections_ended.get_future();
  std::thread([&mock, &server, &connections_ended, stop_signals, port] {
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    mock->shutdown().begin();
    server.stop();
    // Idle keep-alive connections would hold their workers for the keep-alive timeout; ending
    // them lets the thread pool join at once.
    for_each_connection(port, -1, [](int fd) { ::shutdown(fd, SHUT_RDWR); });
    connections_ended.set_value();
    // Last resort: a worker stuck writing to a peer that never reads.
    std::this_thread::sleep_for(std::chrono::seconds(5));
    std::_Exit(0);
  }).detach();

  server.listen_after_bind();
  if (!mock->shutdown().stopping()) {
    std::cerr << "accord-mock: the server stopped unexpectedly\n";
    std::_Exit(1);  // the signal thread still waits and references the server
  }
  stopped.wait();  // the signal thread is done with the server before it is destroyed
  return 0;
}
