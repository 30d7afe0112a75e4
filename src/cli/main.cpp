// The accord command: see what a JSON Schema becomes for a provider, validate documents against
// it, and run an extraction or a batch of them, from the shell. docs/cli.md describes it; exit
// codes:
//   0  done (every document valid, the extraction or every batch item succeeded)
//   1  a document is invalid (validate) or an extraction failed (extract, batch)
//   2  usage error, unreadable file, or a schema that is not usable
//   130, 143  batch stopped by SIGINT, SIGTERM (its state file kept for --resume)

#include <unistd.h>
#include <CLI/CLI.hpp>
#include <accord/batch.hpp>
#include <accord/bounded_file.hpp>
#include <accord/client.hpp>
#include <accord/json_schema_file.hpp>
#include <accord/json_text.hpp>
#include <accord/printable.hpp>
#include <accord/validate.hpp>
#include <accord/version.hpp>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "batch_state.hpp"
#include "kept_output.hpp"
#include "signal_stop.hpp"

namespace {

using accord::Issues;
using nlohmann::ordered_json;

constexpr int kInvalid = 1;
constexpr int kUsage = 2;

// A failure that ends the command with a message on stderr and an exit code.
struct Failure {
  int code;
  std::string message;
};

// A file named on the command line: a regular file or a pipe (`-`, `<(...)`) the user chose,
// never a device, and within `max_bytes` (accord/bounded_file.hpp).
std::string read_file(const std::string& path,
                      std::size_t max_bytes = accord::kMaxDocumentsFileBytes) {
  try {
    return accord::read_bounded_file(path, {.max_bytes = max_bytes, .pipes = true});
  } catch (const std::runtime_error& e) {
    throw Failure{kUsage, accord::printable(e.what())};
  }
}

std::string where(const accord::Path& path) {
  return "#" + path.to_pointer();
}

ordered_json read_schema_document(const std::string& file) {
  try {
    return accord::parse_ordered_json(read_file(file, accord::kMaxSchemaFileBytes));
  } catch (const nlohmann::json::parse_error& e) {
    throw Failure{kUsage, file + " is not JSON: " + accord::printable(e.what())};
  }
}

Failure unusable(const std::string& file, const accord::SchemaError& e) {
  std::string message = file + " is not a usable JSON Schema:";
  for (const auto& problem : e.problems()) {
    message += "\n  at " + accord::printable(where(problem.path)) + ": " +
               accord::printable(problem.message);
  }
  return Failure{kUsage, message};
}

// The schema file as an imported schema; exit 2 naming the JSON path of every problem.
accord::EmittedSchema load_schema(const std::string& file) {
  const ordered_json document = read_schema_document(file);
  try {
    return accord::import_json_schema(document);
  } catch (const accord::SchemaError& e) {
    throw unusable(file, e);
  }
}

std::unique_ptr<accord::Provider> provider_named(const std::string& name) {
  auto provider = accord::make_provider(name);
  if (!provider) {
    std::string known;
    for (const auto& n : accord::provider_names()) known += (known.empty() ? "" : ", ") + n;
    throw Failure{kUsage, "unknown provider \"" + name + "\" (known: " + known + ")"};
  }
  return provider;
}

std::string indented(const std::string& text, const std::string& prefix) {
  std::string out = prefix;
  for (char c : text) {
    out += c;
    if (c == '\n') out += prefix;
  }
  return out;
}

// ---- accord schema ----

struct SchemaArgs {
  std::string file;
  std::string provider;
  bool json = false;
  std::string documents;  // a JSON array of values valid for the schema, printed as sent
};

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

int run_schema(const SchemaArgs& args) {
  const auto provider = provider_named(args.provider);
  const auto imported = load_schema(args.file);
  const auto wire = provider->lower(imported.json, imported.report);
  if (args.json) {
    ordered_json out = {{"wire", wire.schema}, {"report", wire.report.to_json()}};
    if (!args.documents.empty())
      out["documents"] = lowered_documents(args.documents, wire.lowering, imported.json);
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  if (!args.documents.empty()) {
    std::cout << "Documents as sent:\n"
              << lowered_documents(args.documents, wire.lowering, imported.json).dump(2) << "\n\n";
  }
  std::cout << "Wire schema for " << args.provider << ":\n" << wire.schema.dump(2) << "\n\n";
  const auto changed = wire.report.not_keywords().size();
  std::cout << "Report: " << wire.report.entries().size() << " entries, " << changed
            << " not sent as keywords\n"
            << wire.report.to_table();
  return 0;
}

// ---- accord validate ----

struct ValidateArgs {
  std::string schema;
  std::string documents;
  bool summary = false;
  std::vector<std::string> ref_maps;  // URI_PREFIX=DIR
  std::string format_mode = "assertion";
};

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
  const ordered_json document = read_schema_document(args.schema);
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

int run_validate(const ValidateArgs& args) {
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
                << indented(accord::prettify(accord::printable(result.issues)), "  ") << "\n";
    }
  };
  if (is_jsonl(args.documents)) {
    std::istringstream lines(text);
    std::size_t number = 0;
    for (std::string line; std::getline(lines, line);) {
      ++number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      judge(line, "line " + std::to_string(number));
    }
  } else {
    judge(text, args.documents);
  }
  std::cout << total << (total == 1 ? " document: " : " documents: ") << total - invalid
            << " valid, " << invalid << " invalid\n";
  return invalid == 0 ? 0 : kInvalid;
}

// ---- accord extract ----

struct ExtractArgs {
  std::string schema;
  std::string provider;
  std::string model;
  std::string base_url;
  std::string input = "-";
  std::string trace;
  std::optional<int> corrections;
  std::optional<double> timeout_seconds;
  accord::StreamOptions stream;
};

constexpr const char* kInstructions =
    "Extract the data the JSON schema describes from the user's text. Follow every rule in the "
    "schema's descriptions. Reply with the JSON only.";

// The wire name: the schema's title when it is a valid name, else "result".
std::string wire_name(const ordered_json& schema) {
  const auto title = schema.find("title");
  if (title == schema.end() || !title->is_string()) return "result";
  const std::string text = *title;
  const bool valid =
      !text.empty() && text.size() <= 64 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
      });
  return valid ? text : "result";
}

// Fails before any request when an output file cannot be written, so a billed reply is never
// lost to a bad path.
void check_writable(const std::string& file) {
  if (const auto problem = accord_cli::unwritable(file)) throw Failure{kUsage, *problem};
}

void write_trace(const std::string& file, const accord::Trace& trace) {
  if (file.empty()) return;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << trace.to_json().dump(2) << "\n";
  if (!out) throw Failure{kUsage, "cannot write " + file};
}

std::chrono::milliseconds from_seconds(double seconds) {
  return std::chrono::milliseconds(std::llround(seconds * 1000));
}

// ---- values printed in schema order ----

// `schema` with its local `$ref`s followed (an imported schema keeps only recursive ones), or
// nullptr where one leads nowhere.
const ordered_json* resolved(const ordered_json& root, const ordered_json* schema) {
  for (int hops = 0; hops < 32 && schema != nullptr && schema->is_object(); ++hops) {
    const auto ref = schema->find("$ref");
    if (ref == schema->end() || !ref->is_string()) return schema;
    const std::string target = *ref;
    if (!target.starts_with("#")) return schema;
    try {
      schema = &root.at(ordered_json::json_pointer(target.substr(1)));
    } catch (const nlohmann::json::exception&) {
      return nullptr;
    }
  }
  return nullptr;
}

// `schema` and the branches that may also name a value's members (allOf, anyOf, oneOf, then, else).
void with_branches(const ordered_json& root, const ordered_json* schema,
                   std::vector<const ordered_json*>& out, int depth = 0) {
  schema = resolved(root, schema);
  if (schema == nullptr || depth > 8) return;
  out.push_back(schema);
  for (const char* keyword : {"allOf", "anyOf", "oneOf"}) {
    const auto branches = schema->find(keyword);
    if (branches == schema->end() || !branches->is_array()) continue;
    for (const auto& branch : *branches) with_branches(root, &branch, out, depth + 1);
  }
  for (const char* keyword : {"then", "else"}) {
    if (const auto branch = schema->find(keyword); branch != schema->end())
      with_branches(root, &*branch, out, depth + 1);
  }
}

// The schema of `key` in an object judged by `schemas`, or nullptr when none names it.
const ordered_json* member_schema(const std::vector<const ordered_json*>& schemas,
                                  const std::string& key) {
  for (const auto* schema : schemas) {
    const auto properties = schema->find("properties");
    if (properties == schema->end() || !properties->is_object()) continue;
    if (const auto found = properties->find(key); found != properties->end()) return &*found;
  }
  for (const auto* schema : schemas) {
    const auto rest = schema->find("additionalProperties");
    if (rest != schema->end() && rest->is_object()) return &*rest;
  }
  return nullptr;
}

// `value` with each object's members in the order its schema lists them (the order structured
// output writes them in, and the order the user wrote), not sorted as nlohmann::json keeps them;
// members the schema does not name (a map's keys) follow in sorted order.
ordered_json in_schema_order(const nlohmann::json& value, const ordered_json& root,
                             const ordered_json* schema) {
  std::vector<const ordered_json*> schemas;
  with_branches(root, schema, schemas);
  if (value.is_object()) {
    ordered_json out = ordered_json::object();
    // Appended, not set with operator[], which searches every earlier key (n^2 for a big map).
    auto& members = out.get_ref<ordered_json::object_t&>();
    std::set<std::string> placed;
    auto place = [&](const std::string& key) {
      if (!placed.insert(key).second) return;
      members.emplace_back(key, in_schema_order(value.at(key), root, member_schema(schemas, key)));
    };
    for (const auto* each : schemas) {
      const auto properties = each->find("properties");
      if (properties == each->end() || !properties->is_object()) continue;
      for (const auto& [key, ignored] : properties->items()) {
        if (value.contains(key)) place(key);
      }
    }
    for (const auto& [key, ignored] : value.items()) place(key);
    return out;
  }
  if (value.is_array()) {
    ordered_json out = ordered_json::array();
    for (std::size_t i = 0; i < value.size(); ++i) {
      const ordered_json* item = nullptr;
      for (const auto* each : schemas) {
        const auto prefix = each->find("prefixItems");
        if (prefix != each->end() && prefix->is_array() && i < prefix->size()) {
          item = &(*prefix)[i];
        } else if (const auto items = each->find("items"); items != each->end()) {
          item = &*items;
        }
        if (item != nullptr) break;
      }
      out.push_back(in_schema_order(value[i], root, item));
    }
    return out;
  }
  return value;
}

ordered_json in_schema_order(const nlohmann::json& value, const ordered_json& schema) {
  return in_schema_order(value, schema, &schema);
}

// The client and the schema's contract both commands run with.
struct Extractor {
  accord::Client client;
  std::shared_ptr<const accord::Contract> contract;
  ordered_json schema;  // as imported: the order values are printed in
};

Extractor make_extractor(const ExtractArgs& args) {
  auto imported = load_schema(args.schema);
  auto validator = accord::Validator::from_json_schema(imported.json);
  accord::ClientOptions options;
  options.provider = args.provider;
  options.model = args.model;
  options.base_url = args.base_url;
  if (args.corrections) options.corrections = *args.corrections;
  if (args.timeout_seconds) options.call_timeout = from_seconds(*args.timeout_seconds);
  options.stream = args.stream;
  accord::Client client(std::move(options));
  // Every request would be refused: stop before the command writes or says anything.
  if (const auto why = client.unusable_reason()) throw Failure{kUsage, *why};
  auto contract = std::make_shared<const accord::Contract>(
      imported, std::move(validator), wire_name(imported.json), client.provider());
  return {std::move(client), std::move(contract), std::move(imported.json)};
}

int run_extract(const ExtractArgs& args) {
  (void)provider_named(args.provider);  // an unknown name fails before any file is read
  const std::string text = read_file(args.input);
  const auto [client, contract, schema] = make_extractor(args);
  check_writable(args.trace);
  std::cerr << "accord: extracting with " << args.provider
            << (args.model.empty() ? "" : " (model " + args.model + ")") << "\n";

  const auto result = client.extract({.schema = contract, .prompt = text, .system = kInstructions});
  std::cerr << result.trace().to_text() << "\n";
  write_trace(args.trace, result.trace());
  if (!result.ok()) {
    std::cerr << "accord: extraction failed: " << accord::to_string(result.error().kind) << ": "
              << accord::printable(result.error().message) << "\n";
    return kInvalid;
  }
  std::cout << in_schema_order(result.value(), schema).dump(2) << "\n";
  return 0;
}

// ---- accord batch ----

struct BatchArgs {
  ExtractArgs extract;  // the schema, provider, model, base URL, corrections; --input: the docs
  std::string output = "-";
  double first_poll_seconds = 10;
  double max_poll_seconds = 300;
  double deadline_hours = 49;
  std::string state;  // the state file; default beside the output (BatchStateFile::default_path)
  bool resume = false;
  bool fresh = false;
  bool cancel_on_signal = false;
};

struct Document {
  std::string id;
  std::string text;
};

// A directory: each regular file is a document, by name. A JSONL file (or stdin): each line is a
// JSON string, or an object with "text" and an optional "id" (default: the line number).
std::vector<Document> read_documents(const std::string& input) {
  namespace fs = std::filesystem;
  std::vector<Document> documents;
  std::error_code error;
  if (input != "-" && fs::is_directory(input, error)) {
    for (const auto& entry : fs::directory_iterator(input)) {
      if (entry.is_regular_file())
        documents.push_back({entry.path().filename().string(), read_file(entry.path().string())});
    }
    std::sort(documents.begin(), documents.end(),
              [](const Document& a, const Document& b) { return a.id < b.id; });
  } else {
    std::istringstream lines(read_file(input));
    std::size_t number = 0;
    for (std::string line; std::getline(lines, line);) {
      ++number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      const auto where = input + " line " + std::to_string(number);
      const auto parsed = nlohmann::json::parse(line, nullptr, false);
      Document document{"line-" + std::to_string(number), ""};
      if (parsed.is_string()) {
        document.text = parsed.get<std::string>();
      } else if (parsed.is_object() && parsed.contains("text") && parsed["text"].is_string()) {
        document.text = parsed["text"].get<std::string>();
        if (parsed.contains("id")) {
          document.id =
              parsed["id"].is_string() ? parsed["id"].get<std::string>() : parsed["id"].dump();
        }
      } else {
        throw Failure{kUsage, where + ": expected a JSON string or an object with \"text\""};
      }
      documents.push_back(std::move(document));
    }
  }
  if (documents.empty()) throw Failure{kUsage, "no documents in " + input};
  return documents;
}

// One line per update when stderr is not a terminal (a log keeps every step), else one line
// rewritten in place.
void show_progress(const accord::BatchProgress& progress) {
  static const bool terminal = ::isatty(STDERR_FILENO) != 0;
  const std::string line =
      "accord: round " + std::to_string(progress.round) + ", batch " +
      accord::printable(progress.batch_id) + ": " + accord::printable(progress.status) + ", " +
      std::to_string(progress.finished) + "/" + std::to_string(progress.items) + " answered (" +
      std::to_string(progress.failed) + " failed), poll " + std::to_string(progress.polls) + ", " +
      std::to_string(progress.elapsed.count() / 1000) + " s";
  std::cerr << (terminal ? "\r\033[K" : "") << line << (terminal ? "" : "\n") << std::flush;
}

// The state file this run keeps, checked before any request: --resume needs one, a run without it
// must not start a second paid batch while an earlier run's may still be running.
accord_cli::BatchStateFile state_file(const BatchArgs& args) {
  const std::string path =
      args.state.empty() ? accord_cli::BatchStateFile::default_path(args.output, args.extract.input)
                         : args.state;
  if (path.empty()) {
    throw Failure{kUsage,
                  "with --input - and the results on stdout there is nowhere to keep the job's "
                  "state (its batch ids, to resume it): give --output or --state"};
  }
  accord_cli::BatchStateFile file(path);
  const bool exists = file.exists();
  if (args.resume && !exists)
    throw Failure{kUsage, "--resume: no state file " + path + " (nothing to resume)"};
  if (!args.resume && !args.fresh && exists) {
    throw Failure{kUsage, path +
                              " holds the state of an earlier run of this job, whose batch may "
                              "still be running and is paid for: run the same command with "
                              "--resume to collect it, or with --fresh (or delete the file) to "
                              "start again and pay for a new batch"};
  }
  try {
    file.check_writable();
  } catch (const std::runtime_error& e) {
    throw Failure{kUsage, e.what()};
  }
  return file;
}

// The tokens of every attempt of every item, all rounds included.
void show_token_totals(const std::vector<accord::Result<nlohmann::json>>& results) {
  accord::Usage total;
  std::size_t attempts = 0;
  std::size_t rounds = 0;
  for (const auto& result : results) {
    total += result.trace().usage;
    attempts += result.trace().attempts.size();
    rounds = std::max(rounds, result.trace().attempts.size());
  }
  std::cerr << "accord: tokens in " << total.input_tokens << " / out " << total.output_tokens
            << " / total " << total.input_tokens + total.output_tokens << " over " << attempts
            << " attempt" << (attempts == 1 ? "" : "s") << " in " << rounds << " round"
            << (rounds == 1 ? "" : "s") << "\n";
}

// Once the results are written: the state file goes, unless an item was never answered (a batch
// that failed as a whole, a status request refused, the deadline), whose batch --resume can
// read again.
void settle_state(const accord_cli::BatchStateFile& state,
                  const std::vector<accord::Result<nlohmann::json>>& results) {
  const auto unanswered = std::count_if(results.begin(), results.end(), [](const auto& result) {
    return !result.ok() && result.error().kind == accord::ErrorKind::batch_unanswered;
  });
  if (unanswered == 0) {
    state.remove();
    return;
  }
  std::cerr << "accord: " << unanswered << " item" << (unanswered == 1 ? " was" : "s were")
            << " never answered; " << state.path()
            << " is kept: --resume reads their batches again, --fresh starts over\n";
}

// Keeps the record; when it cannot, says which batch now runs unrecorded.
void record_state(const accord_cli::BatchStateFile& state, const accord::BatchRecord& record) {
  try {
    state.write(record);
  } catch (const std::runtime_error& e) {
    throw Failure{kUsage, std::string(e.what()) + "; batch " +
                              accord::printable(record.batches.back().batch_id) +
                              " was created and runs on at the provider unrecorded"};
  }
}

int run_batch(const BatchArgs& args) {
  (void)provider_named(args.extract.provider);
  if (!accord::has_batch_api(args.extract.provider)) {
    throw Failure{kUsage, "provider " + args.extract.provider +
                              " has no batch API (batch jobs run on openai-chat, "
                              "openai-responses and anthropic); use `accord extract` per document"};
  }
  const auto documents = read_documents(args.extract.input);
  const auto [client, contract, schema] = make_extractor(args.extract);
  for (const auto& file : {args.extract.trace, args.output}) check_writable(file);
  const auto state = state_file(args);

  std::vector<accord::ExtractRequest> requests;
  for (const auto& document : documents)
    requests.push_back({.schema = contract, .prompt = document.text, .system = kInstructions});
  accord::BatchOptions options;
  options.first_poll = from_seconds(args.first_poll_seconds);
  options.max_poll_interval = from_seconds(args.max_poll_seconds);
  options.deadline = from_seconds(args.deadline_hours * 3600);
  options.on_progress = show_progress;
  options.on_record = [&state](const accord::BatchRecord& record) { record_state(state, record); };
  if (args.resume) {
    try {
      options.resume = state.read();
    } catch (const std::runtime_error& e) {
      throw Failure{kUsage, e.what()};
    }
  }
  const accord_cli::SignalStop signals;
  options.stop = signals.token();
  options.cancel_on_stop = args.cancel_on_signal;
  std::cerr << "accord: " << documents.size() << " document" << (documents.size() == 1 ? "" : "s")
            << " as a batch job with " << args.extract.provider
            << (args.resume ? ", resumed from " + state.path() : "") << "\n";
  std::vector<accord::Result<nlohmann::json>> results;
  try {
    results = accord::run_batch(client, requests, options);
  } catch (const accord::BatchStopped& stopped) {
    const int signal = signals.signal();
    std::cerr << (::isatty(STDERR_FILENO) != 0 ? "\n" : "")
              << "accord: " << (signal == SIGTERM ? "SIGTERM" : "SIGINT") << ": "
              << accord::printable(stopped.what()) << "\n"
              << (stopped.record().batches.empty()
                      ? "accord: no batch was created; nothing to resume\n"
                      : "accord: its state is kept in " + state.path() +
                            (stopped.cancelled()
                                 ? ": run the same command with --resume to collect what it "
                                   "answered before the cancel\n"
                                 : ": run the same command with --resume to collect it without "
                                   "paying again (or --cancel-on-signal next time to cancel)\n"));
    if (stopped.record().batches.empty()) state.remove();
    return 128 + (signal == 0 ? SIGINT : signal);
  }
  if (::isatty(STDERR_FILENO) != 0) std::cerr << "\n";

  // Built whole, then written: text that cannot be written where asked is kept elsewhere.
  std::string out;
  std::string traces;
  std::size_t failed = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& result = results[i];
    ordered_json line = {{"id", documents[i].id}, {"ok", result.ok()}};
    if (result.ok()) {
      line["value"] = in_schema_order(result.value(), schema);
    } else {
      ++failed;
      line["error"] = {{"kind", accord::to_string(result.error().kind)},
                       {"message", result.error().message}};
    }
    line["attempts"] = result.trace().attempts.size();
    out += line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (!args.extract.trace.empty()) {
      traces += ordered_json{{"id", documents[i].id}, {"trace", result.trace().to_json()}}.dump(
                    -1, ' ', false, nlohmann::json::error_handler_t::replace) +
                "\n";
    }
  }
  std::string lost = accord_cli::write_or_rescue(args.output, out);
  if (!args.extract.trace.empty()) {
    const std::string traces_lost = accord_cli::write_or_rescue(args.extract.trace, traces);
    lost += (lost.empty() || traces_lost.empty() ? "" : "; ") + traces_lost;
  }
  if (!lost.empty()) throw Failure{kUsage, lost};
  settle_state(state, results);
  std::cerr << "accord: " << results.size() - failed << " succeeded, " << failed << " failed\n";
  show_token_totals(results);
  return failed == 0 ? 0 : kInvalid;
}

// The options `extract` and `batch` share: the schema, where to send it, how often to correct.
void add_extraction_options(CLI::App& command, ExtractArgs& args, const std::string& providers) {
  command.add_option("FILE", args.schema, "the JSON Schema file")->required();
  command.add_option("--provider", args.provider, providers)->required();
  command.add_option("--model", args.model, "the model (default: the provider's)");
  command.add_option("--base-url", args.base_url,
                     "the API base URL (default: the provider's environment variable, then its "
                     "public endpoint)");
  command
      .add_option("--corrections", args.corrections,
                  "corrective retries after an invalid reply, 0 to " +
                      std::to_string(accord::kMaxCorrections) + " (default 1)")
      ->check(CLI::Range(0, accord::kMaxCorrections));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "accord: see what a JSON Schema becomes for an LLM provider, validate documents "
      "against it, and extract with it, one document at a time or as batch jobs"};
  app.set_version_flag("--version", "accord " + std::string(accord::version()));
  app.require_subcommand(1);
  std::string providers;
  for (const auto& n : accord::provider_names()) providers += (providers.empty() ? "" : ", ") + n;

  SchemaArgs schema_args;
  auto* schema = app.add_subcommand(
      "schema", "print the wire schema a provider gets and the Report of every change");
  schema->add_option("FILE", schema_args.file, "the JSON Schema file")->required();
  schema->add_option("--provider", schema_args.provider, providers)->required();
  schema->add_flag("--json", schema_args.json, "print {\"wire\": ..., \"report\": [...]}");
  schema->add_option("--documents", schema_args.documents,
                     "a JSON file holding an array of values valid for the schema; each is "
                     "printed as the wire carries it (with --json: under \"documents\")");

  ValidateArgs validate_args;
  auto* validate = app.add_subcommand(
      "validate", "validate documents: one per line (.jsonl, .ndjson, - for stdin) or one file");
  validate->add_option("FILE", validate_args.schema, "the JSON Schema file")->required();
  validate->add_option("DOCS", validate_args.documents, "the documents")->required();
  validate->add_flag("--summary", validate_args.summary, "print the counts only");
  validate->add_option("--ref-map", validate_args.ref_maps,
                       "URI_PREFIX=DIR: read $refs under URI_PREFIX from files in DIR (repeatable; "
                       "the network is never used)");
  validate
      ->add_option("--format-mode", validate_args.format_mode,
                   "assertion (default): `format` is checked; annotation: it is not")
      ->check(CLI::IsMember({"assertion", "annotation"}));

  ExtractArgs extract_args;
  auto* extract = app.add_subcommand(
      "extract", "extract a value matching the schema from a text, with validation and retries");
  add_extraction_options(*extract, extract_args, providers);
  extract->add_option("--input", extract_args.input, "the text to extract from (default: stdin)");
  extract->add_option("--trace", extract_args.trace, "write every attempt as JSON to this file");
  extract
      ->add_option("--timeout", extract_args.timeout_seconds,
                   "seconds the whole extraction may take, every attempt and retry included "
                   "(default 300)")
      ->check(CLI::Range(0.001, 86400.0));
  extract->add_flag("--stream", extract_args.stream.enabled,
                    "ask for a streamed reply (the trace counts its events)");
  extract
      ->add_flag("--stop-early", extract_args.stream.stop_at_first_issue,
                 "with --stream: stop reading at the first part that breaks a rule and send the "
                 "correction at once")
      ->needs("--stream");

  BatchArgs batch_args;
  auto* batch = app.add_subcommand(
      "batch",
      "extract from many documents as provider batch jobs (OpenAI Batch API, Anthropic Message "
      "Batches); invalid replies are corrected in a second batch; results as JSONL");
  add_extraction_options(*batch, batch_args.extract, providers);
  batch
      ->add_option("--input", batch_args.extract.input,
                   "a directory (one document per file) or a JSONL file (- for stdin) of JSON "
                   "strings or {\"id\", \"text\"} objects")
      ->required();
  batch->add_option("--output", batch_args.output,
                    "write one JSON line per document here (default: stdout)");
  batch->add_option("--trace", batch_args.extract.trace,
                    "write each document's attempts as one JSON line to this file");
  batch
      ->add_option("--first-poll", batch_args.first_poll_seconds,
                   "seconds before the first status request (default 10); each wait after is 1.5 "
                   "times longer")
      ->check(CLI::Range(0.0, 86400.0));
  batch
      ->add_option("--max-poll", batch_args.max_poll_seconds,
                   "the longest wait between status requests, in seconds (default 300)")
      ->check(CLI::Range(0.0, 86400.0));
  batch
      ->add_option("--deadline", batch_args.deadline_hours,
                   "hours the whole job may take, correction rounds included (default 49); an "
                   "unfinished batch is then cancelled")
      ->check(CLI::Range(0.0001, 1000.0));
  batch
      ->add_option("--timeout", batch_args.extract.timeout_seconds,
                   "seconds each HTTP request of the job may take (default 300)")
      ->check(CLI::Range(0.001, 86400.0));
  batch->add_option("--state", batch_args.state,
                    "the job's state file, written before any wait (default: beside --output as "
                    "OUTPUT.batch-state.json, else beside --input)");
  auto* resume =
      batch->add_flag("--resume", batch_args.resume,
                      "collect the batches the state file records instead of creating new ones");
  batch
      ->add_flag("--fresh", batch_args.fresh,
                 "start again although a state file exists (its batch is not collected)")
      ->excludes(resume);
  batch->add_flag("--cancel-on-signal", batch_args.cancel_on_signal,
                  "on SIGINT/SIGTERM, cancel the batch under way (default: leave it running and "
                  "keep the state file for --resume)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 says only "A subcommand is required" when the first word is not a command.
    std::string commands;
    bool known = false;
    for (const auto* command : {schema, validate, extract, batch}) {
      commands += (commands.empty() ? "" : ", ") + command->get_name();
      known = known || (argc > 1 && command->get_name() == argv[1]);
    }
    if (argc > 1 && argv[1][0] != '-' && !known) {
      std::cerr << "accord: unknown command " << accord::printable(argv[1]) << "; the commands are "
                << commands << "\n";
      return kUsage;
    }
    const int code = app.exit(e);
    return code == 0 ? 0 : kUsage;
  }
  try {
    if (schema->parsed()) return run_schema(schema_args);
    if (validate->parsed()) return run_validate(validate_args);
    if (batch->parsed()) return run_batch(batch_args);
    if (extract->parsed()) return run_extract(extract_args);
    throw Failure{kUsage, "no command was given"};  // require_subcommand(1) makes this unreachable
  } catch (const Failure& failure) {
    std::cerr << "accord: " << failure.message << "\n";
    return failure.code;
  } catch (const std::exception& e) {
    std::cerr << "accord: " << accord::printable(e.what()) << "\n";
    return kUsage;
  }
}
