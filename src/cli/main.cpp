// The accord command: see what a JSON Schema becomes for a provider, validate documents against
// it, and run an extraction or a batch of them, from the shell. docs/cli.md describes it; exit
// codes:
//   0  done (every document valid, the extraction or every batch item succeeded)
//   1  a document is invalid (validate) or an extraction failed (extract, batch)
//   2  usage error, unreadable file, or a schema that is not usable
//   130, 143  batch stopped by SIGINT, SIGTERM (its state file kept for --resume)
//
// This file dispatches: each command is a row of the table below, defined in its own file.

#include <CLI/CLI.hpp>
#include <accord/printable.hpp>
#include <accord/version.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "command.hpp"

namespace {

using accord_cli::Command;

// The commands, in the order `accord --help` lists them.
std::vector<Command> commands() {
  return {accord_cli::schema_command(), accord_cli::validate_command(),
          accord_cli::extract_command(), accord_cli::batch_command()};
}

// CLI11 says only "A subcommand is required" when the first word is not a command: the message
// for that names the word and the commands there are, or is empty when the word is a command.
std::string unknown_command(const std::vector<Command>& table, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return "";
  std::string names;
  for (const auto& command : table) {
    if (command.name == argv[1]) return "";
    names += (names.empty() ? "" : ", ") + command.name;
  }
  return "unknown command " + accord::printable(argv[1]) + "; the commands are " + names;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "accord: see what a JSON Schema becomes for an LLM provider, validate documents "
      "against it, and extract with it, one document at a time or as batch jobs"};
  app.set_version_flag("--version", "accord " + std::string(accord::version()));
  app.require_subcommand(1);
  const auto table = commands();
  std::vector<CLI::App*> subcommands;
  for (const auto& command : table) {
    subcommands.push_back(app.add_subcommand(command.name, command.help));
    command.add_options(*subcommands.back());
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (const auto message = unknown_command(table, argc, argv); !message.empty()) {
      std::cerr << "accord: " << message << "\n";
      return accord_cli::kUsage;
    }
    const int code = app.exit(e);
    return code == 0 ? 0 : accord_cli::kUsage;
  }
  try {
    for (std::size_t i = 0; i < table.size(); ++i) {
      if (subcommands[i]->parsed()) return table[i].run();
    }
    // require_subcommand(1) makes this unreachable.
    throw accord_cli::Failure{accord_cli::kUsage, "no command was given"};
  } catch (const accord_cli::Failure& failure) {
    std::cerr << "accord: " << failure.message << "\n";
    return failure.code;
  } catch (const std::exception& e) {
    std::cerr << "accord: " << accord::printable(e.what()) << "\n";
    return accord_cli::kUsage;
  }
}
