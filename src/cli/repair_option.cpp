#include "repair_option.hpp"

#include <vector>

namespace accord_cli {

void add_repair_option(CLI::App& command, std::string& policy, const std::string& what) {
  std::vector<std::string> names;
  for (const auto known :
       {accord::RepairPolicy::off, accord::RepairPolicy::lossless, accord::RepairPolicy::lenient})
    names.emplace_back(accord::to_string(known));
  command.add_option("--repair", policy, what)->check(CLI::IsMember(names));
}

accord::RepairPolicy repair_policy_of(const std::string& name) {
  // The option's check admits only the names repair_policy_named reads.
  return accord::repair_policy_named(name).value();
}

}  // namespace accord_cli
