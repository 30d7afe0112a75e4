#pragma once
// What every provider's reply renderer shares (render.cpp defines it): splicing bytes nlohmann
// cannot write into a document, the payload modifiers, and the calls a reply answers with.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "render.hpp"
#include "scenario.hpp"

namespace accord_mock {

// Content that nlohmann cannot or should not serialise (invalid UTF-8, 100k-deep nesting) is put
// in the document as a unique placeholder string and spliced into the serialised text afterwards.
class Splicer {
 public:
  Splicer() {
    static const std::uint64_t process_nonce = std::random_device{}();
    nonce_ = std::to_string(process_nonce);
  }

  // `fragment` must be valid JSON text, apart from the bytes it is meant to carry.
  nlohmann::ordered_json raw(std::string fragment) {
    auto token = "@@accord-splice-" + nonce_ + "-" + std::to_string(fragments_.size()) + "@@";
    fragments_.emplace_back("\"" + token + "\"", std::move(fragment));
    return token;
  }
  nlohmann::ordered_json string(std::string_view bytes) { return raw(json_string_literal(bytes)); }

  [[nodiscard]] std::string serialise(const nlohmann::ordered_json& document) const {
    auto text = document.dump();
    for (const auto& [quoted_token, fragment] : fragments_) {
      const auto at = text.find(quoted_token);
      if (at != std::string::npos) text.replace(at, quoted_token.size(), fragment);
    }
    return text;
  }

 private:
  std::string nonce_;
  std::vector<std::pair<std::string, std::string>> fragments_;
};

// The text a reply carries, after the nest_depth and invalid_utf8 modifiers.
[[nodiscard]] std::string payload_text(const Reply& reply, std::string text);
// The same, for payloads that travel as JSON values (Anthropic tool input, Gemini args).
[[nodiscard]] std::string payload_json(const Reply& reply, std::string json_text);

[[nodiscard]] const nlohmann::json* member(const nlohmann::json& object, const char* key);
[[nodiscard]] std::optional<std::string> string_member(const nlohmann::json& object,
                                                       const char* key);
// The model a request names, which replies echo; "accord-mock" when it names none.
[[nodiscard]] std::string model_of(const nlohmann::json& request);

struct CallOut {
  std::string id;
  std::string name;
  std::string arguments_text;  // OpenAI: the arguments string's content
  std::string input_json;      // Anthropic: the input value's JSON text
};

// The calls a reply answers with: its tool_calls, or the forced tool called with its json value.
[[nodiscard]] std::vector<CallOut> calls_for(const Reply& reply,
                                             const std::optional<std::string>& forced,
                                             const char* id_prefix, std::uint64_t serial);

// What a reply puts in a content-block body (Anthropic Messages, Bedrock Converse, Gemini parts),
// the step those renderers share: the calls it answers with (a forced tool answered with its json
// value, or scripted tool calls), else the text the model wrote (the json value's text, or the
// reply's text for text, truncated and a content filter that has any; a refusal's words are each
// API's own matter). Each renderer shapes the blocks and names the ending its way.
struct ReplyContent {
  bool calls_tool = false;
  std::vector<CallOut> calls;       // when calls_tool
  std::optional<std::string> text;  // before payload_text
};
[[nodiscard]] ReplyContent reply_content(const Reply& reply,
                                         const std::optional<std::string>& forced,
                                         const char* id_prefix, std::uint64_t serial);

// The default error message for an HTTP status, the same words on every endpoint.
[[nodiscard]] const char* error_message(int status);

// The bytes of output a reply carries, for its token count.
[[nodiscard]] std::size_t content_bytes(const Reply& reply);

}  // namespace accord_mock
