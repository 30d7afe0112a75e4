#include "transport/aws_signature.hpp"

#include <algorithm>
#include <ctime>
#include <map>
#include <vector>

#include "core/ascii.hpp"
#include "core/sha256.hpp"

namespace accord::detail {
namespace {

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> out;
  for (std::size_t from = 0; from <= text.size();) {
    const auto to = std::min(text.find(separator, from), text.size());
    out.emplace_back(text.substr(from, to - from));
    from = to + 1;
  }
  return out;
}

// The path as sent, percent-encoded once more (unreserved characters and '/' kept).
std::string canonical_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~' || c == '/') {
      out.push_back(c);
    } else {
      out += {'%', kHex[u >> 4], kHex[u & 0xFU]};
    }
  }
  return out.empty() ? "/" : out;
}

// The query's pairs, already encoded as sent, in order.
std::string canonical_query(std::string_view query) {
  if (query.empty()) return {};
  auto pairs = split(query, '&');
  std::erase(pairs, std::string());
  for (auto& pair : pairs) {
    if (pair.find('=') == std::string::npos) pair += '=';
  }
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const auto& pair : pairs) out += (out.empty() ? "" : "&") + pair;
  return out;
}

std::string amz_date(std::chrono::system_clock::time_point now) {
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[20];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

}  // namespace

Headers aws_sigv4_headers(const HttpRequest& request, std::chrono::system_clock::time_point now) {
  const auto scope_parts = split(request.aws_sigv4, ':');
  const auto colon = request.aws_credentials.find(':');
  if (scope_parts.size() != 4 || colon == std::string::npos) return {};
  const std::string& region = scope_parts[2];
  const std::string& service = scope_parts[3];
  const std::string key_id = request.aws_credentials.substr(0, colon);
  const std::string secret = request.aws_credentials.substr(colon + 1);

  // scheme://[user@]authority/path?query
  std::string_view rest = request.url;
  if (const auto scheme = rest.find("://"); scheme != std::string_view::npos) {
    rest.remove_prefix(scheme + 3);
  }
  const auto path_at = std::min(rest.find_first_of("/?#"), rest.size());
  std::string_view authority = rest.substr(0, path_at);
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
  }
  std::string_view target = rest.substr(path_at);
  target = target.substr(0, target.find('#'));
  const auto q = target.find('?');
  const std::string_view path = target.substr(0, q);
  const std::string_view query = q == std::string_view::npos ? "" : target.substr(q + 1);

  const std::string date = amz_date(now);
  const std::string payload_hash = hex(sha256(request.body));
  std::map<std::string, std::string> signed_headers{{"host", std::string(authority)},
                                                    {"x-amz-date", date},
                                                    {"x-amz-content-sha256", payload_hash}};
  for (const auto& [name, value] : request.headers) {
    const std::string lower = ascii_lower(name);
    if (lower == "content-type" || lower.starts_with("x-amz-")) signed_headers[lower] = value;
  }
  std::string names;
  std::string canonical_headers;
  for (const auto& [name, value] : signed_headers) {
    names += (names.empty() ? "" : ";") + name;
    canonical_headers += name + ":" + value + "\n";
  }
  const std::string canonical_request = request.method + "\n" + canonical_path(path) + "\n" +
                                        canonical_query(query) + "\n" + canonical_headers + "\n" +
                                        names + "\n" + payload_hash;
  const std::string day = date.substr(0, 8);
  const std::string scope = day + "/" + region + "/" + service + "/aws4_request";
  const std::string string_to_sign =
      "AWS4-HMAC-SHA256\n" + date + "\n" + scope + "\n" + hex(sha256(canonical_request));
  std::string key = bytes(hmac_sha256("AWS4" + secret, day));
  for (const std::string& part : {region, service, std::string("aws4_request")}) {
    key = bytes(hmac_sha256(key, part));
  }
  const std::string signature = hex(hmac_sha256(key, string_to_sign));
  return {{"x-amz-date", date},
          {"x-amz-content-sha256", payload_hash},
          {"authorization", "AWS4-HMAC-SHA256 Credential=" + key_id + "/" + scope +
                                ", SignedHeaders=" + names + ", Signature=" + signature}};
}

}  // namespace accord::detail
