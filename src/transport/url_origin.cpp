#include "transport/url_origin.hpp"

#include <curl/curl.h>

#include "core/ascii.hpp"

namespace accord::detail {

std::string origin_of(const std::string& url) {
  CURLU* parsed = curl_url();
  if (parsed == nullptr) return "unknown URL";
  std::string out = "invalid URL";
  if (curl_url_set(parsed, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK) {
    char* scheme = nullptr;
    char* host = nullptr;
    char* port = nullptr;
    if (curl_url_get(parsed, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
        curl_url_get(parsed, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
        curl_url_get(parsed, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK) {
      out = std::string(scheme) + "://" + host + ":" + port;
    }
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
  }
  curl_url_cleanup(parsed);
  return out;
}

bool same_origin(const std::string& a, const std::string& b) {
  const std::string origin = ascii_lower(origin_of(a));
  return origin.find("://") != std::string::npos && origin == ascii_lower(origin_of(b));
}

}  // namespace accord::detail
