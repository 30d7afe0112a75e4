#pragma once
// URI references as JSON Schema uses them for `$id` and `$ref` (RFC 3986 resolution, fragments).

#include <string>
#include <utility>

namespace accord::detail {

// `reference` resolved against `base` (either may be relative or empty); keeps the fragment.
[[nodiscard]] std::string resolve_uri(const std::string& base, const std::string& reference);
// {"http://x/a.json", "/definitions/b"} for "http://x/a.json#/definitions/b".
[[nodiscard]] std::pair<std::string, std::string> split_fragment(const std::string& uri);
[[nodiscard]] std::string strip_fragment(const std::string& uri);
[[nodiscard]] std::string percent_decoded(const std::string& text);

}  // namespace accord::detail
