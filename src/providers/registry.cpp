#include "providers/registry.hpp"

#include <array>

#include "accord/batch.hpp"

namespace accord::detail {

// Defined in each provider's folder.
const ProviderParts& openai_chat_parts();
const ProviderParts& openai_responses_parts();
const ProviderParts& anthropic_parts();
const ProviderParts& generic_parts();
const ProviderParts& gemini_parts();
const ProviderParts& bedrock_parts();
const ProviderParts& azure_openai_parts();
const ProviderParts& azure_openai_responses_parts();
const ProviderParts& mistral_parts();
const ProviderParts& llama_cpp_parts();
const ProviderParts& vllm_parts();
const ProviderParts& ollama_parts();

namespace {

// Every provider, one line each, in the order provider_names() lists them (kept one a line
// against clang-format's packing, so adding a provider stays a one-line change).
// clang-format off
constexpr std::array kProviders = {
    &openai_chat_parts,
    &openai_responses_parts,
    &anthropic_parts,
    &generic_parts,
    &gemini_parts,
    &bedrock_parts,
    &azure_openai_parts,
    &azure_openai_responses_parts,
    &mistral_parts,
    &llama_cpp_parts,
    &vllm_parts,
    &ollama_parts,
};
// clang-format on

}  // namespace

const ProviderParts* provider_parts(std::string_view name) {
  for (const auto parts : kProviders) {
    if (parts().name == name) return &parts();
  }
  return nullptr;
}

}  // namespace accord::detail

namespace accord {

std::unique_ptr<Provider> make_provider(std::string_view name) {
  const auto* parts = detail::provider_parts(name);
  return parts != nullptr ? parts->make() : nullptr;
}

std::vector<std::string> provider_names() {
  std::vector<std::string> names;
  for (const auto parts : detail::kProviders) names.emplace_back(parts().name);
  return names;
}

bool has_batch_api(std::string_view provider) {
  const auto* parts = detail::provider_parts(provider);
  return parts != nullptr && parts->batches != nullptr;
}

}  // namespace accord
