// accord batch: many extractions as provider batch jobs, invalid replies corrected in another
// batch, the job's state kept in a file so a stopped run can be resumed without paying again.

#include <unistd.h>
#include <accord/batch.hpp>
#include <accord/printable.hpp>
#include <accord/schema_order.hpp>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <vector>

#include "batch_state.hpp"
#include "command.hpp"
#include "extraction.hpp"
#include "input_files.hpp"
#include "kept_output.hpp"
#include "provider_option.hpp"
#include "signal_stop.hpp"

namespace accord_cli {
namespace {

using nlohmann::ordered_json;

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
    for_each_line(read_file(input), [&](const std::string& line, std::size_t number) {
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
    });
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
BatchStateFile state_file(const BatchArgs& args) {
  const std::string path = args.state.empty()
                               ? BatchStateFile::default_path(args.output, args.extract.input)
                               : args.state;
  if (path.empty()) {
    throw Failure{kUsage,
                  "with --input - and the results on stdout there is nowhere to keep the job's "
                  "state (its batch ids, to resume it): give --output or --state"};
  }
  BatchStateFile file(path);
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
void settle_state(const BatchStateFile& state,
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
void record_state(const BatchStateFile& state, const accord::BatchRecord& record) {
  try {
    state.write(record);
  } catch (const std::runtime_error& e) {
    throw Failure{kUsage, std::string(e.what()) + "; batch " +
                              accord::printable(record.batches.back().batch_id) +
                              " was created and runs on at the provider unrecorded"};
  }
}

int run(const BatchArgs& args) {
  (void)provider_named(args.extract.provider);
  if (!accord::has_batch_api(args.extract.provider)) {
    std::string with_batches;
    for (const auto& name : accord::provider_names()) {
      if (accord::has_batch_api(name)) with_batches += (with_batches.empty() ? "" : ", ") + name;
    }
    throw Failure{kUsage, "provider " + args.extract.provider +
                              " has no batch API (batch jobs run on " + with_batches +
                              "); use `accord extract` per document"};
  }
  const auto documents = read_documents(args.extract.input);
  const auto [client, contract, schema, prices] = make_extractor(args.extract);
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
  const SignalStop signals;
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
      line["value"] = accord::in_schema_order(result.value(), schema);
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
  std::string lost = write_or_rescue(args.output, out);
  if (!args.extract.trace.empty()) {
    const std::string traces_lost = write_or_rescue(args.extract.trace, traces);
    lost += (lost.empty() || traces_lost.empty() ? "" : "; ") + traces_lost;
  }
  if (!lost.empty()) throw Failure{kUsage, lost};
  settle_state(state, results);
  std::cerr << "accord: " << results.size() - failed << " succeeded, " << failed << " failed\n";
  show_token_totals(results);
  std::vector<const accord::Trace*> priced;
  for (const auto& result : results) priced.push_back(&result.trace());
  show_cost(priced, prices.get(), model_of(args.extract, client));
  return failed == 0 ? 0 : kInvalid;
}

void add_options(CLI::App& command, BatchArgs& args) {
  add_extraction_options(command, args.extract);
  command
      .add_option("--input", args.extract.input,
                  "a directory (one document per file) or a JSONL file (- for stdin) of JSON "
                  "strings or {\"id\", \"text\"} objects")
      ->required();
  command.add_option("--output", args.output,
                     "write one JSON line per document here (default: stdout)");
  command.add_option("--trace", args.extract.trace,
                     "write each document's attempts as one JSON line to this file");
  add_bounded_option(command, "--first-poll", args.first_poll_seconds,
                     "seconds before the first status request (default 10); each wait after is "
                     "1.5 times longer",
                     0.0, 86400.0);
  add_bounded_option(command, "--max-poll", args.max_poll_seconds,
                     "the longest wait between status requests, in seconds (default 300)", 0.0,
                     86400.0);
  add_bounded_option(command, "--deadline", args.deadline_hours,
                     "hours the whole job may take, correction rounds included (default 49); an "
                     "unfinished batch is then cancelled",
                     0.0001, 1000.0);
  add_bounded_option(command, "--timeout", args.extract.timeout_seconds,
                     "seconds each HTTP request of the job may take (default 300)", 0.001, 86400.0);
  command.add_option("--state", args.state,
                     "the job's state file, written before any wait (default: beside --output as "
                     "OUTPUT.batch-state.json, else beside --input)");
  auto* resume =
      command.add_flag("--resume", args.resume,
                       "collect the batches the state file records instead of creating new ones");
  command
      .add_flag("--fresh", args.fresh,
                "start again although a state file exists (its batch is not collected)")
      ->excludes(resume);
  command.add_flag("--cancel-on-signal", args.cancel_on_signal,
                   "on SIGINT/SIGTERM, cancel the batch under way (default: leave it running and "
                   "keep the state file for --resume)");
}

}  // namespace

Command batch_command() {
  return command<BatchArgs>(
      "batch",
      "extract from many documents as provider batch jobs (OpenAI Batch API, Anthropic Message "
      "Batches); invalid replies are corrected in a second batch; results as JSONL",
      add_options, run);
}

}  // namespace accord_cli
