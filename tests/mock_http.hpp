#pragma once
// A tiny libcurl client for tests that talk to accord-mock: one fresh connection per call (so a
// dropped connection is never silently retried on a reused one), every outcome recorded.

#include <curl/curl.h>

#include <cctype>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mock_http {

struct Result {
  CURLcode code = CURLE_OK;
  long status = 0;           // 0 when no status line arrived
  bool got_headers = false;  // the blank line after the headers arrived
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  double content_length = -1;  // as announced, -1 when unknown
  std::chrono::milliseconds elapsed{0};

  [[nodiscard]] std::string header(const std::string& name) const {
    for (const auto& [n, v] : headers)
      if (n == name) return v;
    return {};
  }
};

struct Options {
  std::string method = "POST";
  std::vector<std::string> headers = {"Content-Type: application/json"};
  long timeout_ms = 10'000;
  std::function<void()> on_headers;  // called once the header block is complete
};

namespace detail {

inline std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<Result*>(user)->body.append(data, size * count);
  return size * count;
}

struct HeaderState {
  Result* result;
  const Options* options;
};

inline std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* state = static_cast<HeaderState*>(user);
  std::string line(data, size * count);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  if (line.empty()) {
    state->result->got_headers = true;
    if (state->options->on_headers) state->options->on_headers();
  } else if (const auto colon = line.find(':');
             colon != std::string::npos && line.rfind("HTTP/", 0) != 0) {
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    state->result->headers.emplace_back(std::move(name), std::move(value));
  } else if (line.rfind("HTTP/", 0) == 0 && line.size() >= 12) {
    state->result->status = std::stol(line.substr(9, 3));
  }
  return size * count;
}

}  // namespace detail

inline Result request(const std::string& url, const std::string& body,
                      const Options& options = {}) {
  Result result;
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    result.code = CURLE_FAILED_INIT;
    return result;
  }
  curl_slist* header_list = nullptr;
  for (const auto& h : options.headers) header_list = curl_slist_append(header_list, h.c_str());
  detail::HeaderState state{&result, &options};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FORBID_REUSE, 1L);
  curl_easy_setopt(curl, CURLOPT_FRESH_CONNECT, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, options.timeout_ms);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, header_list);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, detail::on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &result);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, detail::on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &state);
  if (options.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  } else if (options.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, options.method.c_str());
  }
  const auto start = std::chrono::steady_clock::now();
  result.code = curl_easy_perform(curl);
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  curl_off_t length = -1;
  if (curl_easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK)
    result.content_length = static_cast<double>(length);
  curl_slist_free_all(header_list);
  curl_easy_cleanup(curl);
  return result;
}

inline Result post(const std::string& url, const std::string& body, Options options = {}) {
  options.method = "POST";
  return request(url, body, options);
}

inline Result get(const std::string& url, Options options = {}) {
  options.method = "GET";
  options.headers.clear();
  return request(url, "", options);
}

}  // namespace mock_http
