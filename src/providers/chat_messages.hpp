#pragma once
// The `messages` array of Chat-Completions-shaped APIs (OpenAI Chat and its compatibles, Ollama's
// native chat): one builder, each API saying how its user, assistant and tool messages differ.

#include <functional>

#include "providers/wire.hpp"

namespace accord::detail {

struct ChatMessageShape {
  // A user turn with images, documents or text parts (one with text only is
  // {"role": "user", "content": text} everywhere).
  std::function<ojson(const Turn&)> user_with_parts;
  // An assistant turn not sent back as received (`raw`): its text and tool calls.
  std::function<ojson(const Turn&)> assistant;
  std::function<ojson(const ToolResult&)> tool_result;
};

// System turns as {"role": "system"} messages, the rest as `shape` says, in the turns' order.
[[nodiscard]] ojson chat_style_messages(const std::vector<Turn>& turns,
                                        const ChatMessageShape& shape);

}  // namespace accord::detail
