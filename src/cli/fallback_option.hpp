#pragma once
// The --fallback option of accord extract: PROVIDER:MODEL[@URL], repeatable, tried in order when
// the provider before it is unavailable or refuses.

#include <CLI/CLI.hpp>
#include <accord/fallback.hpp>
#include <string>
#include <vector>

namespace accord_cli {

void add_fallback_option(CLI::App& command, std::vector<std::string>& fallbacks);

// Each value as a Fallback: the provider before the first ':', the model after it (empty: the
// provider's default; a model may hold ':' and '@'), the base URL after an '@' that starts
// http:// or https:// (else the provider's base-URL variable, then its public endpoint). The key
// is the provider's key variable. An unknown provider is a Failure listing the known ones.
[[nodiscard]] std::vector<accord::Fallback> fallbacks_of(const std::vector<std::string>& values);

}  // namespace accord_cli
