#pragma once
// The origin of a URL, for messages and for records that must name where a request went without
// carrying anything that may be a credential.

#include <string>

namespace accord::detail {

// "scheme://host:port" (the port always, the scheme's default when the URL has none); never the
// user info, path or query. "invalid URL" when curl cannot parse it.
[[nodiscard]] std::string origin_of(const std::string& url);

// Whether two URLs have one origin (scheme, host and port, case aside); never for a URL that
// does not parse. A key goes only where the configured URL's origin is.
[[nodiscard]] bool same_origin(const std::string& a, const std::string& b);

}  // namespace accord::detail
