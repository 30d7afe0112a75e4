#include "provider_option.hpp"

#include "command.hpp"

namespace accord_cli {
namespace {

// "openai-chat, openai-responses, anthropic, generic".
std::string provider_list() {
  std::string names;
  for (const auto& name : accord::provider_names()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

}  // namespace

void add_provider_option(CLI::App& command, std::string& provider) {
  command.add_option("--provider", provider, provider_list())->required();
}

std::unique_ptr<accord::Provider> provider_named(const std::string& name) {
  auto provider = accord::make_provider(name);
  if (!provider) {
    throw Failure{kUsage, "unknown provider \"" + name + "\" (known: " + provider_list() + ")"};
  }
  return provider;
}

}  // namespace accord_cli
