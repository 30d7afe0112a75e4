// `azure-openai-responses`: the Responses API through an Azure OpenAI resource. The request and
// reply are the Responses API's own (the openai-responses codec, which this wraps); only where it
// goes and how the key travels are Azure's: `{endpoint}/openai/responses?api-version=...` with the
// key in `api-key` (the deployment's name is the body's `model`), or `{base}/responses` on the
// /openai/v1 surface with a bearer token. The content filter's verdict on a prompt (a 400 with code
// content_filter) is content_filtered, as on Azure's Chat Completions (docs/providers.md, "Azure
// OpenAI").

#include "providers/azure_openai/azure_openai.hpp"
#include "providers/openai_responses/openai_responses.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

const ProviderParts& openai_responses_parts();

namespace {

// The Responses API came to Azure's data plane with 2025-03-01-preview; the latest preview when
// this was written. OPENAI_API_VERSION overrides it.
constexpr const char* kResponsesApiVersion = "2025-04-01-preview";

class AzureOpenAIResponses final : public AzureResource<Provider> {
 public:
  AzureOpenAIResponses()
      : responses_(openai_responses_parts().make()),
        api_version_(azure_api_version(kResponsesApiVersion)) {}

  [[nodiscard]] std::string_view name() const override { return "azure-openai-responses"; }

  // The Responses codec under this provider's name and places (Azure's deployments set the
  // service tier, as on azure-openai), in one pass; the extra headers go over Azure's own.
  [[nodiscard]] HttpRequest encode(const CallSpec& call) const override {
    HttpRequest request = responses_request(call, azure_headers(call), places(), name());
    if (!azure_v1_surface(call))
      request.url = call.base_url + "/openai/responses?api-version=" + api_version_;
    return request;
  }

  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode mode) const override {
    return with_azure_prompt_filter(responses_->decode(response, mode));
  }

 private:
  static const ParameterPlaces& places() {
    static const ParameterPlaces kPlaces = [] {
      auto places = responses_parameter_places();
      places.service_tier = nullptr;
      return places;
    }();
    return kPlaces;
  }

  std::unique_ptr<Provider> responses_;
  std::string api_version_;
};

}  // namespace

// Streams as the Responses API does; no batches (Azure's Batch API is offered on azure-openai).
const ProviderParts& azure_openai_responses_parts() {
  static const ProviderParts kParts{
      .name = "azure-openai-responses",
      .make = []() -> std::unique_ptr<Provider> {
        return std::make_unique<AzureOpenAIResponses>();
      },
      .stream = make_responses_stream,
      .ask_for_stream = nullptr,
      .batches = nullptr,
  };
  return kParts;
}

}  // namespace accord::detail
