#pragma once
// Azure OpenAI: what the folder's two shapes (codec.cpp: Chat Completions, responses.cpp: the
// Responses API) and its Batch API (batches.cpp) share; codec.cpp defines the functions.

#include <memory>
#include <string>

#include "providers/batch_protocol.hpp"
#include "providers/lowering.hpp"
#include "providers/wire.hpp"

namespace accord::detail {

// What Azure's strict mode accepts (codec.cpp), for both of its API shapes.
[[nodiscard]] const SchemaCapabilities& azure_strict_capabilities();
// A prompt the content filter blocked (a 400 with code content_filter) read as content_filtered.
[[nodiscard]] Reply with_azure_prompt_filter(Reply reply);

// The /openai/v1 surface (a base URL ending in it): no api-version, the key as a bearer token.
[[nodiscard]] bool azure_v1_surface(const CallSpec& call);
// The key in `api-key` on deployment URLs, else (the v1 surface, an Entra ID token) as a bearer.
[[nodiscard]] Headers azure_headers(const CallSpec& call);
// OPENAI_API_VERSION (what the official SDKs read), else `fallback`.
[[nodiscard]] std::string azure_api_version(const char* fallback);

// What both Azure shapes share as Providers: the key and endpoint variables, the telemetry name,
// no default host, the deployment where a model name goes, and Azure's strict-mode table.
template <class Base>
class AzureResource : public Base {
 public:
  [[nodiscard]] std::string_view telemetry_name() const override { return "azure.ai.openai"; }
  [[nodiscard]] std::string_view api_key_env() const override { return "AZURE_OPENAI_API_KEY"; }
  // The resource's endpoint, https://RESOURCE.openai.azure.com (or .../openai/v1 for the v1
  // surface), as the official SDKs name it.
  [[nodiscard]] std::string_view base_url_env() const override { return "AZURE_OPENAI_ENDPOINT"; }
  // Every resource has its own host: without AZURE_OPENAI_ENDPOINT a request goes nowhere (the
  // .invalid domain never resolves) and the transport error names this.
  [[nodiscard]] std::string_view default_base_url() const override {
    return "https://azure-openai-endpoint-unset.invalid";
  }
  // The deployment's name goes where a model name would.
  [[nodiscard]] std::string_view default_model() const override { return "gpt-4o-mini"; }
  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override {
    return azure_strict_capabilities();
  }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override {
    return lower_schema(emitted, std::move(report), azure_strict_capabilities(),
                        std::string(this->name()));
  }
};

// Azure's Batch API (batches.cpp): the OpenAI Batch API's shape under the resource's /openai.
[[nodiscard]] std::unique_ptr<BatchProtocol> make_azure_batches(const BatchSetup& setup);

}  // namespace accord::detail
