#pragma once
// IP addresses, URIs, IRIs and URI templates as their RFCs write them (string_formats.hpp picks
// one for each `format`).

#include <string_view>

namespace accord::detail {

// Dotted-quad IPv4 (no leading zeros, no shorthand) and RFC 4291 IPv6 text (no zone, no prefix).
[[nodiscard]] bool is_ipv4(std::string_view text);
[[nodiscard]] bool is_ipv6(std::string_view text);
// RFC 3986 URI / URI-reference; with `iri`, RFC 3987's non-ASCII characters are allowed too.
[[nodiscard]] bool is_rfc3986_uri(std::string_view text, bool iri);
[[nodiscard]] bool is_uri_reference(std::string_view text, bool iri);
// RFC 6570 URI Template (levels 1-4).
[[nodiscard]] bool is_uri_template(std::string_view text);

}  // namespace accord::detail
