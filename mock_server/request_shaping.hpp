#pragma once
// What the request itself changes about a scripted reply: a request a real API would refuse,
// and an output held to the request's output cap and continued after an assistant prefill.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "render.hpp"
#include "scenario.hpp"

namespace accord_mock {

// The 400 message a real API gives for a request it refuses on its shape, or nullopt: a
// conversation or image/document part malformed for the API (message_shape.hpp); Anthropic
// refuses an assistant prefill together with structured output (`output_config.format`), and a
// forced tool or a prefill beside extended thinking (thinking_shape.hpp).
[[nodiscard]] std::optional<std::string> refused_request(Endpoint endpoint,
                                                         const nlohmann::json& request);

// `reply` as an `obey_max_tokens` reply is sent for `request`: on Anthropic, when the messages
// end in an assistant turn the output starts with, only the rest of the output; then, when that
// is longer than the request's output cap (max_tokens, max_completion_tokens or
// max_output_tokens, at tokens_for's 4 bytes a token), its first part as a truncated reply.
// Any other reply is returned as it is.
[[nodiscard]] Reply shaped_by_request(Reply reply, Endpoint endpoint,
                                      const nlohmann::json& request);

}  // namespace accord_mock
