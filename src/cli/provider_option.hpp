#pragma once
// The --provider option: the names there are, and the provider a name stands for.

#include <CLI/CLI.hpp>
#include <accord/providers/provider.hpp>
#include <memory>
#include <string>

namespace accord_cli {

// Adds the required --provider option, its help the names there are.
void add_provider_option(CLI::App& command, std::string& provider);

// The provider `name` stands for; an unknown name is a Failure (exit 2) listing the known ones.
[[nodiscard]] std::unique_ptr<accord::Provider> provider_named(const std::string& name);

}  // namespace accord_cli
