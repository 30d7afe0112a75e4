#pragma once
// The command line the refund and transfer examples share:
//   --print-schema [--provider NAME]   the wire schema and the Report, as one JSON object
//   --report [--provider NAME]         the Report as a table
//   --validate FILE.jsonl              one verdict line per document
//   --provider NAME [--base-url URL] [--model M] [--input FILE]   a whole extraction

#include <CLI/CLI.hpp>
#include <accord/client.hpp>
#include <accord/json_schema.hpp>
#include <accord/printable.hpp>
#include <accord/typed_rules.hpp>
#include <accord/validate.hpp>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "otlp_json_tracer.hpp"

namespace accord::examples {

// An example's struct, its schema, and how it is asked for.
template <class T>
struct ExampleSpec {
  std::string name;  // the schema's name on the wire
  TypedSchema<T> schema;
  std::string instructions;   // the system turn
  std::string default_input;  // the text extracted from when --input is absent
};

// The schema as emitted, or as lowered for a provider when one is named.
template <class T>
WireSchema wire_schema(const ExampleSpec<T>& spec, const std::string& provider_name) {
  auto emitted = emit(spec.schema.schema());
  if (provider_name.empty()) return {emitted.json, std::move(emitted.report), {}};
  auto provider = make_provider(provider_name);
  if (!provider) throw std::invalid_argument("unknown provider \"" + provider_name + "\"");
  return provider->lower(emitted.json, std::move(emitted.report));
}

template <class T>
int print_schema(const ExampleSpec<T>& spec, const std::string& provider_name) {
  auto wire = wire_schema(spec, provider_name);
  nlohmann::ordered_json out = {{"wire", wire.schema}, {"report", wire.report.to_json()}};
  std::cout << out.dump(2) << "\n";
  return 0;
}

template <class T>
int validate_lines(const ExampleSpec<T>& spec, const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file);
  const Validator validator(spec.schema.schema());
  bool all_valid = true;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto result = validator.parse_and_validate(line);
    all_valid = all_valid && result.ok();
    std::cout << (result.ok() ? "valid" : "invalid\t" + prettify_one_line(printable(result.issues)))
              << "\n";
  }
  return all_valid ? 0 : 1;
}

template <class T>
int run_extraction(const ExampleSpec<T>& spec, ClientOptions options,
                   const std::string& input_file) {
  std::string text = spec.default_input;
  if (!input_file.empty()) {
    std::ifstream in(input_file);
    if (!in) throw std::runtime_error("cannot read " + input_file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
  }
  const Client client(std::move(options));
  auto result = client.extract<T>(
      {.schema = spec.schema, .prompt = text, .system = spec.instructions, .name = spec.name});
  std::cerr << result.trace().to_text() << "\n";
  if (!result.ok()) {
    std::cerr << "error: " << to_string(result.error().kind) << ": "
              << printable(result.error().message) << "\n";
    return 1;
  }
  std::cout << to_json_value(result.value()).dump(2) << "\n";
  return 0;
}

template <class T>
int example_main(int argc, char** argv, const ExampleSpec<T>& spec) {
  CLI::App app{"accord example: " + spec.name};
  bool print = false, report = false;
  std::string validate_file, input_file, otlp_file;
  ClientOptions options;
  options.provider.clear();
  app.add_flag("--print-schema", print, "print the wire schema and the Report as JSON");
  app.add_flag("--report", report, "print the Report as a table");
  app.add_option("--validate", validate_file, "validate each line of a JSONL file");
  app.add_option("--provider", options.provider,
                 "a provider name, e.g. openai-chat, anthropic, gemini, bedrock, ollama");
  app.add_option("--base-url", options.base_url, "the provider's base URL (e.g. accord-mock's)");
  app.add_option("--model", options.model, "the model name");
  app.add_option("--input", input_file, "the text to extract from (a built-in e-mail when absent)");
  app.add_option("--otlp", otlp_file,
                 "append the call's OpenTelemetry spans to this file as OTLP/JSON lines");
  double temperature = 0, top_p = 0;
  std::int64_t seed = 0;
  const auto* temperature_set =
      app.add_option("--temperature", temperature, "sampling temperature");
  const auto* top_p_set = app.add_option("--top-p", top_p, "nucleus sampling");
  const auto* seed_set = app.add_option("--seed", seed, "sampling seed");
  CLI11_PARSE(app, argc, argv);
  if (temperature_set->count() > 0) options.parameters.temperature = temperature;
  if (top_p_set->count() > 0) options.parameters.top_p = top_p;
  if (seed_set->count() > 0) options.parameters.seed = seed;
  try {
    if (print) return print_schema(spec, options.provider);
    if (report) {
      std::cout << wire_schema(spec, options.provider).report.to_table() << "\n";
      return 0;
    }
    if (!validate_file.empty()) return validate_lines(spec, validate_file);
    if (options.provider.empty()) {
      std::cerr << app.help() << "\n";
      return 2;
    }
    if (!otlp_file.empty()) {
      options.hooks = genai_tracing(std::make_shared<OtlpJsonTracer>(otlp_file, spec.name));
    }
    return run_extraction(spec, std::move(options), input_file);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace accord::examples
