#pragma once
// One subcommand of `accord`: its name and help line, the options it adds to its CLI11
// subcommand, and what it runs once they are parsed. main.cpp holds the table of them; each is
// defined in its own <name>_command.cpp. A command ends by returning its exit code or by throwing
// Failure, which main() prints as "accord: <message>" on stderr.

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>

namespace accord_cli {

// Exit codes besides 0 (docs/cli.md lists them all).
constexpr int kInvalid = 1;  // a document invalid, an extraction or a batch item failed
constexpr int kUsage = 2;    // a usage error, an unreadable file, a schema that is not usable

// A failure that ends the command with a message on stderr and an exit code.
struct Failure {
  int code;
  std::string message;
};

struct Command {
  std::string name;
  std::string help;  // one line, shown by `accord --help`
  std::function<void(CLI::App&)> add_options;
  std::function<int()> run;  // called once the command line is parsed into the options
};

// A command whose options are parsed into an `Args` it owns, which `run` then takes.
template <class Args>
Command command(std::string name, std::string help, void (*add_options)(CLI::App&, Args&),
                int (*run)(const Args&)) {
  auto args = std::make_shared<Args>();
  return {std::move(name), std::move(help),
          [args, add_options](CLI::App& app) { add_options(app, *args); },
          [args, run] { return run(*args); }};
}

// The commands, each defined in the file named for it.
Command schema_command();
Command validate_command();
Command extract_command();
Command batch_command();

}  // namespace accord_cli
