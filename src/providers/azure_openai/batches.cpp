// Azure OpenAI's Batch API (global-batch and data-zone-batch deployments): OpenAI's Files + Batch
// API under the resource's /openai, with the deployment named by each line's body `model` and
// the endpoint named without /v1 (`/chat/completions`). Deployment URLs carry their api-version
// to every batch URL; the /openai/v1 surface takes none (docs/providers.md, "Azure OpenAI").

#include "providers/azure_openai/azure_openai.hpp"
#include "providers/openai/openai.hpp"

namespace accord::detail {

std::unique_ptr<BatchProtocol> make_azure_batches(const BatchSetup& setup) {
  const std::string& call = setup.call_url;
  FilesBatchSurface surface{.root = setup.base_url, .query = "", .endpoint = "/chat/completions"};
  // {endpoint}/openai/deployments/{deployment}/chat/completions?api-version=V
  if (const auto deployments = call.find("/openai/deployments/");
      deployments != std::string::npos) {
    surface.root = call.substr(0, deployments) + "/openai";
    const auto query = call.find('?');
    if (query != std::string::npos) surface.query = call.substr(query);
  }
  return make_files_batches(setup, std::move(surface));
}

}  // namespace accord::detail
