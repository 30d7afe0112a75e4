#pragma once
// The request log: one JSON object per provider request, credentials redacted, the latest kept in
// memory for GET /_accord/requests and every one appended to the --log file one line at a time.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace accord_mock {

inline constexpr std::string_view kRedacted = "[redacted]";

// True for headers and query parameters whose value must never be written anywhere: names
// containing key, token, auth, secret, cookie, password or credential, any case.
[[nodiscard]] bool is_secret_name(std::string_view name);
// True for values that look like credentials whatever their name (Bearer/Basic schemes, sk- keys).
[[nodiscard]] bool is_secret_value(std::string_view value);

struct LoggedRequest {
  std::string method;
  std::string path;
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::pair<std::string, std::string>> query;
  std::string body;
};

// {"method","path","query"?,"headers","body"}: header names lower-cased, secrets replaced by
// "[redacted]", body parsed when it is JSON of sane depth, else kept as a string.
[[nodiscard]] nlohmann::json log_entry(const LoggedRequest& request);

// One line of JSON, invalid UTF-8 replaced rather than thrown on.
[[nodiscard]] std::string to_json_line(const nlohmann::json& value);

// The newest entries kept in memory when --keep-requests is not given: a mock serving a long
// benchmark would otherwise grow with every call.
inline constexpr std::size_t kDefaultKeptRequests = 10000;

class RequestLog {
 public:
  // Empty path: memory only. Memory holds the newest `keep` entries (the file gets them all).
  // Throws std::runtime_error when the file cannot be opened.
  RequestLog(const std::string& path, std::size_t keep);
  ~RequestLog();
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;

  struct Snapshot {
    nlohmann::json entries;  // the kept ones, oldest first
    std::uint64_t received;  // logged since start or the last clear(), kept or not
  };

  void append(nlohmann::json entry);
  [[nodiscard]] Snapshot snapshot() const;
  void clear();

 private:
  mutable std::mutex mutex_;
  std::deque<nlohmann::json> entries_;
  std::size_t keep_;
  std::uint64_t received_ = 0;
  std::FILE* file_ = nullptr;
};

}  // namespace accord_mock
