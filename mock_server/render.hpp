#pragma once
// Turns a scripted Reply into the exact HTTP reply an endpoint would give.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario.hpp"

namespace accord_mock {

// azure_chat_completions: Chat Completions with Azure's content-filter annotations.
enum class Endpoint {
  chat_completions,
  responses,
  messages,
  gemini,
  converse,
  azure_chat_completions,
  ollama_chat,
};

struct RenderedReply {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string content_type = "application/json";
  std::string body;
};

// The mock's token count: one token per 4 bytes (at least 1), of the request body as received
// for input and of the output text (or tool arguments) for output. Deterministic, so tests and
// bench/ can compare requests by what they would cost; real tokenizers differ in detail, not in
// proportion.
inline constexpr std::size_t kBytesPerToken = 4;
[[nodiscard]] std::int64_t tokens_for(std::size_t bytes);

// `request` is the parsed request body; `request_bytes` its size (for plausible token counts);
// `serial` makes ids unique within the process.
[[nodiscard]] RenderedReply render_reply(Endpoint endpoint, const Reply& reply,
                                         const nlohmann::json& request, std::size_t request_bytes,
                                         std::uint64_t serial);

// A provider-shaped error envelope for `status`, with `fields` merged into the inner error object.
[[nodiscard]] RenderedReply render_error(Endpoint endpoint, int status,
                                         const nlohmann::json& fields, std::uint64_t serial);

// The 404 OpenAI gives for a path it does not serve.
[[nodiscard]] RenderedReply render_not_found(std::string_view method, std::string_view path,
                                             std::uint64_t serial);

// "<prefix>accord000042" (and "_<index>" when index > 0): ids unique within the process.
[[nodiscard]] std::string serial_id(const char* prefix, std::uint64_t serial,
                                    std::size_t index = 0);
[[nodiscard]] std::int64_t now_seconds();

// Grows a body to `size` bytes with JSON whitespace (after the opening brace when the body is an
// object, else at the end), so a JSON body stays valid JSON. Never shrinks.
void pad_body(std::string& body, std::size_t size);

// A JSON string literal of `bytes`, escaping only what JSON requires: bytes >= 0x80 pass through
// unchecked, so invalid UTF-8 reaches the wire as is.
[[nodiscard]] std::string json_string_literal(std::string_view bytes);

// `{"n":{"n":...0...}}` with `depth` objects.
[[nodiscard]] std::string nested_json(std::size_t depth);

// The bytes "invalid_utf8" inserts: FF and FE never occur in UTF-8, and C3 is a lead byte that
// is followed by no continuation byte.
inline constexpr std::string_view kInvalidUtf8 = "\xFF\xFE\xC3";

}  // namespace accord_mock
