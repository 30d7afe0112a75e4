#pragma once
// The request parameters as each API checks them: sampling, reasoning, service tier, user and
// metadata, and prompt-cache marks (Anthropic's cache_control, Bedrock's cachePoint). A member a
// real API refuses (the wrong type, out of range, or one that API does not take) gets the 400 it
// would give, so a test sees a codec that puts a parameter in the wrong place fail.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "render.hpp"

namespace accord_mock {

// The 400 message for a parameter the endpoint would refuse, or nullopt.
[[nodiscard]] std::optional<std::string> refused_parameters(Endpoint endpoint,
                                                            const nlohmann::json& request);

}  // namespace accord_mock
