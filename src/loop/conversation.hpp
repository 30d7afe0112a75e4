#pragma once
// The conversation an ExtractRequest asks for, checked before anything is sent.

#include <vector>

#include "accord/client.hpp"

namespace accord::detail {

// `system` (when set) as the first turn, then `messages`, then `prompt` (when set, or when there
// are no messages) as the last user turn. Throws std::invalid_argument, naming the turn, for a
// conversation no provider answers: no turns, an empty user turn, parts outside user turns or
// without bytes or a URL, tool results after no tool calls, or a last turn that is not a user or
// tool-results turn.
[[nodiscard]] std::vector<Turn> conversation_of(const ExtractRequest& request);

}  // namespace accord::detail
