#pragma once
// A rendered reply as the provider streams it (server-sent events, when the request has
// "stream": true): the same body, cut into each API's own events.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "render.hpp"

namespace accord_mock {

// The events, each with its blank line, that carry `body` (a successful non-streamed body of
// `endpoint`): output text and tool arguments in pieces of `chunk_chars` bytes (never inside a
// UTF-8 character). Chat Completions sends the usage chunk only when `include_usage`. A body
// that is not JSON goes out as one event holding it, as a broken server would send it.
[[nodiscard]] std::vector<std::string> stream_events(Endpoint endpoint, const std::string& body,
                                                     bool include_usage, std::size_t chunk_chars);

// `text` in pieces of `size` bytes, never cutting a UTF-8 character.
[[nodiscard]] std::vector<std::string> pieces(std::string_view text, std::size_t size);

// An event whose data is not JSON, for the "malformed" fault.
inline constexpr const char* kMalformedEvent = "data: {\"choices\": [{\"delta\": \n\n";

}  // namespace accord_mock
