#pragma once
// An OpenAI-compatible local server (llama.cpp, vLLM, any other): Chat Completions with the whole
// schema, less what the server's grammar cannot take (its SchemaCapabilities), and no key by
// default.

#include <memory>
#include <string>
#include <string_view>

#include "providers/openai_chat/chat_completions.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

struct LocalServerProfile {
  std::string_view name;
  std::string_view api_key_env;
  std::string_view base_url_env;
  std::string_view default_base_url;
  const SchemaCapabilities* capabilities = nullptr;
  const PartRules* parts = nullptr;  // what it takes of images and documents; nullptr: OpenAI's
};

class LocalServer final : public ChatCompletions {
 public:
  explicit LocalServer(const LocalServerProfile& profile) : profile_(profile) {}
  [[nodiscard]] std::string_view name() const override { return profile_.name; }
  // Whatever server it is, it is not OpenAI's; the conventions list none of these.
  [[nodiscard]] std::string_view telemetry_name() const override { return profile_.name; }
  [[nodiscard]] std::string_view api_key_env() const override { return profile_.api_key_env; }
  [[nodiscard]] std::string_view base_url_env() const override { return profile_.base_url_env; }
  // Local servers serve without a key by default, on whatever host they run.
  [[nodiscard]] bool needs_api_key() const override { return false; }
  // They serve whatever model they loaded; most ignore the name.
  [[nodiscard]] std::string_view default_model() const override { return "local"; }
  [[nodiscard]] std::string_view default_base_url() const override {
    return profile_.default_base_url;
  }
  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override {
    return *profile_.capabilities;
  }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override;

 protected:
  // Ollama's compatibility layer reads only max_tokens; vLLM and llama.cpp accept it too.
  [[nodiscard]] const char* max_tokens_field() const override { return "max_tokens"; }
  [[nodiscard]] const PartRules& part_rules() const override {
    return profile_.parts != nullptr ? *profile_.parts : ChatCompletions::part_rules();
  }

  // The sampling parameters llama.cpp's and vLLM's servers document; OpenAI's account fields
  // (service tier, user, metadata) and reasoning effort are not theirs.
  [[nodiscard]] const ParameterPlaces& parameter_places() const override {
    static const ParameterPlaces kPlaces{
        .temperature = "/temperature", .top_p = "/top_p", .seed = "/seed", .stop = "/stop"};
    return kPlaces;
  }

 private:
  const LocalServerProfile& profile_;
};

// What every server that takes the whole schema shares (each one then says what its grammar
// skips or rejects): everything sent as written, `strict` only a hint.
[[nodiscard]] SchemaCapabilities full_schema_capabilities(std::string family);

// The parts of a local server's profile: Chat Completions' stream, no batch API.
[[nodiscard]] ProviderParts local_server_parts(std::string_view name,
                                               std::unique_ptr<Provider> (*make)());

}  // namespace accord::detail
