// CurlTransport: libcurl easy handles kept in a pool. An easy handle keeps its connection cache
// across transfers, so taking the most recently returned handle reuses a kept-alive connection,
// and several threads can each take their own handle at once. post_async runs on one curl multi
// handle driven by one thread of its own, through curl's socket interface over epoll (Linux).

#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "core/ascii.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "accord/redaction.hpp"
#include "accord/transport.hpp"
#include "transport/aws_signature.hpp"
#include "transport/redaction.hpp"
#include "transport/url_origin.hpp"

namespace accord {
namespace {

void global_init_once() {
  static std::once_flag once;
  // Never cleaned up: other libraries in the process may still use curl at exit.
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// One try's state. The easy handle's options point into it, so it outlives the transfer.
struct Transfer {
  HttpResponse response;
  std::size_t max_bytes = 0;
  bool too_large = false;
  CURL* handle = nullptr;
  BodyReader* reader = nullptr;  // a streamed reply's reader, handed 2xx bytes as they arrive
  bool stopped = false;          // the reader stopped the transfer
  curl_slist* header_list = nullptr;
  char error_text[CURL_ERROR_SIZE] = {};
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  Transfer() = default;
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;
  ~Transfer() { curl_slist_free_all(header_list); }
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  if (transfer->reader != nullptr) {
    long status = 0;
    curl_easy_getinfo(transfer->handle, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 200 && status < 300) {
      // A streamed reply goes to its reader only, which keeps what it needs and bounds both the
      // output and the framing around it: the framing is many times the output.
      if (transfer->reader->read(std::string_view(data, bytes))) return bytes;
      transfer->stopped = true;
      return 0;  // anything short of `bytes` makes curl abort with CURLE_WRITE_ERROR
    }
  }
  if (transfer->response.body.size() + bytes > transfer->max_bytes) {
    transfer->too_large = true;
    return 0;
  }
  transfer->response.body.append(data, bytes);
  return bytes;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  const std::string_view line = detail::trim_blanks(std::string_view(data, bytes));
  if (line.starts_with("HTTP/")) {
    // A new status line (after 100 Continue, or a proxy's CONNECT reply): keep only the last.
    transfer->response.headers.clear();
  } else if (const auto colon = line.find(':'); colon != std::string_view::npos && colon > 0) {
    transfer->response.headers.emplace_back(
        detail::ascii_lower(detail::trim_blanks(line.substr(0, colon))),
        std::string(detail::trim_blanks(line.substr(colon + 1))));
  }
  return bytes;
}

TransportFailure classify(CURLcode code, bool too_large) {
  if (too_large) return TransportFailure::too_large;
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return TransportFailure::connect;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportFailure::timeout;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return TransportFailure::dropped;
    case CURLE_FILESIZE_EXCEEDED:
      return TransportFailure::too_large;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
      return TransportFailure::tls;
    default:
      return TransportFailure::other;
  }
}

// Every piece of the request that could be a credential: values of credential headers (and the
// token after "Bearer "), the AWS credentials (and their secret half), and the URL's user info
// and query.
std::vector<std::string> secrets_of(const HttpRequest& request) {
  std::vector<std::string> secrets;
  const Headers redacted = redacted_headers(request.headers);
  for (std::size_t i = 0; i < request.headers.size(); ++i) {
    if (redacted[i].second == request.headers[i].second) continue;
    const std::string& value = request.headers[i].second;
    secrets.push_back(value);
    if (const auto space = value.rfind(' '); space != std::string::npos) {
      secrets.push_back(value.substr(space + 1));
    }
  }
  if (!request.aws_credentials.empty()) {
    secrets.push_back(request.aws_credentials);
    secrets.push_back(request.aws_credentials.substr(request.aws_credentials.find(':') + 1));
  }
  if (CURLU* parsed = curl_url()) {
    if (curl_url_set(parsed, CURLUPART_URL, request.url.c_str(), 0) == CURLUE_OK) {
      for (CURLUPart part : {CURLUPART_USER, CURLUPART_PASSWORD, CURLUPART_QUERY}) {
        char* text = nullptr;
        if (curl_url_get(parsed, part, &text, 0) == CURLUE_OK && text != nullptr) {
          secrets.emplace_back(text);
        }
        curl_free(text);
      }
    }
    curl_url_cleanup(parsed);
  }
  secrets.erase(std::remove_if(secrets.begin(), secrets.end(),
                               [](const std::string& s) { return s.size() < 4; }),
                secrets.end());
  // Longest first, so a whole value is replaced before the token inside it.
  std::sort(secrets.begin(), secrets.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return secrets;
}

// curl's messages name hosts, not headers; scrubbing anyway keeps that true whatever curl does.
std::string scrub(std::string message, const std::vector<std::string>& secrets) {
  for (const std::string& secret : secrets)
    message = detail::redact_secret(std::move(message), secret);
  return message;
}

// Sets every option of one POST (or GET) on `handle`; the options point into `request` and
// `transfer`, which must outlive the transfer.
void configure(CURL* handle, const HttpRequest& request, const TransportOptions& options,
               Transfer& transfer) {
  // reset() clears the previous request's options but keeps live connections and caches.
  curl_easy_reset(handle);
  transfer.max_bytes = options.max_response_bytes;
  bool has_expect = false;
  for (const auto& [name, value] : request.headers) {
    if (detail::ascii_lower(name) == "expect") has_expect = true;
    // "Name;" is curl's way to send a header with an empty value ("Name:" would remove it).
    const std::string line = value.empty() ? name + ";" : name + ": " + value;
    transfer.header_list = curl_slist_append(transfer.header_list, line.c_str());
  }
  // Signed last, over the headers above and the body as sent (see aws_signature.hpp for why not
  // CURLOPT_AWS_SIGV4).
  if (!request.aws_sigv4.empty()) {
    for (const auto& [name, value] :
         detail::aws_sigv4_headers(request, std::chrono::system_clock::now())) {
      transfer.header_list = curl_slist_append(transfer.header_list, (name + ": " + value).c_str());
    }
  }
  // No "Expect: 100-continue" round trip for large bodies; providers answer directly.
  if (!has_expect) transfer.header_list = curl_slist_append(transfer.header_list, "Expect:");

  curl_easy_setopt(handle, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  if (request.method == "GET") {
    curl_easy_setopt(handle, CURLOPT_HTTPGET, 1L);
  } else {
    curl_easy_setopt(handle, CURLOPT_POST, 1L);
    curl_easy_setopt(handle, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, transfer.header_list);
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);  // signals are not thread-safe
  curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(options.connect_timeout.count()));
  const auto timeout = request.timeout.count() > 0
                           ? std::min(request.timeout, options.total_timeout)
                           : options.total_timeout;
  // A total limit: it also cuts a 1-byte/s trickle and an endless run of `100 Continue` lines.
  // curl reads 0 as "no limit", so a deadline already reached still gets 1 ms.
  curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(std::max<long long>(1, timeout.count())));
  curl_easy_setopt(handle, CURLOPT_TCP_KEEPALIVE, 1L);
  // Every encoding curl can decode is accepted and decoded, so a gzip body is read as the JSON it
  // is; the size cap counts decoded bytes, which also stops a compression bomb.
  curl_easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
  const bool verify = !options.insecure_skip_tls_verification;
  curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, verify ? 1L : 0L);
  curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, verify ? 2L : 0L);
  if (!options.ca_bundle.empty()) {
    curl_easy_setopt(handle, CURLOPT_CAINFO, options.ca_bundle.c_str());
  }
  // Rejects early when Content-Length already says the body is too big; a streamed reply's
  // framing counts against its reader's larger bound instead.
  if (!request.body_reader) {
    curl_easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(options.max_response_bytes));
  }
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(handle, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, transfer.error_text);
  if (request.body_reader) {
    transfer.handle = handle;
    transfer.reader = request.body_reader.get();
    transfer.reader->begin();
    // Under 1 byte a second for this long ends the transfer as a timeout: a stalled stream.
    if (options.stream_stall_timeout.count() > 0) {
      curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
      curl_easy_setopt(handle, CURLOPT_LOW_SPEED_TIME,
                       static_cast<long>((options.stream_stall_timeout.count() + 999) / 1000));
    }
  }
}

std::chrono::milliseconds since(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               started);
}

TransportResult failed(const HttpRequest& request, TransportFailure failure, std::string message,
                       std::chrono::steady_clock::time_point started) {
  TransportResult result;
  result.error = TransportError{failure, scrub(std::move(message), secrets_of(request)) + " (" +
                                             detail::origin_of(request.url) + ")"};
  result.elapsed = since(started);
  return result;
}

// The outcome of a finished transfer. Detaches the pointers into `transfer` from the handle, which
// may then be reused.
TransportResult finish(CURL* handle, CURLcode code, const HttpRequest& request,
                       const TransportOptions& options, Transfer& transfer) {
  long status = 0;
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, nullptr);
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, nullptr);
  // A reader that stopped the transfer has what it wanted: the response so far, not a failure.
  if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && transfer.stopped)) {
    const TransportFailure failure = classify(code, transfer.too_large);
    std::string message(detail::trim_blanks(
        transfer.error_text[0] != '\0' ? transfer.error_text : curl_easy_strerror(code)));
    if (failure == TransportFailure::too_large) {
      message = "response body exceeds " + std::to_string(options.max_response_bytes) +
                " bytes: " + message;
    }
    return failed(request, failure, std::move(message), transfer.started);
  }
  TransportResult result;
  transfer.response.status = status;
  result.response = std::move(transfer.response);
  result.elapsed = since(transfer.started);
  return result;
}

}  // namespace

struct CurlTransport::Pool {
  TransportOptions options;
  std::mutex mutex;
  std::vector<CURL*> idle;  // LIFO: the last handle returned holds the warmest connection

  CURL* take() {
    {
      std::lock_guard lock(mutex);
      if (!idle.empty()) {
        CURL* handle = idle.back();
        idle.pop_back();
        return handle;
      }
    }
    return curl_easy_init();
  }

  void give_back(CURL* handle) {
    std::lock_guard lock(mutex);
    idle.push_back(handle);
  }

  ~Pool() {
    for (CURL* handle : idle) curl_easy_cleanup(handle);
  }
};

namespace {
class MultiLoop;
}  // namespace

// post_async's side: kLoops threads, each running a curl multi handle through curl's socket
// interface over epoll, so thousands of tries are in flight without a thread each and a wake-up
// touches only the sockets that are ready (curl_multi_perform visits every transfer on each
// round, which made a round O(n): 1,000 in flight ran slower than 1,000 blocked threads).
class CurlTransport::Multi {
 public:
  explicit Multi(const TransportOptions& options);
  void submit(AsyncPost post);
  void stop();

 private:
  std::vector<std::shared_ptr<MultiLoop>> loops_;
  std::atomic<std::size_t> next_{0};
};

namespace {

// One thread and its curl multi handle. Started with the first post_async; callbacks run on it.
class MultiLoop {
 public:
  explicit MultiLoop(TransportOptions options)
      : options_(std::move(options)),
        multi_(curl_multi_init()),
        epoll_(::epoll_create1(EPOLL_CLOEXEC)),
        wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    if (multi_ == nullptr || epoll_ < 0 || wake_ < 0) {
      const int error = errno;
      close_descriptors();
      if (multi_ != nullptr) curl_multi_cleanup(multi_);
      throw std::system_error(error, std::generic_category(), "cannot start curl's multi loop");
    }
    // One connection cache for every transfer of the multi handle, kept alive between tries.
    curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, 0L);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &MultiLoop::on_socket);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &MultiLoop::on_timer);
    curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = wake_;
    ::epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &event);
  }
  MultiLoop(const MultiLoop&) = delete;
  MultiLoop& operator=(const MultiLoop&) = delete;

  ~MultiLoop() {
    for (CURL* handle : idle_) curl_easy_cleanup(handle);
    curl_multi_cleanup(multi_);  // may still report sockets to forget: epoll_ closes after it
    close_descriptors();
  }

  // The thread holds `self` until its loop ends, so the loop never runs on a destroyed MultiLoop.
  static std::shared_ptr<MultiLoop> start(TransportOptions options) {
    auto multi = std::make_shared<MultiLoop>(std::move(options));
    multi->thread_ = std::thread([multi] { multi->run(); });
    return multi;
  }

  // Ends every post still queued, waiting or running as cancelled, and the loop with them. The
  // last owner of a transport can be a callback on the loop's own thread (an asynchronous call
  // holding its client); that thread cannot join itself, so it is let go and ends on its own.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake();
    if (std::this_thread::get_id() == thread_.get_id()) {
      thread_.detach();
    } else {
      thread_.join();
    }
  }

  void submit(AsyncPost post) {
    {
      std::lock_guard lock(mutex_);
      if (!stopping_) {
        incoming_.push_back(std::move(post));
        post.done = nullptr;
      }
    }
    if (post.done) return complete_cancelled(post);  // the transport is shutting down
    wake();
  }

 private:
  using clock = std::chrono::steady_clock;
  struct Running {
    explicit Running(AsyncPost p) : post(std::move(p)) {}
    AsyncPost post;
    Transfer transfer;
  };

  void close_descriptors() const {
    if (epoll_ >= 0) ::close(epoll_);
    if (wake_ >= 0) ::close(wake_);
  }

  void wake() const {
    const std::uint64_t one = 1;
    // A full counter (never, in practice) still leaves the loop woken, so the result is moot.
    [[maybe_unused]] const auto written = ::write(wake_, &one, sizeof one);
  }

  // curl says which socket to watch for what; the watch list lives in the kernel (epoll).
  static int on_socket(CURL*, curl_socket_t socket, int what, void* self, void*) {
    const int epoll = static_cast<MultiLoop*>(self)->epoll_;
    if (what == CURL_POLL_REMOVE) {
      // curl may have closed it already, which removed it from epoll too: the error is moot.
      ::epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nullptr);
      return 0;
    }
    epoll_event event{};
    event.events =
        ((what & CURL_POLL_IN) != 0 ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) != 0 ? EPOLLOUT : 0u);
    event.data.fd = socket;
    // A socket changes what it waits for on every request but is new only once per connection.
    if (::epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) != 0 && errno == ENOENT) {
      ::epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event);
    }
    return 0;
  }

  // When curl next needs curl_multi_socket_action(CURL_SOCKET_TIMEOUT): timeouts, connects,
  // newly added transfers (0 ms). -1: no timer.
  static int on_timer(CURLM*, long timeout_ms, void* self) {
    auto& timer = static_cast<MultiLoop*>(self)->timer_;
    timer = timeout_ms < 0 ? std::nullopt
                           : std::optional(clock::now() + std::chrono::milliseconds(timeout_ms));
    return 0;
  }

  static bool cancelled(const AsyncPost& post) {
    return post.cancelled && post.cancelled->load(std::memory_order_relaxed);
  }

  static void complete(AsyncPost& post, TransportResult result) {
    auto done = std::move(post.done);
    if (done) done(std::move(result));
  }

  void complete_cancelled(AsyncPost& post) {
    complete(post, failed(post.request, TransportFailure::cancelled, "cancelled", clock::now()));
  }

  void start(AsyncPost post) {
    if (cancelled(post)) return complete_cancelled(post);
    CURL* handle = nullptr;
    if (!idle_.empty()) {
      handle = idle_.back();
      idle_.pop_back();
    } else {
      handle = curl_easy_init();
    }
    if (handle == nullptr) {
      return complete(post, failed(post.request, TransportFailure::other, "curl_easy_init failed",
                                   clock::now()));
    }
    auto running = std::make_unique<Running>(std::move(post));
    configure(handle, running->post.request, options_, running->transfer);
    curl_multi_add_handle(multi_, handle);  // sets a 0 ms timer: the loop starts it next
    running_.emplace(handle, std::move(running));
  }

  void end(CURL* handle, CURLcode code) {
    auto found = running_.find(handle);
    if (found == running_.end()) return;
    auto running = std::move(found->second);
    running_.erase(found);
    curl_multi_remove_handle(multi_, handle);
    auto result = finish(handle, code, running->post.request, options_, running->transfer);
    idle_.push_back(handle);
    if (code == CURLE_ABORTED_BY_CALLBACK || cancelled(running->post)) {
      return complete_cancelled(running->post);
    }
    complete(running->post, std::move(result));
  }

  // Takes what other threads submitted; false once stopping with nothing left to do.
  bool take_incoming() {
    std::vector<AsyncPost> incoming;
    bool stopping = false;
    {
      std::lock_guard lock(mutex_);
      incoming.swap(incoming_);
      stopping = stopping_;
    }
    if (stopping) {
      // Whatever is still queued, waiting or running ends as cancelled (callbacks run unlocked:
      // they may post again, which is refused the same way on the next round).
      for (auto& post : incoming) complete_cancelled(post);
      auto waiting = std::move(waiting_);
      waiting_.clear();
      for (auto& [when, post] : waiting) complete_cancelled(post);
      std::vector<CURL*> handles;
      for (auto& [handle, running] : running_) handles.push_back(handle);
      for (CURL* handle : handles) end(handle, CURLE_ABORTED_BY_CALLBACK);
      std::lock_guard lock(mutex_);
      return !incoming_.empty() || !waiting_.empty() || !running_.empty();
    }
    for (auto& post : incoming) {
      if (post.delay.count() > 0) {
        const auto when = clock::now() + post.delay;
        waiting_.emplace(when, std::move(post));
      } else {
        start(std::move(post));
      }
    }
    return true;
  }

  // Starts the posts whose delay is over and ends the cancelled ones; returns how long the next
  // wait may sleep.
  std::chrono::milliseconds tend() {
    const auto now = clock::now();
    while (!waiting_.empty() &&
           (waiting_.begin()->first <= now || cancelled(waiting_.begin()->second))) {
      auto post = std::move(waiting_.begin()->second);
      waiting_.erase(waiting_.begin());
      start(std::move(post));
    }
    // Cancellations are looked for every kCancelScan, not on every wake-up: with a thousand
    // tries in flight, a scan per completed transfer made the loop quadratic.
    if (now < next_cancel_scan_) return sleep_until_next(now);
    next_cancel_scan_ = now + kCancelScan;
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (cancelled(it->second)) {
        complete_cancelled(it->second);
        it = waiting_.erase(it);
      } else {
        ++it;
      }
    }
    std::vector<CURL*> to_cancel;
    for (const auto& [handle, running] : running_) {
      if (cancelled(running->post)) to_cancel.push_back(handle);
    }
    for (CURL* handle : to_cancel) end(handle, CURLE_ABORTED_BY_CALLBACK);
    return sleep_until_next(now);
  }

  std::chrono::milliseconds sleep_until_next(clock::time_point now) const {
    // A cancel() does not wake the loop, so nothing in flight sleeps past the next scan.
    auto sleep = std::chrono::milliseconds(running_.empty() && waiting_.empty() ? 1000 : 50);
    const auto until = [&](clock::time_point when) {
      // Rounded up: waking a moment early would only find nothing due and wait again.
      return std::chrono::ceil<std::chrono::milliseconds>(when - now);
    };
    if (!waiting_.empty()) sleep = std::min(sleep, until(waiting_.begin()->first));
    if (timer_) sleep = std::min(sleep, until(*timer_));
    return std::max(sleep, std::chrono::milliseconds(0));
  }

  // curl's bits for what epoll saw on a socket.
  static int readiness(std::uint32_t events) {
    return ((events & EPOLLIN) != 0 ? CURL_CSELECT_IN : 0) |
           ((events & EPOLLOUT) != 0 ? CURL_CSELECT_OUT : 0) |
           ((events & (EPOLLERR | EPOLLHUP)) != 0 ? CURL_CSELECT_ERR : 0);
  }

  void run() {
    std::array<epoll_event, 256> events{};
    int still_running = 0;
    while (take_incoming()) {
      const auto sleep = tend();
      const int ready = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()),
                                     static_cast<int>(sleep.count()));
      for (int i = 0; i < ready; ++i) {
        const int fd = events[static_cast<std::size_t>(i)].data.fd;
        if (fd == wake_) {
          std::uint64_t count = 0;
          [[maybe_unused]] const auto read = ::read(wake_, &count, sizeof count);
          continue;
        }
        curl_multi_socket_action(multi_, fd, readiness(events[static_cast<std::size_t>(i)].events),
                                 &still_running);
      }
      if (timer_ && *timer_ <= clock::now()) {
        timer_.reset();  // curl sets the next one from inside the call
        curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &still_running);
      }
      int queued = 0;
      while (CURLMsg* message = curl_multi_info_read(multi_, &queued)) {
        if (message->msg == CURLMSG_DONE) end(message->easy_handle, message->data.result);
      }
    }
  }

  const TransportOptions options_;
  CURLM* multi_;
  const int epoll_;
  const int wake_;  // an eventfd: submit() and stop() wake the loop's epoll_wait through it
  std::mutex mutex_;
  std::vector<AsyncPost> incoming_;  // under mutex_
  bool stopping_ = false;            // under mutex_
  // The rest belongs to the loop thread.
  std::optional<clock::time_point> timer_;  // curl's timer (CURLMOPT_TIMERFUNCTION)
  std::multimap<clock::time_point, AsyncPost> waiting_;
  std::map<CURL*, std::unique_ptr<Running>> running_;
  std::vector<CURL*> idle_;
  static constexpr std::chrono::milliseconds kCancelScan{50};
  clock::time_point next_cancel_scan_{};
  std::thread thread_;
};

}  // namespace

// Two loops rather than one: a call's own CPU work (encoding, parsing, validating: ~150 µs) runs
// on its loop's thread, so one loop is one core's worth of calls at most, and on a shared machine
// one thread gets one thread's share of the CPU while blocked-thread callers get one share each.
// Two keeps the thread count of the asynchronous form small and fixed.
constexpr std::size_t kLoops = 2;

CurlTransport::Multi::Multi(const TransportOptions& options) {
  for (std::size_t i = 0; i < kLoops; ++i) loops_.push_back(MultiLoop::start(options));
}

void CurlTransport::Multi::submit(AsyncPost post) {
  loops_[next_.fetch_add(1, std::memory_order_relaxed) % loops_.size()]->submit(std::move(post));
}

void CurlTransport::Multi::stop() {
  for (auto& loop : loops_) loop->stop();
}

CurlTransport::CurlTransport(TransportOptions options) : pool_(std::make_unique<Pool>()) {
  global_init_once();
  pool_->options = std::move(options);
}

CurlTransport::~CurlTransport() {
  if (multi_) multi_->stop();
}

TransportResult CurlTransport::post(const HttpRequest& request) {
  CURL* handle = pool_->take();
  if (handle == nullptr) {
    return failed(request, TransportFailure::other, "curl_easy_init failed",
                  std::chrono::steady_clock::now());
  }
  Transfer transfer;
  configure(handle, request, pool_->options, transfer);
  const CURLcode code = curl_easy_perform(handle);
  auto result = finish(handle, code, request, pool_->options, transfer);
  pool_->give_back(handle);
  return result;
}

void CurlTransport::post_async(AsyncPost post) {
  std::call_once(multi_started_, [this] { multi_ = std::make_shared<Multi>(pool_->options); });
  multi_->submit(std::move(post));
}

}  // namespace accord
