#include "providers/chat_messages.hpp"

namespace accord::detail {

ojson chat_style_messages(const std::vector<Turn>& turns, const ChatMessageShape& shape) {
  ojson out = ojson::array();
  for (const auto& turn : turns) {
    switch (turn.role) {
      case Turn::Role::system:
        out.push_back({{"role", "system"}, {"content", turn.text}});
        break;
      case Turn::Role::user:
        out.push_back(turn.parts.empty() ? ojson{{"role", "user"}, {"content", turn.text}}
                                         : shape.user_with_parts(turn));
        break;
      case Turn::Role::assistant:
        // The message exactly as received keeps tool-call ids and refusals intact.
        out.push_back(turn.raw.is_object() ? message_splice(turn.raw) : shape.assistant(turn));
        break;
      case Turn::Role::tool_results:
        for (const auto& result : turn.results) out.push_back(shape.tool_result(result));
        break;
    }
  }
  return out;
}

}  // namespace accord::detail
