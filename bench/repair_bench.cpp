// `accord-bench repairs`: what reply repair saves on the repair corpus
// (tests/conformance/repair/corpus.jsonl, the refund and transfer cases) against accord-mock:
// each malformed reply is sent as the first answer and its document as the second, once with
// RepairPolicy::off and once with lossless; a correction avoided is a call that took two
// attempts without repair and one with it. Counts and the mock's timings, not a model's.

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>

#include "accord/client.hpp"
#include "bench.hpp"
#include "schemas/refund.hpp"
#include "schemas/transfer.hpp"

namespace accord::bench {
namespace {

struct Call {
  std::size_t attempts = 0;
  std::int64_t tokens = 0;  // input + output, all attempts
  double seconds = 0;
};

Call extract_once(const LoopOptions& options, const Schema& schema, const std::string& reply,
                  const nlohmann::json& answer, RepairPolicy repair) {
  const nlohmann::json scenario = {{"replies", {{{"text", reply}}, {{"json", answer}}}}};
  MockServer mock(mock_binary(options.mock), scenario.dump());
  const Client client({.provider = options.provider,
                       .base_url = mock.root_url() + (options.provider == "anthropic" ? "" : "/v1"),
                       .api_key = "bench-not-a-key",
                       .repair = repair});
  const auto started = std::chrono::steady_clock::now();
  const auto result = client.extract({.schema = schema, .prompt = "Extract it.", .name = "record"});
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  const auto& usage = result.trace().usage;
  return {result.trace().attempts.size(), usage.input_tokens + usage.output_tokens, took.count()};
}

}  // namespace

int run_repairs(const LoopOptions& options, const std::string& corpus_path) {
  const std::map<std::string, Schema> schemas = {{"refund", examples::refund_schema()},
                                                 {"transfer", examples::transfer_schema()}};
  std::map<std::string, nlohmann::json> answer_for;  // a valid document of each schema
  std::vector<nlohmann::json> cases;
  std::ifstream in(corpus_path);
  if (!in) throw std::runtime_error("cannot read " + corpus_path);
  for (std::string line; std::getline(in, line);) {
    auto entry = nlohmann::json::parse(line);
    if (!schemas.contains(entry["schema"]) || entry["policy"] != "lossless") continue;
    if (!entry["expect"].is_null()) answer_for.emplace(entry["schema"], entry["expect"]);
    cases.push_back(std::move(entry));
  }
  int corrected_without = 0;
  int avoided = 0;
  std::int64_t tokens_saved = 0;
  double seconds_saved = 0;
  for (const auto& entry : cases) {
    const auto& schema = schemas.at(entry["schema"]);
    const auto answer =
        entry["expect"].is_null() ? answer_for.at(entry["schema"]) : entry["expect"];
    const auto without = extract_once(options, schema, entry["reply"], answer, RepairPolicy::off);
    const auto with = extract_once(options, schema, entry["reply"], answer, RepairPolicy::lossless);
    if (without.attempts < 2) continue;
    ++corrected_without;
    if (with.attempts != 1) continue;
    ++avoided;
    tokens_saved += without.tokens - with.tokens;
    seconds_saved += without.seconds - with.seconds;
  }
  std::cout << fmt::format(
      "provider: {}\ncases: {}\ncorrected without repair: {}\navoided with lossless repair: {} "
      "({:.1f}%)\ntokens saved per avoided correction: {:.0f}\nmock latency saved per avoided "
      "correction: {:.2f} ms\n",
      options.provider, cases.size(), corrected_without, avoided,
      corrected_without == 0 ? 0.0 : 100.0 * avoided / corrected_without,
      avoided == 0 ? 0.0 : static_cast<double>(tokens_saved) / avoided,
      avoided == 0 ? 0.0 : 1000.0 * seconds_saved / avoided);
  return 0;
}

}  // namespace accord::bench
