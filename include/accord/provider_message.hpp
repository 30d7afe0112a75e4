#pragma once
// An assistant message in the provider's own form, kept as JSON text so that reading a reply
// builds no tree of it and a conversation sends it back value for value, members in the order
// they came (compact; escapes and numbers as nlohmann writes them).

#include <nlohmann/json.hpp>
#include <string>

#include "accord/json_view.hpp"

namespace accord {

// What a provider said as one assistant turn, in its own shape: OpenAI Chat's message, the
// Responses API's output items, Anthropic's and Converse's content blocks, Gemini's parts. The
// text is compact JSON with the members in the order the provider sent them, and codecs write it
// into the next request as it is, so tool-call ids, refusals and signed thinking blocks go back
// unchanged. Empty for a turn accord writes itself (the codec then builds one from the turn's
// text and tool calls).
class ProviderMessage {
 public:
  ProviderMessage() = default;
  // A value of a parsed reply, written out (no tree is built).
  explicit ProviderMessage(JsonView value);
  // A tree, written out; null gives an empty message. Text that is not valid UTF-8 is replaced.
  explicit ProviderMessage(const nlohmann::ordered_json& value);
  explicit ProviderMessage(const nlohmann::json& value);

  [[nodiscard]] bool empty() const { return text_.empty(); }
  [[nodiscard]] bool is_object() const { return !text_.empty() && text_.front() == '{'; }
  [[nodiscard]] bool is_array() const { return !text_.empty() && text_.front() == '['; }
  // The JSON text; empty when the message is.
  [[nodiscard]] const std::string& text() const { return text_; }
  // A tree of the message, built on each call (null when empty), members in the provider's order.
  [[nodiscard]] nlohmann::ordered_json tree() const;

  friend bool operator==(const ProviderMessage&, const ProviderMessage&) = default;

 private:
  std::string text_;
};

}  // namespace accord
