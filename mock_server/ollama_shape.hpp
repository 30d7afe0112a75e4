#pragma once
// Ollama's native chat API as accord-mock serves it at POST /api/chat: the reply object, its
// error envelope ({"error": "..."}) and its stream (one JSON object per line).

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "render.hpp"
#include "scenario.hpp"

namespace accord_mock {

// A scripted reply as /api/chat sends it: the output in message.content (Ollama has no refusal,
// content filter or forced tool), done_reason "length" for a truncated one, and the mock's token
// counts as prompt_eval_count / eval_count (the scenario's "usage" merged over them).
[[nodiscard]] RenderedReply render_ollama_chat(const Reply& reply, const nlohmann::json& request,
                                               std::size_t request_bytes);

// {"error": message}, the message being the scenario's `message` field when it gives one.
[[nodiscard]] RenderedReply render_ollama_error(int status, const std::string& message,
                                                const nlohmann::json& fields);

// The lines carrying `body` (a successful /api/chat body): content in pieces of `chunk_chars`
// bytes, tool calls whole in one line, then the body itself with empty content and "done": true.
[[nodiscard]] std::vector<std::string> ollama_stream_lines(const nlohmann::json& body,
                                                           std::size_t chunk_chars);

}  // namespace accord_mock
