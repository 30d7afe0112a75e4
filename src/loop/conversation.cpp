#include "loop/conversation.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace accord::detail {
namespace {

std::string_view role_name(Turn::Role role) {
  switch (role) {
    case Turn::Role::system:
      return "system";
    case Turn::Role::user:
      return "user";
    case Turn::Role::assistant:
      return "assistant";
    case Turn::Role::tool_results:
      return "tool_results";
  }
  return "unknown";
}

[[noreturn]] void refuse(std::size_t n, const Turn& turn, std::string_view problem) {
  throw std::invalid_argument(
      fmt::format("ExtractRequest: turn {} ({}) {}", n, role_name(turn.role), problem));
}

void check_part(std::size_t n, const Turn& turn, std::size_t p, const ContentPart& part) {
  if (part.kind == ContentPart::Kind::text) return;
  const auto say = [&](std::string_view problem) {
    refuse(n, turn, fmt::format("part {} ({}): {}", p, to_string(part.kind), problem));
  };
  if (part.data.empty() && part.url.empty()) say("has neither bytes nor a URL");
  if (!part.data.empty() && !part.url.empty()) say("has both bytes and a URL; give one");
  if (!part.data.empty() && part.media_type.empty()) say("has bytes but no media type");
}

void check_turn(std::size_t n, const Turn& turn, const Turn* before) {
  if (!turn.parts.empty() && turn.role != Turn::Role::user)
    refuse(n, turn, "has content parts; only user turns carry images and documents");
  if (turn.role == Turn::Role::user && turn.text.empty() && turn.parts.empty())
    refuse(n, turn, "has no text and no parts");
  if (turn.role == Turn::Role::tool_results) {
    if (turn.results.empty()) refuse(n, turn, "has no results");
    if (before == nullptr || before->role != Turn::Role::assistant || before->tool_calls.empty())
      refuse(n, turn, "does not follow an assistant turn with tool calls");
  }
  for (std::size_t p = 0; p < turn.parts.size(); ++p) check_part(n, turn, p + 1, turn.parts[p]);
}

}  // namespace

std::vector<Turn> conversation_of(const ExtractRequest& request) {
  std::vector<Turn> turns;
  turns.reserve(request.messages.size() + 2);
  if (!request.system.empty())
    turns.push_back(Turn{.role = Turn::Role::system, .text = request.system});
  turns.insert(turns.end(), request.messages.begin(), request.messages.end());
  // The one-prompt shorthand is a user turn even when empty, as it always was.
  if (!request.prompt.empty() || request.messages.empty())
    turns.push_back(Turn{.role = Turn::Role::user, .text = request.prompt});
  if (request.messages.empty()) return turns;

  const Turn* before = nullptr;  // the last turn not a system one: system turns go apart
  std::size_t before_n = 0;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    check_turn(i + 1, turns[i], before);
    if (turns[i].role == Turn::Role::system) continue;
    before = &turns[i];
    before_n = i + 1;
  }
  if (before == nullptr)
    throw std::invalid_argument("ExtractRequest: the conversation has only system turns");
  if (before->role != Turn::Role::user && before->role != Turn::Role::tool_results) {
    refuse(before_n, *before,
           "ends the conversation; an extraction ends with a user or tool-results turn, which the "
           "model answers");
  }
  return turns;
}

}  // namespace accord::detail
