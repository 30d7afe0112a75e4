// Small transport helpers shared by CurlTransport, the retry loop and the client's Trace, and
// the waiting form of post_async for transports without one of their own.

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <thread>
#include "core/ascii.hpp"

#include "accord/redaction.hpp"
#include "accord/transport.hpp"

namespace accord {
namespace {

bool is_credential_header(std::string_view name) {
  static constexpr std::array<std::string_view, 6> kExact = {
      "authorization", "proxy-authorization", "x-api-key", "api-key", "cookie", "set-cookie"};
  // Substrings catch vendor-specific names (x-goog-api-key, x-auth-token, client-secret, ...);
  // redacting a harmless header now and then is cheaper than leaking one key.
  static constexpr std::array<std::string_view, 3> kParts = {"key", "token", "secret"};
  const std::string name_lower = detail::ascii_lower(name);
  if (std::find(kExact.begin(), kExact.end(), name_lower) != kExact.end()) return true;
  return std::any_of(kParts.begin(), kParts.end(), [&](std::string_view part) {
    return name_lower.find(part) != std::string::npos;
  });
}

}  // namespace

std::string_view to_string(TransportFailure failure) {
  switch (failure) {
    case TransportFailure::connect:
      return "connect";
    case TransportFailure::timeout:
      return "timeout";
    case TransportFailure::dropped:
      return "dropped";
    case TransportFailure::too_large:
      return "too_large";
    case TransportFailure::tls:
      return "tls";
    case TransportFailure::cancelled:
      return "cancelled";
    case TransportFailure::other:
      return "other";
  }
  return "other";
}

void Transport::post_async(AsyncPost post) {
  if (post.delay.count() > 0) std::this_thread::sleep_for(post.delay);
  TransportResult result;
  if (post.cancelled && post.cancelled->load()) {
    result.error = TransportError{TransportFailure::cancelled, "cancelled"};
  } else {
    result = this->post(post.request);
  }
  if (post.done) post.done(std::move(result));
}

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  const std::string wanted = detail::ascii_lower(name);
  for (const auto& [key, value] : headers) {
    if (detail::ascii_lower(key) == wanted) return value;
  }
  return std::nullopt;
}

Headers redacted_headers(const Headers& headers) {
  Headers out;
  out.reserve(headers.size());
  for (const auto& [name, value] : headers) {
    out.emplace_back(name, is_credential_header(name) ? std::string("[redacted]") : value);
  }
  return out;
}

}  // namespace accord
