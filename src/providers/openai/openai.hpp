#pragma once
// What OpenAI Chat Completions and the Responses API share: the key, base URL and default model,
// strict-mode schemas, the bearer header, tool-call arguments, usage numbers and the Batch API.

#include <memory>
#include <optional>
#include <string>

#include "providers/batch_protocol.hpp"
#include "providers/wire.hpp"

namespace accord::detail {

// A tool call's arguments as text: the JSON string as sent, or (some local servers) an object,
// serialised. nullopt for anything else.
[[nodiscard]] std::optional<std::string> arguments_text(JsonView value);

// What strict mode accepts (both OpenAI APIs share it).
[[nodiscard]] const SchemaCapabilities& openai_strict_capabilities();

// `Authorization: Bearer` only when there is a key: local servers and accord-mock need none.
[[nodiscard]] Headers openai_headers(const CallSpec& call);

// The body's `usage`: both shapes report a total beside the input and output counts, which they
// name differently. Zeros where the body has none.
[[nodiscard]] Usage openai_usage(JsonView body, std::string_view input_key,
                                 std::string_view output_key);

// The Batch API (upload a JSONL file, create a batch on it, read its output and error files),
// for either shape: each line names the endpoint its direct call goes to.
[[nodiscard]] std::unique_ptr<BatchProtocol> make_openai_batches(const BatchSetup& setup);

// Where an API of the OpenAI Batch API's shape lives: OpenAI's own at the base URL, Azure's
// under /openai with an api-version on every URL.
struct FilesBatchSurface {
  std::string root;      // {root}/files, {root}/batches
  std::string query;     // after every path ("?api-version=..."), or ""
  std::string endpoint;  // what the batch and each input line name as the calls' endpoint
};
[[nodiscard]] std::unique_ptr<BatchProtocol> make_files_batches(const BatchSetup& setup,
                                                                FilesBatchSurface surface);

// Steps other batch APIs share with OpenAI's: the JSONL upload (multipart, purpose `batch`) to
// `url`, and one line of an output or error file (`response.status_code` and `body`, or `error`).
[[nodiscard]] HttpResponse upload_batch_file(const BatchProtocol& protocol, const std::string& url,
                                             const std::string& jsonl);
[[nodiscard]] BatchAnswer openai_batch_answer(const nlohmann::ordered_json& line);

// Either OpenAI shape as a Provider: OpenAI's key, URLs and model, strict-mode schemas.
class OpenAIProvider : public Provider {
 public:
  [[nodiscard]] std::string_view telemetry_name() const override { return "openai"; }
  [[nodiscard]] std::string_view api_key_env() const override { return "OPENAI_API_KEY"; }
  [[nodiscard]] std::string_view base_url_env() const override { return "OPENAI_BASE_URL"; }
  [[nodiscard]] std::string_view default_base_url() const override {
    return "https://api.openai.com/v1";
  }
  [[nodiscard]] std::string_view default_model() const override { return "gpt-4o-mini"; }
  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override {
    return openai_strict_capabilities();
  }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override;
};

}  // namespace accord::detail
