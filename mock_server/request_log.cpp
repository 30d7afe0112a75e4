#include "request_log.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace accord_mock {
namespace {

using nlohmann::json;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// nlohmann parses iteratively but serialises recursively, so a hostile 100k-deep body is kept as
// text instead of being parsed and dumped.
constexpr std::size_t kMaxLoggedDepth = 256;

bool depth_at_most(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > limit) return false;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return true;
}

std::string redact(std::string_view name, std::string_view value) {
  return is_secret_name(name) || is_secret_value(value) ? std::string(kRedacted)
                                                        : std::string(value);
}

}  // namespace

bool is_secret_name(std::string_view name) {
  static constexpr std::array<std::string_view, 7> kParts = {
      "key", "token", "auth", "secret", "cookie", "password", "credential"};
  const auto n = lower(name);
  return std::any_of(kParts.begin(), kParts.end(),
                     [&](std::string_view part) { return n.find(part) != std::string::npos; });
}

bool is_secret_value(std::string_view value) {
  const auto v = lower(value);
  return v.rfind("bearer ", 0) == 0 || v.rfind("basic ", 0) == 0 ||
         v.find("sk-") != std::string::npos;
}

json log_entry(const LoggedRequest& request) {
  json headers = json::object();
  for (const auto& [name, value] : request.headers) {
    const auto key = lower(name);
    const auto shown = redact(name, value);
    if (headers.contains(key)) {
      headers[key] = headers[key].get<std::string>() + ", " + shown;
    } else {
      headers[key] = shown;
    }
  }
  json entry = {{"method", request.method}, {"path", request.path}};
  if (!request.query.empty()) {
    json query = json::object();
    for (const auto& [name, value] : request.query) query[name] = redact(name, value);
    entry["query"] = std::move(query);
  }
  entry["headers"] = std::move(headers);
  json body = nullptr;
  if (!request.body.empty() && depth_at_most(request.body, kMaxLoggedDepth))
    body = json::parse(request.body, nullptr, false);
  entry["body"] = body.is_discarded() || body.is_null() ? json(request.body) : std::move(body);
  return entry;
}

std::string to_json_line(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

RequestLog::RequestLog(const std::string& path, std::size_t keep) : keep_(keep) {
  if (path.empty()) return;
  file_ = std::fopen(path.c_str(), "a");
  if (file_ == nullptr) throw std::runtime_error("cannot open log file " + path);
}

RequestLog::~RequestLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void RequestLog::append(json entry) {
  const auto line = to_json_line(entry) + "\n";
  std::lock_guard lock(mutex_);
  if (file_ != nullptr) {
    std::fwrite(line.data(), 1, line.size(), file_);
    std::fflush(file_);  // per line, so a reader never sees half an entry after a reply
  }
  ++received_;
  if (keep_ == 0) return;
  if (entries_.size() == keep_) entries_.pop_front();
  entries_.push_back(std::move(entry));
}

RequestLog::Snapshot RequestLog::snapshot() const {
  std::lock_guard lock(mutex_);
  return {json(entries_), received_};
}

void RequestLog::clear() {
  std::lock_guard lock(mutex_);
  entries_.clear();
  received_ = 0;
}

}  // namespace accord_mock
