// accord-bench: throughput of validation, of the extract loop against its HTTP floor, and of
// concurrent extractions. Measures only; nothing here asserts a speed. See bench/README.md.

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "bench.hpp"

int main(int argc, char** argv) {
  using namespace accord::bench;
  CLI::App app{"accord-bench: measure accord's validation, loop overhead and concurrency"};
  app.require_subcommand(1);

  ValidateOptions validate;
  auto* validate_cmd =
      app.add_subcommand("validate", "parse + validate every corpus line, repeated for ~2 s");
  validate_cmd->add_option("--schema", validate.schema, "refund or transfer")
      ->required()
      ->check(CLI::IsMember({"refund", "transfer"}));
  validate_cmd->add_option("--corpus", validate.corpus, "JSONL file, one document per line")
      ->required()
      ->check(CLI::ExistingFile);
  validate_cmd->add_option("--verdicts", validate.verdicts, "write valid/invalid per line here");
  validate_cmd->add_option("--expected", validate.expected,
                           "reference verdicts to compare with (exit 1 on any difference)");
  validate_cmd
      ->add_option(
          "--mode", validate.mode,
          "full: Validator::parse_and_validate (verdict + issues, no value kept); tape: "
          "accord::parse_document only (the text to a tape); parse: accord::parse_json only (the "
          "text to a tree); nlohmann: nlohmann::json::parse only; worded: parse_document + the "
          "engine's worded pass (every issue with its message), without the fast pass; tree: a "
          "copy of the line's parsed nlohmann::json built and freed (the tree's own cost, "
          "without reading text); typed: TypedValidator, text to the validated struct; reuse: "
          "parse_document into one JsonDocument kept from line to line")
      ->check(CLI::IsMember(
          {"full", "verdict", "tape", "reuse", "parse", "nlohmann", "worded", "tree", "typed"}));
  validate_cmd->add_option("--seconds", validate.seconds, "how long to repeat (default 2)");
  validate_cmd->add_option("--lines", validate.lines, "only the first N lines (default all)");

  LoopOptions loop;
  auto* loop_cmd = app.add_subcommand(
      "loop", "sequential extract() of the refund schema, or --raw POSTs of the same body");
  LoopOptions concurrent;
  concurrent.in_flight = 64;
  concurrent.calls = 2000;
  concurrent.delay_ms = 50;
  concurrent.warmup = 0;
  auto* concurrent_cmd =
      app.add_subcommand("concurrent", "K extractions in flight on one shared Client");
  for (auto [cmd, options] : {std::pair{loop_cmd, &loop}, std::pair{concurrent_cmd, &concurrent}}) {
    cmd->add_option("--provider", options->provider,
                    "openai-chat (default), openai-responses, "
                    "anthropic or generic");
    cmd->add_option("--base-url", options->base_url,
                    "a running server; default: start accord-mock for this run");
    cmd->add_option("--calls", options->calls, "how many calls to time");
    cmd->add_option("--warmup", options->warmup, "untimed calls first");
    cmd->add_option("--mock", options->mock, "the accord-mock binary to start");
    cmd->add_option("--delay-ms", options->delay_ms,
                    "reply delay of the started mock (loop: 0, concurrent: 50)");
  }
  loop_cmd->add_flag("--raw", loop.raw, "bare POSTs of the same request: the floor");
  loop_cmd->add_option("--rounds", loop.rounds,
                       "alternate R blocks of extract and of raw in this one process and print "
                       "the extract/raw ratio of each pair, its median and spread");
  concurrent_cmd->add_flag("--async", concurrent.async,
                           "K calls of extract_async kept in flight from one thread");
  concurrent_cmd->add_option("--in-flight", concurrent.in_flight, "extractions in flight (K)")
      ->check(CLI::Range(1, 1024));

  LoopOptions corrections;
  auto* corrections_cmd = app.add_subcommand(
      "corrections", "input tokens of a scoped vs a whole-object correction, 50 fields, one bad");
  corrections_cmd->add_option("--provider", corrections.provider,
                              "openai-chat (default), openai-responses, anthropic or generic");
  corrections_cmd->add_option("--mock", corrections.mock, "the accord-mock binary to start");

  LoweringOptions lowering;
  auto* lowering_cmd = app.add_subcommand(
      "lowering", "import a JSON Schema file and lower it for every provider: ms and wire bytes");
  lowering_cmd->add_option("--schema", lowering.schema, "the JSON Schema file")->required();
  lowering_cmd->add_option("--repeat", lowering.repeat, "lowerings per provider (median printed)");

  LoopOptions repairs;
  std::string repair_corpus = "tests/conformance/repair/corpus.jsonl";
  auto* repairs_cmd = app.add_subcommand(
      "repairs", "corrections avoided by lossless repair on the repair corpus, and their cost");
  repairs_cmd->add_option("--provider", repairs.provider,
                          "openai-chat (default), openai-responses, anthropic or generic");
  repairs_cmd->add_option("--corpus", repair_corpus, "the repair corpus (JSONL)")
      ->check(CLI::ExistingFile);
  repairs_cmd->add_option("--mock", repairs.mock, "the accord-mock binary to start");

  CLI11_PARSE(app, argc, argv);
  try {
    if (lowering_cmd->parsed()) return run_lowering(lowering);
    if (validate_cmd->parsed()) return run_validate(validate);
    if (loop_cmd->parsed()) return run_loop(loop);
    if (concurrent_cmd->parsed()) return run_concurrent(concurrent);
    if (corrections_cmd->parsed()) return run_corrections(corrections);
    if (repairs_cmd->parsed()) return run_repairs(repairs, repair_corpus);
  } catch (const std::exception& e) {
    std::cerr << "accord-bench: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
