// Transport retries: which results are worth another try and how long to wait; deliver() runs
// the tries (deliver_all, transport/delivery_steps.cpp).
// The rules follow the official OpenAI / Anthropic SDKs (providers.md §1.4, §4.5).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <locale>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include "core/ascii.hpp"

#include "accord/retry.hpp"
#include "transport/delivery_steps.hpp"
#include "transport/retry_reason.hpp"

namespace accord {
namespace {

using std::chrono::milliseconds;

// A plain decimal number ("2", "1.5"); from_chars so the C locale cannot change the meaning.
std::optional<double> parse_number(std::string_view text) {
  text = detail::trim_blanks(text);
  if (text.empty()) return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// Milliseconds from now until an HTTP date (IMF-fixdate, RFC 850 or asctime form).
std::optional<double> ms_until_http_date(std::string_view text) {
  static constexpr const char* kFormats[] = {"%a, %d %b %Y %H:%M:%S", "%A, %d-%b-%y %H:%M:%S",
                                             "%a %b %d %H:%M:%S %Y"};
  const std::string input(detail::trim_blanks(text));
  for (const char* format : kFormats) {
    std::tm tm{};
    std::istringstream in(input);
    in.imbue(std::locale::classic());  // month and day names are English whatever the locale
    in >> std::get_time(&tm, format);
    if (in.fail()) continue;
    const std::time_t when = timegm(&tm);  // HTTP dates are always GMT
    if (when == static_cast<std::time_t>(-1)) continue;
    const auto target = std::chrono::system_clock::from_time_t(when);
    return std::chrono::duration<double, std::milli>(target - std::chrono::system_clock::now())
        .count();
  }
  return std::nullopt;
}

// Finds error.code or error.type == "insufficient_quota" without building a tree, so a hostile
// body (100k-deep nesting, huge arrays) costs no stack and little memory.
class QuotaScan final : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool found = false;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool string(string_t& value) override {
    if (depth_ == 2 && objects_ == 2 && keys_[0] == "error" &&
        (keys_[1] == "code" || keys_[1] == "type") && value == "insufficient_quota") {
      found = true;
      return false;  // stop: the answer is known
    }
    return true;
  }
  bool start_object(std::size_t) override { return enter(true); }
  bool end_object() override { return leave(true); }
  bool start_array(std::size_t) override { return enter(false); }
  bool end_array() override { return leave(false); }
  bool key(string_t& value) override {
    if (depth_ <= kKeptDepth) keys_[depth_ - 1] = value;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  static constexpr int kKeptDepth = 2;
  static constexpr int kMaxDepth = 64;  // an error envelope is 2 deep; deeper is not one
  bool enter(bool object) {
    ++depth_;
    if (depth_ <= kKeptDepth) {
      keys_[depth_ - 1].clear();
      if (object && objects_ == depth_ - 1) objects_ = depth_;
    }
    return depth_ <= kMaxDepth;
  }
  bool leave(bool) {
    if (objects_ == depth_) --objects_;
    --depth_;
    return true;
  }
  int depth_ = 0;
  int objects_ = 0;  // how many of the outermost levels are all objects
  std::string keys_[kKeptDepth];
};

bool is_insufficient_quota(const std::string& body) {
  if (body.find("insufficient_quota") == std::string::npos) return false;
  QuotaScan scan;
  nlohmann::json::sax_parse(body, &scan);
  return scan.found;
}

double uniform01() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(engine);
}

milliseconds backoff(int retries_done, const RetryPolicy& policy) {
  const double initial = static_cast<double>(policy.initial_backoff.count());
  const double cap = static_cast<double>(policy.max_backoff.count());
  // Capping the exponent keeps 2^n finite for absurd retry counts.
  const double base = std::min(initial * std::pow(2.0, std::min(retries_done, 60)), cap);
  const double jitter = std::clamp(policy.jitter, 0.0, 1.0);
  return milliseconds{std::llround(base * (1.0 - jitter * uniform01()))};
}

// The wait the server asked for, when it is one we honour; otherwise a note on why not.
struct ServerWait {
  std::optional<milliseconds> wait;
  std::string note;
};

ServerWait server_wait(const HttpResponse& response, const RetryPolicy& policy) {
  const double limit = static_cast<double>(policy.max_retry_after.count());
  const auto honoured = [&](double ms) { return ms > 0 && ms <= limit; };
  if (auto header = response.header("retry-after-ms")) {
    if (auto ms = parse_number(*header); ms && honoured(*ms)) {
      return {milliseconds{static_cast<long long>(std::ceil(*ms))},
              "retry-after-ms: " + std::string(detail::trim_blanks(*header))};
    }
  }
  if (auto header = response.header("retry-after")) {
    std::optional<double> ms;
    if (auto seconds = parse_number(*header)) {
      ms = *seconds * 1000.0;
    } else {
      ms = ms_until_http_date(*header);
    }
    const std::string shown(detail::trim_blanks(*header));
    if (ms && honoured(*ms)) {
      return {milliseconds{static_cast<long long>(std::ceil(*ms))}, "retry-after: " + shown};
    }
    return {std::nullopt, "backoff; retry-after: " + shown + " not honoured"};
  }
  return {std::nullopt, "backoff"};
}

}  // namespace

RetryDecision decide_retry(const TransportResult& result, int retries_done,
                           const RetryPolicy& policy) {
  const std::string what = detail::describe_result(result);
  std::string why_retry;
  if (result.response) {
    const HttpResponse& response = *result.response;
    const long status = response.status;
    if (status == 429 && is_insufficient_quota(response.body)) {
      return detail::not_retried(what, "insufficient_quota (retrying will not help)");
    }
    // A 2xx is an answer (and billed): no header makes accord throw it away and ask again.
    if (status >= 200 && status < 300) {
      return RetryDecision{false, milliseconds{0}, what + ", success"};
    }
    const auto should_retry = response.header("x-should-retry");
    const std::string verdict =
        should_retry ? detail::ascii_lower(detail::trim_blanks(*should_retry)) : std::string();
    if (verdict == "false") return detail::not_retried(what, "x-should-retry: false");
    if (verdict == "true") {
      why_retry = "x-should-retry: true";
    } else if (status != 408 && status != 409 && status != 429 && status < 500) {
      return detail::not_retried(what, "status is not retryable");
    }
  } else if (result.error) {
    const TransportFailure failure = result.error->failure;
    if (failure != TransportFailure::connect && failure != TransportFailure::dropped &&
        failure != TransportFailure::timeout) {
      return detail::not_retried(what, "failure is not retryable");
    }
  } else {
    return detail::not_retried(what, "nothing to retry");
  }

  if (retries_done >= policy.max_retries) {
    return detail::not_retried(what, std::to_string(policy.max_retries) + " retries used up");
  }
  ServerWait asked =
      result.response ? server_wait(*result.response, policy) : ServerWait{std::nullopt, "backoff"};
  const milliseconds wait = asked.wait ? *asked.wait : backoff(retries_done, policy);
  std::string reason = what + ", retried after " + std::to_string(wait.count()) + " ms (" +
                       asked.note + (why_retry.empty() ? "" : "; " + why_retry) + ")";
  return RetryDecision{true, wait, std::move(reason)};
}

Delivery deliver(Transport& transport, const HttpRequest& request, const RetryPolicy& policy,
                 const Sleeper& sleep, Deadline deadline, const RetryObserver& on_retry) {
  return deliver_all(transport, DeliverySteps(request, policy, deadline, on_retry), sleep);
}

}  // namespace accord
