#pragma once
// An assistant message in the provider's own form, kept as JSON text (or, read from a reply, as
// the reply's document until the text is first read) so that reading a reply builds no tree of
// it and a conversation sends it back value for value, members in the order they came (compact;
// escapes and numbers as nlohmann writes them).

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "accord/json_view.hpp"

namespace accord {

// What a provider said as one assistant turn, in its own shape: OpenAI Chat's message, the
// Responses API's output items, Anthropic's and Converse's content blocks, Gemini's parts. The
// text is compact JSON with the members in the order the provider sent them, and codecs write it
// into the next request as it is, so tool-call ids, refusals and signed thinking blocks go back
// unchanged. Empty for a turn accord writes itself (the codec then builds one from the turn's
// text and tool calls).
//
// A message read from a reply keeps the reply's parsed document and is written out the first
// time its text is read (a correction or a tool run sending the conversation again, or the
// caller): a reply that is only judged never pays for the writing. Copies share that one
// writing, and reading the text from several threads at once is safe.
class ProviderMessage {
 public:
  ProviderMessage() = default;
  // A value of a parsed reply, written out now (no tree is built).
  explicit ProviderMessage(JsonView value);
  // A value of `document`, written out when its text is first read; until then the message
  // keeps `document` alive. `value` must be a view into `*document` (with no document, it is
  // written out now).
  ProviderMessage(std::shared_ptr<const JsonDocument> document, JsonView value);
  // A tree, written out; null gives an empty message. Text that is not valid UTF-8 is replaced.
  explicit ProviderMessage(const nlohmann::ordered_json& value);
  explicit ProviderMessage(const nlohmann::json& value);

  ProviderMessage(const ProviderMessage&) = default;
  ProviderMessage& operator=(const ProviderMessage&) = default;
  // A moved-from message is empty (its first byte goes with its text).
  ProviderMessage(ProviderMessage&& other) noexcept
      : unwritten_(std::move(other.unwritten_)),
        text_(std::exchange(other.text_, {})),
        first_(std::exchange(other.first_, '\0')) {}
  ProviderMessage& operator=(ProviderMessage&& other) noexcept {
    unwritten_ = std::move(other.unwritten_);
    text_ = std::exchange(other.text_, {});
    first_ = std::exchange(other.first_, '\0');
    return *this;
  }
  ~ProviderMessage() = default;

  [[nodiscard]] bool empty() const { return first_ == '\0'; }
  [[nodiscard]] bool is_object() const { return first_ == '{'; }
  [[nodiscard]] bool is_array() const { return first_ == '['; }
  // The JSON text; empty when the message is.
  [[nodiscard]] const std::string& text() const;
  // A tree of the message, built on each call (null when empty), members in the provider's order.
  [[nodiscard]] nlohmann::ordered_json tree() const;

  friend bool operator==(const ProviderMessage& a, const ProviderMessage& b) {
    return a.text() == b.text();
  }

 private:
  // The document and the value in it, and the text once written (src/core/provider_message.cpp).
  struct Unwritten;

  std::shared_ptr<Unwritten> unwritten_;  // a message kept with its document; null: text_ is it
  std::string text_;
  char first_ = '\0';  // the text's first byte, known before it is written; '\0' when empty
};

}  // namespace accord
