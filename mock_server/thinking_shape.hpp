#pragma once
// accord-mock's check of what Anthropic's Messages API refuses beside extended thinking
// (`"thinking": {"type": "enabled", ...}`): a tool_choice that forces a tool ("any" or "tool"),
// a temperature other than 1, a top_p below 0.95, and an assistant prefill (a last assistant
// message that does not start with a thinking block); and on Bedrock's Converse, Claude's
// thinking in additionalModelRequestFields beside a forced toolChoice or such sampling.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "render.hpp"

namespace accord_mock {

// The 400 message for a request the API refuses beside extended thinking, or nullopt (thinking
// off, another endpoint, or nothing in conflict).
[[nodiscard]] std::optional<std::string> refused_beside_thinking(Endpoint endpoint,
                                                                 const nlohmann::json& request);

}  // namespace accord_mock
