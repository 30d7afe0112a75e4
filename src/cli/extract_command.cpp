// accord extract: one extraction from a text, validated and corrected, the value printed in the
// schema's order.

#include <accord/printable.hpp>
#include <accord/schema_order.hpp>
#include <fstream>
#include <iostream>

#include "command.hpp"
#include "extraction.hpp"
#include "fallback_option.hpp"
#include "input_files.hpp"
#include "message_options.hpp"
#include "provider_option.hpp"

namespace accord_cli {
namespace {

struct ExtractCommandArgs : ExtractArgs {
  MessageArgs conversation;
};

void add_options(CLI::App& command, ExtractCommandArgs& args) {
  add_extraction_options(command, args);
  add_message_options(command, args.conversation);
  command.add_option("--input", args.input, "the text to extract from (default: stdin)");
  command.add_option("--trace", args.trace, "write every attempt as JSON to this file");
  add_bounded_option(command, "--timeout", args.timeout_seconds,
                     "seconds the whole extraction may take, every attempt and retry included "
                     "(default 300)",
                     0.001, 86400.0);
  command.add_flag("--stream", args.stream.enabled,
                   "ask for a streamed reply (the trace counts its events)");
  command
      .add_flag("--stop-early", args.stream.stop_at_first_issue,
                "with --stream: stop reading at the first part that breaks a rule and send the "
                "correction at once")
      ->needs("--stream");
  add_fallback_option(command, args.fallbacks);
}

void write_trace(const std::string& file, const accord::Trace& trace) {
  if (file.empty()) return;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << trace.to_json().dump(2) << "\n";
  if (!out) throw Failure{kUsage, "cannot write " + file};
}

int run(const ExtractCommandArgs& args) {
  (void)provider_named(args.provider);  // an unknown name fails before any file is read
  std::string text = read_file(args.input);
  const auto [client, contract, schema, prices] = make_extractor(args);
  accord::ExtractRequest request{.schema = contract};
  add_conversation(args.conversation, kInstructions, std::move(text), request);
  check_writable(args.trace);
  std::cerr << "accord: extracting with " << args.provider
            << (args.model.empty() ? "" : " (model " + args.model + ")") << "\n";

  const auto result = client.extract(request);
  std::cerr << result.trace().to_text() << "\n";
  show_cost({&result.trace()}, prices.get(), model_of(args, client));
  write_trace(args.trace, result.trace());
  if (!result.ok()) {
    std::cerr << "accord: extraction failed: " << accord::to_string(result.error().kind) << ": "
              << accord::printable(result.error().message) << "\n";
    return kInvalid;
  }
  // Who answered: with fallbacks, not always the provider asked first.
  std::cerr << "accord: answered by " << result.trace().provider() << " (model "
            << accord::printable(result.trace().model()) << ")\n";
  std::cout << accord::in_schema_order(result.value(), schema).dump(2) << "\n";
  return 0;
}

}  // namespace

Command extract_command() {
  return command<ExtractCommandArgs>(
      "extract", "extract a value matching the schema from a text, with validation and retries",
      add_options, run);
}

}  // namespace accord_cli
