#include "fallback_option.hpp"

#include "provider_option.hpp"

namespace accord_cli {

void add_fallback_option(CLI::App& command, std::vector<std::string>& fallbacks) {
  command.add_option("--fallback", fallbacks,
                     "PROVIDER:MODEL[@URL], repeatable: tried in order when the provider before it "
                     "is unavailable (429 or 5xx after retries, a timeout, no connection) or "
                     "refuses; the key is the provider's variable, the URL its variable's or its "
                     "public endpoint when no @URL is given");
}

std::vector<accord::Fallback> fallbacks_of(const std::vector<std::string>& values) {
  std::vector<accord::Fallback> out;
  for (const auto& value : values) {
    accord::Fallback fallback;
    const auto colon = value.find(':');
    fallback.provider = value.substr(0, colon);
    (void)provider_named(fallback.provider);  // an unknown name fails before any request
    if (colon != std::string::npos) {
      std::string rest = value.substr(colon + 1);
      // A model id may hold '@' (Vertex AI's claude-...@date): only an '@' that starts a URL
      // ends it.
      for (const char* scheme : {"@http://", "@https://"}) {
        if (const auto at = rest.find(scheme); at != std::string::npos) {
          fallback.base_url = rest.substr(at + 1);
          rest.resize(at);
          break;
        }
      }
      fallback.model = std::move(rest);
    }
    out.push_back(std::move(fallback));
  }
  return out;
}

}  // namespace accord_cli
