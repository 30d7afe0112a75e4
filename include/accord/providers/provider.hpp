#pragma once
// A provider profile: lower a JSON Schema to what the provider accepts, encode a request, decode
// a reply. Each provider implements it in its own folder, src/providers/<name>/.

#include <cstdlib>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/http.hpp"
#include "accord/providers/capabilities.hpp"
#include "accord/reply.hpp"
#include "accord/report.hpp"
#include "accord/request_parameters.hpp"

namespace accord {

// How the wire schema differs from the original, so a reply can be mapped back before validation.
struct Lowering {
  std::vector<Path> nulled_optionals;  // optional fields made required+nullable: null means absent
  // Optional fields that already took null, made required: an absent one is sent as null, and
  // the null stays (only lower_value reads these).
  std::vector<Path> null_for_absent;
  bool wrapped_root = false;  // a non-object root sent as {"value": ...}
  // Objects with a schema for other keys sent as [{"key", "value"}] lists (`{}` in a path stands
  // for every value of a map): turned back into objects.
  std::vector<Path> pair_lists;
  // Recursive schemas keep `$ref`s into `$defs` on the wire: each definition's own lowering, and
  // where in the value (relative to this one's) each reference to a definition sits.
  std::vector<Lowering> definitions;
  std::vector<std::pair<Path, std::size_t>> references;
};

struct WireSchema {
  nlohmann::ordered_json schema;
  Report report;  // the emit Report, with the provider's changes recorded
  Lowering lowering;
};

// Undo lowering on a reply value so the user's original rules apply.
[[nodiscard]] nlohmann::json unlower(nlohmann::json value, const Lowering& lowering);
// Which option of the union at `site` (a path as the Report writes it: `[]` array items, `{}`
// record values, `|i` options) `value` is, or nullopt when that cannot be told. accord's
// matching_union_option (validate.hpp) judges with the original schema.
using OptionChoice =
    std::function<std::optional<std::size_t>(const nlohmann::json& value, const Path& site)>;
// The other way: a value valid for the original schema as the wire carries it (absent optionals
// as null, maps as lists of entries, a wrapped root); unlower() gives the value back. Inside a
// union, only the option `choose` names for the value gets its absent optionals filled; without
// `choose` (or when it cannot tell), every option's are, so a value of one object option can get
// nulls of another's.
[[nodiscard]] nlohmann::json lower_value(nlohmann::json value, const Lowering& lowering,
                                         const OptionChoice& choose = {});

struct ToolSpec {
  std::string name;
  std::string description;
  WireSchema input;
};

enum class OutputMode {
  response_format,  // the provider's structured-output field
  forced_tool,      // a single tool the model must call; its input is the output
  // Whichever of the two the provider names for the model (Provider::output_mode_for): the
  // response format everywhere but Bedrock, whose models differ. Resolved before encoding.
  per_model,
};

// How a provider asks one model for structured output, and why (a sentence for the Trace).
struct ModelOutputMode {
  OutputMode mode = OutputMode::response_format;  // never per_model
  std::string why;                                // empty: the provider asks every model alike
};

struct CallSpec {
  std::string base_url;  // e.g. https://api.openai.com/v1 (no trailing slash)
  std::string api_key;   // may be empty (local servers, accord-mock)
  std::string model;
  int max_tokens = 1024;
  // This request's own output cap (a truncation retry's raised cap, a budget's remainder), which
  // Client::exchange keeps instead of ClientOptions::max_tokens; 0: the client's.
  int output_cap = 0;
  std::vector<Turn> turns;
  // Structured output (optional): name + wire schema + how to ask for it.
  std::optional<std::string> output_name;
  const WireSchema* output = nullptr;
  // `output->schema` as JSON text, when the caller keeps it (a Contract serialises its wire
  // schema once): the body then carries this text instead of a copy serialised per request.
  const std::string* output_text = nullptr;
  OutputMode mode = OutputMode::response_format;
  // Tools (optional).
  std::vector<ToolSpec> tools;
  // Sampling, reasoning, caching, extra headers and body (Client::exchange merges this over
  // ClientOptions::parameters); a parameter the provider does not take makes encode() throw
  // std::invalid_argument.
  RequestParameters parameters;
  // The model must call one of `tools` rather than answer in text (a tool run whose final answer
  // goes as a tool beside the others): Anthropic `tool_choice: any`, Bedrock `toolChoice: any`,
  // OpenAI `tool_choice: required`, Gemini `functionCallingConfig.mode: ANY`; Ollama takes no
  // choice, so nothing holds its model to a call. With thinking on, Claude refuses a forced
  // choice: auto there.
  bool tool_required = false;
};

class Provider {
 public:
  virtual ~Provider() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // The provider as OpenTelemetry's GenAI conventions name it (gen_ai.provider.name): "openai"
  // for both OpenAI shapes; a provider with no well-known name keeps accord's.
  [[nodiscard]] virtual std::string_view telemetry_name() const { return name(); }
  // Environment variables for the key and base URL, and the default base URL.
  [[nodiscard]] virtual std::string_view api_key_env() const = 0;
  [[nodiscard]] virtual std::string_view base_url_env() const = 0;
  [[nodiscard]] virtual std::string_view default_base_url() const = 0;
  [[nodiscard]] virtual std::string_view default_model() const = 0;
  // A second variable the key is read from when the first is empty or unset (empty: none).
  [[nodiscard]] virtual std::string_view api_key_fallback_env() const { return {}; }
  // Whether a request to an endpoint off this machine needs an API key: a client with none
  // refuses to send (Client::extract and the rest throw std::invalid_argument) rather than send a
  // request that can only be refused.
  [[nodiscard]] virtual bool needs_api_key() const { return true; }
  // The key when ClientOptions::api_key is empty: the api_key_env() variable, else the
  // api_key_fallback_env() one, unless the provider's credentials span several variables
  // (Bedrock's AWS keys), which it joins.
  [[nodiscard]] virtual std::string api_key_from_environment() const {
    for (const auto variable : {api_key_env(), api_key_fallback_env()}) {
      if (variable.empty()) continue;
      const char* value = std::getenv(std::string(variable).c_str());
      if (value != nullptr && *value != '\0') return value;
    }
    return "";
  }

  // What the provider's schema decoder accepts; lower() follows it.
  [[nodiscard]] virtual const SchemaCapabilities& schema_capabilities() const = 0;
  [[nodiscard]] virtual WireSchema lower(const nlohmann::ordered_json& emitted,
                                         Report report) const = 0;
  // Whether a final assistant turn makes the model continue its text (a prefill, sent without
  // trailing whitespace: Anthropic refuses it), so a truncated output is continued, not redone.
  [[nodiscard]] virtual bool continues_assistant_prefill() const { return false; }
  // How structured output goes to `model` when the call leaves it to the provider
  // (OutputMode::per_model): the response format unless the provider knows the model lacks one.
  [[nodiscard]] virtual ModelOutputMode output_mode_for(std::string_view /*model*/) const {
    return {};
  }
  [[nodiscard]] virtual HttpRequest encode(const CallSpec& call) const = 0;
  [[nodiscard]] virtual Reply decode(const HttpResponse& response, OutputMode mode) const = 0;
};

// The provider of that name (one of provider_names()); nullptr for an unknown name.
[[nodiscard]] std::unique_ptr<Provider> make_provider(std::string_view name);
[[nodiscard]] std::vector<std::string> provider_names();

}  // namespace accord
