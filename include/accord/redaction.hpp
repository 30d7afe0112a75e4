#pragma once
// Credentials kept out of what gets printed or recorded: a request's headers made safe to log.
// (Client::redacted does the same for any text that may echo the client's key.)

#include "accord/http.hpp"

namespace accord {

// Header list with credential values (authorization, x-api-key, api-key, cookies, and any name
// containing "key", "token" or "secret") replaced by "[redacted]".
[[nodiscard]] Headers redacted_headers(const Headers& headers);

}  // namespace accord
