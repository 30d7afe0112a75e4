#pragma once
// The origin of a URL, for messages and for records that must name where a request went without
// carrying anything that may be a credential.

#include <string>

namespace accord::detail {

// "scheme://host:port" (the port always, the scheme's default when the URL has none); never the
// user info, path or query. "invalid URL" when curl cannot parse it.
[[nodiscard]] std::string origin_of(const std::string& url);

}  // namespace accord::detail
