#pragma once
// accord-mock's check of a request's conversation as each API shapes it: the roles each takes
// and their order, and every image or document part (its media type among the API's, its base64
// decoding, and bytes that are what the media type says).

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "render.hpp"

namespace accord_mock {

// The 400 message for a conversation the API would refuse, naming the message and part; nullopt
// for a well-formed one.
[[nodiscard]] std::optional<std::string> malformed_messages(Endpoint endpoint,
                                                            const nlohmann::json& request);

}  // namespace accord_mock
