// accord schema: the wire schema a provider gets for a JSON Schema file, and the Report of where
// each rule went.

#include <accord/json_text.hpp>
#include <accord/printable.hpp>
#include <accord/providers/lowering_bound.hpp>
#include <accord/validate.hpp>
#include <iostream>

#include "command.hpp"
#include "input_files.hpp"
#include "provider_option.hpp"
#include "repair_option.hpp"

namespace accord_cli {
namespace {

using nlohmann::ordered_json;

struct SchemaArgs {
  std::string file;
  std::string provider;
  bool json = false;
  std::string documents;  // a JSON array of values valid for the schema, printed as sent
  std::string repair;     // a policy: list the repairs it allows
  std::vector<std::string> ref_maps;  // URI=FILE or URI_PREFIX=DIR
  accord::LoweringBound bound;
};

void add_options(CLI::App& command, SchemaArgs& args) {
  add_schema_file_argument(command, args.file);
  add_provider_option(command, args.provider);
  command.add_flag("--json", args.json, "print {\"wire\": ..., \"report\": [...]}");
  command.add_option("--documents", args.documents,
                     "a JSON file holding an array of values valid for the schema; each is "
                     "printed as the wire carries it (with --json: under \"documents\")");
  add_ref_map_option(command, args.ref_maps);
  command.add_option("--max-wire-bytes", args.bound.max_inlined_bytes,
                     "what inlining $refs may add to the wire, for providers that take no "
                     "references (default 1048576); past it the schema is refused, naming the "
                     "definition that fans out most");
  add_repair_option(command, args.repair,
                    "off, lossless or lenient: also list where that policy may repair a reply "
                    "before judging it (with --json: under \"repairs_allowed\")");
}

// "lossless allows 7 repairs:" and one line per place and kind.
std::string repairs_table(const std::vector<accord::RepairAllowance>& allowed,
                          const std::string& policy) {
  std::string out = policy + " allows " + std::to_string(allowed.size()) + " repairs:\n";
  for (const auto& [path, kind] : allowed) {
    const auto place = path.empty() ? std::string("(anywhere)") : path.to_string();
    out += "  " + accord::printable(place) + "  " + std::string(accord::to_string(kind)) + "\n";
  }
  return out;
}

ordered_json repairs_json(const std::vector<accord::RepairAllowance>& allowed) {
  auto out = ordered_json::array();
  for (const auto& [path, kind] : allowed)
    out.push_back({{"path", path.to_string()}, {"kind", accord::to_string(kind)}});
  return out;
}

// Each value of the --documents file as the wire carries it (accord::lower_value), a union's
// absent optionals filled in the option the value is for `original`.
nlohmann::json lowered_documents(const std::string& file, const accord::Lowering& lowering,
                                 const ordered_json& original) {
  nlohmann::json documents;
  try {
    documents = nlohmann::json::parse(read_file(file));
  } catch (const nlohmann::json::parse_error& e) {
    throw Failure{kUsage, file + " is not JSON: " + accord::printable(e.what())};
  }
  if (!documents.is_array()) throw Failure{kUsage, file + " must hold a JSON array of values"};
  const auto choose = accord::matching_union_option(original);
  for (auto& document : documents) {
    document = accord::lower_value(std::move(document), lowering, choose);
  }
  return documents;
}

// The wire for `provider`; a schema whose inlining would pass the bound is a usage error naming
// the definition that fans out most.
accord::WireSchema lowered(const accord::Provider& provider, const accord::EmittedSchema& imported,
                           const SchemaArgs& args) {
  try {
    return accord::lower_within(provider, imported.json, imported.report, args.bound);
  } catch (const accord::SchemaError& e) {
    throw schema_failure(args.file + " cannot be lowered for " + args.provider + ":", e);
  }
}

int run(const SchemaArgs& args) {
  const auto provider = provider_named(args.provider);
  const auto imported = load_schema(args.file, registry_from(args.ref_maps));
  const auto wire = lowered(*provider, imported, args);
  const auto wire_bytes = wire.schema.dump().size();
  const auto allowed = args.repair.empty()
                           ? std::vector<accord::RepairAllowance>{}
                           : accord::repairs_allowed(imported.json, repair_policy_of(args.repair));
  if (args.json) {
    ordered_json out = {
        {"wire", wire.schema}, {"wire_bytes", wire_bytes}, {"report", wire.report.to_json()}};
    if (!args.documents.empty())
      out["documents"] = lowered_documents(args.documents, wire.lowering, imported.json);
    if (!args.repair.empty()) out["repairs_allowed"] = repairs_json(allowed);
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  if (!args.documents.empty()) {
    std::cout << "Documents as sent:\n"
              << lowered_documents(args.documents, wire.lowering, imported.json).dump(2) << "\n\n";
  }
  std::cout << "Wire schema for " << args.provider << ":\n"
            << wire.schema.dump(2) << "\n"
            << "Wire size: " << wire_bytes << " bytes as compact JSON\n\n";
  const auto changed = wire.report.not_keywords().size();
  std::cout << "Report: " << wire.report.entries().size() << " entries, " << changed
            << " not sent as keywords\n"
            << wire.report.to_table();
  if (!args.repair.empty()) std::cout << "\nRepairs: " << repairs_table(allowed, args.repair);
  return 0;
}

}  // namespace

Command schema_command() {
  return command<SchemaArgs>("schema",
                             "print the wire schema a provider gets and the Report of every change",
                             add_options, run);
}

}  // namespace accord_cli
