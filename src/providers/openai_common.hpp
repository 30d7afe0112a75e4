#pragma once
// What OpenAI Chat Completions, the Responses API and OpenAI-compatible servers share.

#include <optional>
#include <string>

#include "providers/wire.hpp"

namespace accord::detail {

inline constexpr const char* kOpenAIBaseUrl = "https://api.openai.com/v1";

// A tool call's arguments as text: the JSON string as sent, or (some local servers) an object,
// serialised. nullopt for anything else.
[[nodiscard]] std::optional<std::string> arguments_text(const ojson& value);

// What strict mode accepts (both OpenAI APIs share it).
[[nodiscard]] const SchemaCapabilities& openai_strict_capabilities();

// Strict-mode lowering (see lowering.hpp), entries staged as `stage`.
[[nodiscard]] WireSchema lower_openai_strict(const ojson& emitted, Report report,
                                             const std::string& stage);

// `Authorization: Bearer` only when there is a key: local servers and accord-mock need none.
[[nodiscard]] Headers openai_headers(const CallSpec& call);

// Chat Completions, for OpenAI itself and (subclassed) for OpenAI-compatible local servers.
class ChatCompletions : public Provider {
 public:
  [[nodiscard]] std::string_view name() const override { return "openai-chat"; }
  [[nodiscard]] std::string_view api_key_env() const override { return "OPENAI_API_KEY"; }
  [[nodiscard]] std::string_view base_url_env() const override { return "OPENAI_BASE_URL"; }
  [[nodiscard]] std::string_view default_base_url() const override { return kOpenAIBaseUrl; }
  [[nodiscard]] std::string_view default_model() const override { return "gpt-4o-mini"; }
  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override {
    return openai_strict_capabilities();
  }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override;
  [[nodiscard]] HttpRequest encode(const CallSpec& call) const override;
  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode mode) const override;

 protected:
  // o-series models reject max_tokens; Ollama reads only max_tokens.
  [[nodiscard]] virtual const char* max_tokens_field() const { return "max_completion_tokens"; }
};

}  // namespace accord::detail
