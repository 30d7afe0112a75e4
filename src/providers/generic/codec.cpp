// OpenAI-compatible local servers (llama.cpp, vLLM, Ollama): Chat Completions with the full
// JSON Schema; `strict` is sent but is only a hint there (providers.md §6).

#include "providers/lowering.hpp"
#include "providers/openai_chat/chat_completions.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

// Local servers compile the whole schema into a grammar as far as they can; strict is a hint.
const SchemaCapabilities kGeneric{
    .family = "OpenAI-compatible local servers",
    .full_schema = true,
    .formats = {},
    .numeric_bounds = true,
    .lengths = LengthSupport::not_guaranteed,
    .max_min_items = -1,
    .max_items = true,
    .all_of = true,
    .recursion = true,
    .defaults = true,
    .complex_patterns = true,
    .structured_enums = true,
    .all_required = false,
    .rule_branches = false,
    .size_limits = "none documented; each server has its own grammar limits",
};

class Generic final : public ChatCompletions {
 public:
  [[nodiscard]] std::string_view name() const override { return "generic"; }
  // Whatever server it is, it is not OpenAI's.
  [[nodiscard]] std::string_view telemetry_name() const override { return name(); }
  [[nodiscard]] std::string_view api_key_env() const override { return "ACCORD_GENERIC_API_KEY"; }
  [[nodiscard]] std::string_view base_url_env() const override { return "ACCORD_GENERIC_BASE_URL"; }
  // llama.cpp, vLLM and Ollama serve without a key by default, on whatever host they run.
  [[nodiscard]] bool needs_api_key() const override { return false; }
  // llama.cpp's server default.
  // Local servers serve whatever model they loaded; most ignore the name.
  [[nodiscard]] std::string_view default_model() const override { return "local"; }
  [[nodiscard]] std::string_view default_base_url() const override {
    return "http://127.0.0.1:8080/v1";
  }
  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override { return kGeneric; }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override {
    return lower_schema(emitted, std::move(report), kGeneric, std::string(name()));
  }

 protected:
  // Ollama's compatibility layer reads only max_tokens; vLLM and llama.cpp accept it too.
  [[nodiscard]] const char* max_tokens_field() const override { return "max_tokens"; }
};

}  // namespace

// Streams as Chat Completions does; no batch API.
const ProviderParts& generic_parts() {
  static const ProviderParts kParts{
      .name = "generic",
      .make = []() -> std::unique_ptr<Provider> { return std::make_unique<Generic>(); },
      .stream = make_chat_stream,
      .ask_for_stream = ask_for_chat_stream,
      .batches = nullptr,
  };
  return kParts;
}

}  // namespace accord::detail
