// `accord-bench validate`: docs/sec of parse + validate over a JSONL corpus.

#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "accord/json_schema.hpp"
#include "accord/json_text.hpp"
#include "accord/json_view.hpp"
#include "accord/typed_validator.hpp"
#include "accord/validate.hpp"
#include "bench.hpp"
#include "schemas/refund.hpp"
#include "schemas/transfer.hpp"
// The engine's worded pass by itself, for comparison only; the library never exposes it.
#include "validate/validator_impl.hpp"

namespace accord::bench {
namespace {

std::vector<std::string> read_lines(const std::string& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;  // as the Node anchor does: blank lines are not documents
    lines.push_back(std::move(line));
    if (limit != 0 && lines.size() == limit) break;
  }
  return lines;
}

// The heap a ValidationResult holds while its caller keeps it (the parsed document, and the
// issues of an invalid document), averaged over the documents. Every result is kept until the
// end: one that died would leave its buffers to the next (JsonDocument's per-thread pool), which
// would then hold memory this count does not see.
long long result_bytes_per_document(const Validator& validator,
                                    const std::vector<std::string>& lines) {
  std::vector<ValidationResult> results;
  results.reserve(lines.size());
  count_heap(true);
  const auto before = heap_bytes_in_use();
  for (const auto& line : lines) results.push_back(validator.parse_and_validate(line));
  const auto held = heap_bytes_in_use() - before;
  count_heap(false);
  return held / static_cast<long long>(lines.size());
}

// operator-new calls per document: parse_and_validate whole, and the engine's verdict alone on the
// documents that parse and are valid (an invalid one's issues allocate by design).
struct AllocationsPerDocument {
  double full = 0;
  double engine_valid = 0;
};
AllocationsPerDocument allocations_per_document(const Validator& validator,
                                                const detail::ValidatorImpl& engine,
                                                const std::vector<std::string>& lines) {
  AllocationsPerDocument out;
  count_heap(true);
  const auto before = heap_allocations();
  for (const auto& line : lines) (void)validator.parse_and_validate(line);
  out.full = static_cast<double>(heap_allocations() - before) / static_cast<double>(lines.size());
  count_heap(false);
  long long engine_calls = 0;
  long long valid = 0;
  for (const auto& line : lines) {
    const auto parsed = parse_document(line);
    if (!parsed.document) continue;
    count_heap(true);
    const auto start = heap_allocations();
    const bool ok = engine.engine->issues(parsed.document->root()).empty();
    const auto made = heap_allocations() - start;
    count_heap(false);
    if (!ok) continue;
    engine_calls += made;
    ++valid;
  }
  out.engine_valid =
      valid == 0 ? 0 : static_cast<double>(engine_calls) / static_cast<double>(valid);
  return out;
}

// operator-new calls per document of a judge (`--mode typed`: the struct returned included),
// measured after the first pass has warmed up what it reuses.
double judge_allocations_per_document(const std::function<bool(const std::string&)>& judge,
                                      const std::vector<std::string>& lines) {
  count_heap(true);
  const auto before = heap_allocations();
  for (const auto& line : lines) (void)judge(line);
  const auto made = heap_allocations() - before;
  count_heap(false);
  return static_cast<double>(made) / static_cast<double>(lines.size());
}

// JsonDocument::bytes() (tape + strings) averaged over the documents that parse.
long long document_bytes_per_document(const std::vector<std::string>& lines) {
  long long bytes = 0;
  long long parsed = 0;
  for (const auto& line : lines) {
    if (const auto document = parse_document(line).document) {
      bytes += static_cast<long long>(document->bytes());
      ++parsed;
    }
  }
  return parsed == 0 ? 0 : bytes / parsed;
}

// `--mode typed`: text to a validated struct of the schema's own type (TypedValidator), the
// struct read from the parsed document.
template <class T>
std::function<bool(const std::string&)> typed_judge(const TypedSchema<T>& schema) {
  auto validator = std::make_shared<const TypedValidator<T>>(schema);
  return [validator](const std::string& line) { return validator->parse(line).ok(); };
}

}  // namespace

int run_validate(const ValidateOptions& options) {
  const Schema schema =
      options.schema == "refund" ? examples::refund_schema() : examples::transfer_schema();
  const auto lines = read_lines(options.corpus, options.lines);
  if (lines.empty()) throw std::runtime_error(options.corpus + " has no documents");

  // Everything is built once, before timing: the Validator is reused for every document.
  const Validator validator(schema);
  const auto engine = detail::make_validator_impl(
      emit(schema.check(), EmitOptions{.dialect = Dialect::draft07}).json, &schema,
      detail::EngineOptions{.default_draft = detail::Draft::draft7});

  // Each mode answers "valid?" for one line.
  std::function<bool(const std::string&)> judge;
  if (options.mode == "typed") {
    judge = options.schema == "refund" ? typed_judge(examples::typed_refund_schema())
                                       : typed_judge(examples::typed_transfer_schema());
  } else if (options.mode == "full") {
    judge = [&](const std::string& line) { return validator.parse_and_validate(line).ok(); };
  } else if (options.mode == "verdict") {
    auto document = std::make_shared<JsonDocument>();
    judge = [&validator, document](const std::string& line) {
      return validator.parse_and_validate(line, *document).empty();
    };
  } else if (options.mode == "tape") {
    judge = [](const std::string& line) { return parse_document(line).document.has_value(); };
  } else if (options.mode == "reuse") {
    auto document = std::make_shared<JsonDocument>();
    judge = [document](const std::string& line) {
      return parse_document(line, ParseLimits{}, *document).empty();
    };
  } else if (options.mode == "parse") {
    judge = [](const std::string& line) { return parse_json(line).value.has_value(); };
  } else if (options.mode == "tree") {
    // Each line's tree, parsed once here; the timed part builds and frees a copy of it: what a
    // verdict pays for the tree alone (the same nodes, strings and allocations as a parse).
    auto trees = std::make_shared<std::map<const std::string*, nlohmann::json>>();
    for (const auto& line : lines) {
      if (auto parsed = parse_json(line).value) trees->emplace(&line, std::move(*parsed));
    }
    judge = [trees](const std::string& line) {
      const auto found = trees->find(&line);
      if (found == trees->end()) return false;
      const nlohmann::json copy = found->second;
      return !copy.is_null();
    };
  } else if (options.mode == "nlohmann") {
    judge = [](const std::string& line) {
      return !nlohmann::json::parse(line, nullptr, false).is_discarded();
    };
  } else {
    judge = [&](const std::string& line) {
      const auto parsed = parse_document(line);
      return parsed.document && engine->engine->issues(parsed.document->root()).empty();
    };
  }

  // The first pass records the verdicts (and warms up); later passes are timed.
  std::vector<bool> verdicts;
  verdicts.reserve(lines.size());
  for (const auto& line : lines) verdicts.push_back(judge(line));
  std::size_t valid = 0;
  for (bool v : verdicts) valid += v ? 1 : 0;

  int exit_code = 0;
  std::cout << "schema: " << options.schema << "\ncorpus: " << options.corpus << " ("
            << lines.size() << " documents)\nmode: " << options.mode << "\nvalid: " << valid
            << " invalid: " << lines.size() - valid << "\n";
  if (options.mode == "full") {
    std::cout << "result_bytes_per_doc: " << result_bytes_per_document(validator, lines) << "\n";
    const auto allocations = allocations_per_document(validator, *engine, lines);
    std::cout << "allocs_per_doc: " << allocations.full
              << "\nengine_allocs_per_valid_doc: " << allocations.engine_valid << "\n";
  }
  if (options.mode == "typed") {
    std::cout << "allocs_per_doc: " << judge_allocations_per_document(judge, lines) << "\n";
  }
  if (options.mode == "full" || options.mode == "tape") {
    std::cout << "bytes_per_doc: " << document_bytes_per_document(lines) << "\n";
  }
  if (!options.verdicts.empty()) {
    std::ofstream out(options.verdicts, std::ios::binary);
    for (bool v : verdicts) out << (v ? "valid\n" : "invalid\n");
    if (!out) throw std::runtime_error("cannot write " + options.verdicts);
  }
  if (!options.expected.empty()) {
    const auto expected = read_lines(options.expected, lines.size());
    std::size_t agree = 0;
    std::size_t shown = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string ours = verdicts[i] ? "valid" : "invalid";
      if (i < expected.size() && expected[i] == ours) {
        ++agree;
      } else if (shown++ < 5) {
        std::cerr << "line " << i + 1 << ": " << ours << ", expected "
                  << (i < expected.size() ? expected[i] : "nothing") << "\n";
      }
    }
    std::cout << "agreement: " << agree << "/" << lines.size() << "\n";
    if (agree != lines.size()) exit_code = 1;
  }

  using clock = std::chrono::steady_clock;
  std::size_t documents = 0;
  std::size_t sink = 0;
  const auto start = clock::now();
  double elapsed = 0;
  do {
    for (const auto& line : lines) sink += judge(line) ? 1 : 0;
    documents += lines.size();
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
  } while (elapsed < options.seconds);
  if (sink > documents) std::cout << "";  // keeps the loop's work observable
  std::cout << "seconds: " << elapsed << "\ndocs_per_sec: "
            << static_cast<long long>(static_cast<double>(documents) / elapsed) << "\n";
  return exit_code;
}

}  // namespace accord::bench
