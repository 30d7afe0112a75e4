// accord validate: documents checked against a JSON Schema file as written, one file or one
// document a line (read as a stream, judged on --jobs threads, printed in input order).

#include <unistd.h>

#include <accord/bounded_file.hpp>
#include <accord/issue_json.hpp>
#include <accord/printable.hpp>
#include <accord/repair.hpp>
#include <accord/validate.hpp>
#include <algorithm>
#include <charconv>
#include <iostream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "command.hpp"
#include "document_lines.hpp"
#include "in_order_pool.hpp"
#include "input_files.hpp"
#include "issue_tally.hpp"
#include "repair_option.hpp"

namespace accord_cli {
namespace {

using namespace std::string_view_literals;

struct ValidateArgs {
  std::string schema;
  std::string documents;
  bool summary = false;
  std::vector<std::string> ref_maps;  // URI=FILE or URI_PREFIX=DIR
  std::string format_mode = "assertion";
  std::string repair = "off";
  std::string dialect = "draft2020-12";
  bool apply_ref_siblings = false;
  bool json = false;           // one verdict a line as JSON
  bool lines = false;          // read DOCS as JSONL whatever its name
  unsigned jobs = 1;           // judging threads (0: one per core)
  std::size_t max_errors = 0;  // stop after this many invalid documents (0: never)
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
  command.add_flag("--json", args.json,
                   "print one verdict a line as JSON ({\"line\", \"valid\", \"issues\"}), then "
                   "{\"summary\": ...}");
  command.add_flag("--lines", args.lines, "read DOCS as one document a line whatever its name");
  // Bounded: each job is a thread, and a thread that cannot be made is no verdict.
  command.add_option("--jobs", args.jobs, "judge on N threads (0: one per core; default 1)")
      ->check(CLI::Range(0, 256));
  command.add_option("--max-errors", args.max_errors,
                     "stop reading after N invalid documents (default 0: never)");
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

// A JSON value as one line of output (bytes that are not UTF-8 replaced, never a throw).
std::string dump_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// The documents file (or standard input, "-") open for reading a piece at a time.
struct OpenDocuments {
  explicit OpenDocuments(const std::string& path) : fd(open(path)) {}
  OpenDocuments(const OpenDocuments&) = delete;
  OpenDocuments& operator=(const OpenDocuments&) = delete;
  ~OpenDocuments() { ::close(fd); }

  static int open(const std::string& path) {
    try {
      return accord::open_checked_file(path, /*pipes=*/true);
    } catch (const std::runtime_error& e) {
      throw Failure{kUsage, accord::printable(e.what())};
    }
  }
  int fd;
};

bool is_jsonl(const std::string& file) {
  auto ends_with = [&](std::string_view suffix) {
    return file.size() >= suffix.size() &&
           file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with(".jsonl") || ends_with(".ndjson") || file == "-";
}

// The verdicts of a run of documents as the judging thread leaves them for the one that prints:
// their printed text end to end, their issues folded into tally rows, and where each document's
// part of both ends. A document's issues are freed by the thread that made them; a batch's
// vectors and strings are cleared and filled again by the next batch, not freed, and its row map
// is rebuilt.
struct JudgedBatch {
  struct Document {
    bool invalid = false;
    bool repaired = false;
    std::size_t text_end = 0;    // in text
    std::size_t issues_end = 0;  // in rows
  };
  std::string text;
  IssueRows rows;
  std::vector<Document> documents;

  void clear() {
    text.clear();
    rows.clear();
    documents.clear();
  }
  // One document's verdict, after its text was added.
  void end_document(const accord::Issues& issues, bool repaired) {
    rows.add(issues);
    documents.push_back({!issues.empty(), repaired, text.size(), rows.issues()});
  }
};

// How each document is judged and worded; shared read-only by the judging threads.
struct Judge {
  // One document's text at most (a longer line is not read: it is an issue).
  static constexpr std::size_t kMaxLineBytes = accord::ParseLimits{}.max_bytes;

  const Checker& checker;
  const ValidateArgs& args;
  accord::RepairPolicy policy;

  // Judges one document into `out`; `line` is 0 for a whole file. `reuse` holds each document
  // while it is judged, so judging one after another allocates for the value only when a
  // document is larger than those before.
  void operator()(std::string_view document, std::size_t line, accord::JsonDocument& reuse,
                  JudgedBatch& out) const {
    if (policy == accord::RepairPolicy::off) {
      word(checker.validator.parse_and_validate(document, reuse), false, "", line, out);
      return;
    }
    auto judged = accord::judge_with_repairs(document, checker.validator, checker.schema, policy);
    std::string repairs;
    for (const auto& repair : judged.repairs) repairs += "  " + accord::describe(repair) + "\n";
    word(judged.issues, !judged.repairs.empty(), repairs, line, out);
  }

  void overlong(std::size_t line, std::size_t bytes, JudgedBatch& out) const {
    const accord::Issues issues = {{accord::IssueCode::invalid_json,
                                    {},
                                    "the line is " + std::to_string(bytes) +
                                        " bytes, more than the limit of " +
                                        std::to_string(kMaxLineBytes) + " for one document"}};
    word(issues, false, "", line, out);
  }

 private:
  // The document's printed text (none for a valid one, unless --json), then its verdict.
  void word(const accord::Issues& issues, bool repaired, std::string_view repairs, std::size_t line,
            JudgedBatch& out) const {
    std::string& text = out.text;
    if (args.json) {
      // As nlohmann::ordered_json dumps {"line" or "document", "valid", "repaired", "issues"}.
      if (line > 0) {
        text += R"({"line":)"sv;
        append_number(line, text);
      } else {
        text += R"({"document":)"sv;
        text += nlohmann::json(args.documents)
                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      }
      text += issues.empty() ? R"(,"valid":true)"sv : R"(,"valid":false)"sv;
      if (policy != accord::RepairPolicy::off) {
        text += repaired ? R"(,"repaired":true)"sv : R"(,"repaired":false)"sv;
      }
      text += R"(,"issues":)"sv;
      accord::append_json(issues, text);
      text += "}\n"sv;
    } else if (!args.summary && (repaired || !issues.empty())) {
      const std::string label = line > 0 ? "line " + std::to_string(line) : args.documents;
      if (repaired) {
        text += label + ": repaired\n";
        text += repairs;
      }
      if (!issues.empty()) {
        text += label + ": invalid\n" + accord::prettify_printable(issues, "  ") + "\n";
      }
    }
    out.end_document(issues, repaired);
  }

  static void append_number(std::size_t number, std::string& out) {
    char digits[24];
    const char* end = std::to_chars(std::begin(digits), std::end(digits), number).ptr;
    out.append(digits, static_cast<std::size_t>(end - digits));
  }
};

// The counts and the summary, kept by the thread that prints.
struct Totals {
  std::size_t documents = 0;
  std::size_t invalid = 0;
  std::size_t repaired = 0;
  bool stopped = false;  // --max-errors reached
  IssueTally tally;

  // Counts and prints a batch's verdicts in order, up to the one that reaches --max-errors (none
  // once stopped: they were judged past the last one wanted).
  void take(const JudgedBatch& batch, std::size_t max_errors) {
    std::size_t taken = 0;
    for (; taken < batch.documents.size() && !stopped; ++taken) {
      const auto& document = batch.documents[taken];
      ++documents;
      if (document.repaired) ++repaired;
      if (document.invalid) ++invalid;
      stopped = max_errors > 0 && invalid >= max_errors;
    }
    if (taken == 0) return;
    const auto& last = batch.documents[taken - 1];
    tally.add(batch.rows, last.issues_end);
    std::cout.write(batch.text.data(), static_cast<std::streamsize>(last.text_end));
  }
};

// The last of `kept` taken out, or a new one when none is kept.
template <class Buffers>
Buffers take_kept(std::vector<Buffers>& kept) {
  if (kept.empty()) return {};
  Buffers taken = std::move(kept.back());
  kept.pop_back();
  return taken;
}

// The documents of a JSONL stream, judged by --jobs threads in batches and printed in input
// order as soon as they are judged; reading stops once --max-errors documents are invalid.
void judge_lines(const ValidateArgs& args, const Judge& judge, Totals& totals) {
  // A batch's lines and their verdicts go round: read into on this thread, judged on a worker,
  // printed here, then kept to be filled again, so their buffers are made once per batch in
  // flight, not once per batch.
  struct Batch {
    LineBatch lines;
    JudgedBatch judged;
  };
  const std::size_t threads =
      args.jobs == 0 ? std::max(1U, std::thread::hardware_concurrency()) : args.jobs;
  // A batch amortises the hand-over between threads (a few wakeups each, over some thousand
  // lines); a few per thread keep them all busy, and memory stays a few batches whatever the
  // file's length. Its lines are capped as well as its bytes: a verdict outweighs a short line
  // (with --json ~150 bytes for a 2-byte line).
  constexpr std::size_t kBatchBytes = std::size_t{256} << 10;
  constexpr std::size_t kBatchLines = 2048;
  std::vector<LineBatch> spare_lines;
  std::vector<JudgedBatch> spare_verdicts;
  InOrderPool<Batch> pool(threads, 4 * threads, [&](Batch&& batch) {
    totals.take(batch.judged, args.max_errors);
    spare_lines.push_back(std::move(batch.lines));
    spare_verdicts.push_back(std::move(batch.judged));
  });
  DocumentLineHandlers handlers;
  handlers.spare = [&] { return take_kept(spare_lines); };
  handlers.full = [&](LineBatch&& lines) {
    if (totals.stopped) return false;
    Batch batch{std::move(lines), take_kept(spare_verdicts)};
    pool.give([&judge, batch = std::move(batch)]() mutable {
      batch.judged.clear();
      accord::JsonDocument reuse;
      for (const auto& line : batch.lines.lines) {
        if (line.bytes > Judge::kMaxLineBytes) {
          judge.overlong(line.number, line.bytes, batch.judged);
        } else {
          judge(batch.lines.line_text(line), line.number, reuse, batch.judged);
        }
      }
      return std::move(batch);
    });
    return !totals.stopped;
  };
  handlers.before_waiting = [&] {
    pool.drain();
    std::cout.flush();
  };
  const OpenDocuments documents(args.documents);
  try {
    read_document_lines(documents.fd, {kBatchBytes, Judge::kMaxLineBytes, kBatchLines}, handlers);
  } catch (const std::system_error& e) {
    throw Failure{kUsage, "cannot read " + args.documents + ": " + e.what()};
  }
  pool.drain();
}

void print_totals(const Totals& totals, bool repairs, bool json) {
  if (json) {
    nlohmann::ordered_json summary;
    summary["documents"] = totals.documents;
    summary["valid"] = totals.documents - totals.invalid;
    summary["invalid"] = totals.invalid;
    if (repairs) summary["repaired"] = totals.repaired;
    summary["stopped_early"] = totals.stopped;
    summary["issues_by_code_and_path"] = totals.tally.to_json();
    std::cout << dump_line(nlohmann::ordered_json{{"summary", std::move(summary)}});
    return;
  }
  if (!totals.tally.empty()) totals.tally.print(std::cout);
  if (totals.stopped) {
    std::cout << "stopped after " << totals.invalid << " invalid documents (--max-errors)\n";
  }
  std::cout << totals.documents << (totals.documents == 1 ? " document: " : " documents: ")
            << totals.documents - totals.invalid << " valid, " << totals.invalid << " invalid";
  if (repairs) std::cout << ", " << totals.repaired << " repaired";
  std::cout << "\n";
}

int run(const ValidateArgs& args) {
  const auto checker = load_checker(args);
  const Judge judge{checker, args, repair_policy_of(args.repair)};
  Totals totals;
  if (args.lines || is_jsonl(args.documents)) {
    judge_lines(args, judge, totals);
  } else {
    accord::JsonDocument document;
    JudgedBatch judged;
    judge(read_file(args.documents), 0, document, judged);
    totals.take(judged, args.max_errors);
  }
  print_totals(totals, judge.policy != accord::RepairPolicy::off, args.json);
  return totals.invalid == 0 ? 0 : kInvalid;
}

}  // namespace

Command validate_command() {
  return command<ValidateArgs>(
      "validate", "validate documents: one per line (.jsonl, .ndjson, - for stdin) or one file",
      add_options, run);
}

}  // namespace accord_cli
