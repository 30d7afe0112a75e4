#include "providers/wire.hpp"

namespace accord {

std::unique_ptr<Provider> make_provider(std::string_view name) {
  if (name == "openai-chat") return detail::make_openai_chat();
  if (name == "openai-responses") return detail::make_openai_responses();
  if (name == "anthropic") return detail::make_anthropic();
  if (name == "generic") return detail::make_generic();
  return nullptr;
}

std::vector<std::string> provider_names() {
  return {"openai-chat", "openai-responses", "anthropic", "generic"};
}

}  // namespace accord
