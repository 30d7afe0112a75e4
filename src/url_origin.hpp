#pragma once
// Where a URL points, as one comparable string: what a failure message names, and what a key is
// sent to only when it matches the configured one.

#include <string>

namespace accord::detail {

// "scheme://host:port" of a URL (the port filled in from the scheme when absent): never the user
// info, path or query, which may carry keys. "invalid URL" when curl cannot parse it.
[[nodiscard]] std::string origin_of(const std::string& url);

// Whether two URLs have one origin (scheme, host and port, case aside); never for a URL that
// does not parse.
[[nodiscard]] bool same_origin(const std::string& a, const std::string& b);

}  // namespace accord::detail
