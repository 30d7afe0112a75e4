// accord validate: documents checked against a JSON Schema file as written, one file or one
// document a line.

#include <accord/printable.hpp>
#include <accord/repair.hpp>
#include <accord/validate.hpp>
#include <iostream>
#include <map>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "input_files.hpp"
#include "repair_option.hpp"

namespace accord_cli {
namespace {

struct ValidateArgs {
  std::string schema;
  std::string documents;
  bool summary = false;
  std::vector<std::string> ref_maps;  // URI=FILE or URI_PREFIX=DIR
  std::string format_mode = "assertion";
  std::string repair = "off";
  std::string dialect = "draft2020-12";
  bool apply_ref_siblings = false;
};

// --dialect's names: the JSON-Schema-Test-Suite's folders.
const std::map<std::string, accord::Dialect>& dialect_names() {
  static const std::map<std::string, accord::Dialect> kNames = {
      {"draft4", accord::Dialect::draft04},
      {"draft6", accord::Dialect::draft06},
      {"draft7", accord::Dialect::draft07},
      {"draft2019-09", accord::Dialect::draft2019_09},
      {"draft2020-12", accord::Dialect::draft2020_12},
  };
  return kNames;
}

void add_options(CLI::App& command, ValidateArgs& args) {
  add_schema_file_argument(command, args.schema);
  command.add_option("DOCS", args.documents, "the documents")->required();
  command.add_flag("--summary", args.summary, "print the counts only");
  add_ref_map_option(command, args.ref_maps);
  command
      .add_option("--format-mode", args.format_mode,
                  "assertion (default): `format` is checked; annotation: it is not")
      ->check(CLI::IsMember({"assertion", "annotation"}));
  command
      .add_option("--dialect", args.dialect,
                  "how a schema without $schema is read: draft4, draft6, draft7, draft2019-09 or "
                  "draft2020-12 (default)")
      ->check(CLI::IsMember([] {
        std::vector<std::string> names;
        for (const auto& entry : dialect_names()) names.push_back(entry.first);
        return names;
      }()));
  command.add_flag("--apply-ref-siblings", args.apply_ref_siblings,
                   "apply the keywords beside a draft-04/06/07 $ref, as ajv does (the "
                   "specification ignores them)");
  add_repair_option(command, args.repair,
                    "off (default), lossless or lenient: repair each document as the extraction "
                    "loop would before judging it, and print every repair");
}

// Draft-04/06/07 ignore what is written beside a `$ref`; authors who wrote for ajv expect it
// applied, so a schema that has such keywords hears which (on stderr: stdout stays the verdicts).
void say_keywords_beside_ref(const accord::Validator& validator, bool applied) {
  const auto& paths = validator.keywords_beside_ref();
  if (paths.empty()) return;
  std::cerr << "note: " << paths.size()
            << (paths.size() == 1 ? " keyword is written" : " keywords are written")
            << " beside a $ref, which this dialect "
            << (applied ? "ignores; applied (--apply-ref-siblings):"
                        : "ignores (as the specification says; --apply-ref-siblings applies "
                          "them, as ajv does):");
  constexpr std::size_t kNamed = 10;  // a large schema's list stays one readable line
  for (std::size_t i = 0; i < paths.size() && i < kNamed; ++i) {
    std::cerr << " " << paths[i].to_pointer();
  }
  if (paths.size() > kNamed) std::cerr << " and " << paths.size() - kNamed << " more";
  std::cerr << "\n";
}

struct Checker {
  nlohmann::ordered_json schema;
  accord::Validator validator;
};

// The validator for `accord validate`: the schema file as written (recursive, remote and
// anchored references included; no lowering is involved), remote documents from --ref-map.
Checker load_checker(const ValidateArgs& args) {
  accord::ValidatorOptions options;
  options.formats = args.format_mode == "annotation" ? accord::FormatMode::annotation
                                                     : accord::FormatMode::assertion;
  options.dialect = dialect_names().at(args.dialect);
  options.apply_ref_siblings = args.apply_ref_siblings;
  options.registry = registry_from(args.ref_maps);
  nlohmann::ordered_json document = read_schema_document(args.schema);
  try {
    auto validator = accord::Validator::from_json_schema(document, options);
    say_keywords_beside_ref(validator, args.apply_ref_siblings);
    return Checker{std::move(document), std::move(validator)};
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

// The issues of `document` after the repairs `policy` allows; each repaired document is printed
// with its repairs under `label` (unless `quiet`) and counted in `repaired`.
accord::Issues repaired_issues(const Checker& checker, std::string_view document,
                               accord::RepairPolicy policy, const std::string& label, bool quiet,
                               std::size_t& repaired) {
  auto verdict = accord::judge_with_repairs(document, checker.validator, checker.schema, policy);
  if (verdict.repairs.empty()) return std::move(verdict.issues);
  ++repaired;
  if (!quiet) {
    std::cout << label << ": repaired\n";
    for (const auto& repair : verdict.repairs)
      std::cout << "  " << accord::describe(repair) << "\n";
  }
  return std::move(verdict.issues);
}

int run(const ValidateArgs& args) {
  const auto checker = load_checker(args);
  const auto policy = repair_policy_of(args.repair);
  const auto text = read_file(args.documents);

  std::size_t total = 0;
  std::size_t invalid = 0;
  std::size_t repaired = 0;
  auto judge = [&](std::string_view document, const std::string& label) {
    ++total;
    const auto issues =
        policy == accord::RepairPolicy::off
            ? checker.validator.parse_and_validate(document).issues
            : repaired_issues(checker, document, policy, label, args.summary, repaired);
    if (issues.empty()) return;
    ++invalid;
    if (!args.summary) {
      std::cout << label << ": invalid\n" << accord::prettify_printable(issues, "  ") << "\n";
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
            << " valid, " << invalid << " invalid";
  if (policy != accord::RepairPolicy::off) std::cout << ", " << repaired << " repaired";
  std::cout << "\n";
  return invalid == 0 ? 0 : kInvalid;
}

}  // namespace

Command validate_command() {
  return command<ValidateArgs>(
      "validate", "validate documents: one per line (.jsonl, .ndjson, - for stdin) or one file",
      add_options, run);
}

}  // namespace accord_cli
