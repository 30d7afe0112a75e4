#pragma once
// The --repair option: the policies there are, each command with its own default.

#include <CLI/CLI.hpp>
#include <accord/repair.hpp>
#include <string>

namespace accord_cli {

// Adds --repair to `command`, taking the policy names accord::repair_policy_named knows; `what`
// says what the policy does there and names its default.
void add_repair_option(CLI::App& command, std::string& policy, const std::string& what);

// The policy add_repair_option let through.
[[nodiscard]] accord::RepairPolicy repair_policy_of(const std::string& name);

}  // namespace accord_cli
