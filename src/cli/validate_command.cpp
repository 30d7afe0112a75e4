// accord validate: documents checked against a JSON Schema file as written, one file or one
// document a line.

#include <accord/printable.hpp>
#include <accord/validate.hpp>
#include <iostream>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "input_files.hpp"

namespace accord_cli {
namespace {

struct ValidateArgs {
  std::string schema;
  std::string documents;
  bool summary = false;
  std::vector<std::string> ref_maps;  // URI_PREFIX=DIR
  std::string format_mode = "assertion";
};

void add_options(CLI::App& command, ValidateArgs& args) {
  add_schema_file_argument(command, args.schema);
  command.add_option("DOCS", args.documents, "the documents")->required();
  command.add_flag("--summary", args.summary, "print the counts only");
  command.add_option("--ref-map", args.ref_maps,
                     "URI_PREFIX=DIR: read $refs under URI_PREFIX from files in DIR (repeatable; "
                     "the network is never used)");
  command
      .add_option("--format-mode", args.format_mode,
                  "assertion (default): `format` is checked; annotation: it is not")
      ->check(CLI::IsMember({"assertion", "annotation"}));
}

// The validator for `accord validate`: the schema file as written (recursive, remote and
// anchored references included; no lowering is involved), remote documents from --ref-map.
accord::Validator load_validator(const ValidateArgs& args) {
  accord::ValidatorOptions options;
  options.formats = args.format_mode == "annotation" ? accord::FormatMode::annotation
                                                     : accord::FormatMode::assertion;
  for (const auto& entry : args.ref_maps) {
    const auto equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw Failure{kUsage, "--ref-map takes URI_PREFIX=DIR, not " + entry};
    }
    options.registry.directories[entry.substr(0, equals)] = entry.substr(equals + 1);
  }
  const nlohmann::ordered_json document = read_schema_document(args.schema);
  try {
    return accord::Validator::from_json_schema(document, options);
  } catch (const accord::SchemaError& e) {
    throw unusable(args.schema, e);
  }
}

bool is_jsonl(const std::string& file) {
  auto ends_with = [&](std::string_view suffix) {
    return file.size() >= suffix.size() &&
           file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with(".jsonl") || ends_with(".ndjson") || file == "-";
}

int run(const ValidateArgs& args) {
  const auto validator = load_validator(args);
  const auto text = read_file(args.documents);

  std::size_t total = 0;
  std::size_t invalid = 0;
  auto judge = [&](std::string_view document, const std::string& label) {
    ++total;
    const auto result = validator.parse_and_validate(document);
    if (result.ok()) return;
    ++invalid;
    if (!args.summary) {
      std::cout << label << ": invalid\n"
                << accord::prettify_printable(result.issues, "  ") << "\n";
    }
  };
  if (is_jsonl(args.documents)) {
    for_each_line(text, [&](const std::string& line, std::size_t number) {
      judge(line, "line " + std::to_string(number));
    });
  } else {
    judge(text, args.documents);
  }
  std::cout << total << (total == 1 ? " document: " : " documents: ") << total - invalid
            << " valid, " << invalid << " invalid\n";
  return invalid == 0 ? 0 : kInvalid;
}

}  // namespace

Command validate_command() {
  return command<ValidateArgs>(
      "validate", "validate documents: one per line (.jsonl, .ndjson, - for stdin) or one file",
      add_options, run);
}

}  // namespace accord_cli
