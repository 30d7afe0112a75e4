#pragma once
// The Gemini API's shape (generateContent, streamGenerateContent?alt=sse): its replies, its error
// envelope and its streamed chunks.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "render.hpp"
#include "scenario.hpp"

namespace accord_mock {

// The Gemini API's model paths and Vertex AI's (/v1beta1/projects/{p}/locations/{l}/publishers/
// google/models/{m}:...); matches[2] names the method.
inline constexpr const char* kGeminiRoute =
    R"((?:/v1beta|/v1|/v1(?:beta1)?/projects/[^/]+/locations/[^/]+/publishers/google)/models/)"
    R"(([^/:]+):(generateContent|streamGenerateContent))";

// A GenerateContentResponse: a refusal is a prompt blocked by promptFeedback (Gemini has no
// refusal of its own), a truncation finishReason MAX_TOKENS, a content filter finishReason SAFETY.
[[nodiscard]] RenderedReply render_gemini(const Reply& reply, const nlohmann::json& request,
                                          std::size_t request_bytes, std::uint64_t serial);

// Google's envelope: {"error": {"code", "message", "status"}}, `fields` merged into the error.
[[nodiscard]] RenderedReply render_gemini_error(int status, const nlohmann::json& fields,
                                                std::uint64_t serial);

// The chunks of a rendered (parsed) reply: each text in pieces of `size` bytes, a function call
// whole, the last chunk with finishReason and usageMetadata.
[[nodiscard]] std::vector<std::string> gemini_events(const nlohmann::json& body, std::size_t size);

}  // namespace accord_mock
