#include "extraction.hpp"

#include <accord/validate.hpp>
#include <accord/wire_name.hpp>
#include <array>
#include <cmath>
#include <utility>

#include "fallback_option.hpp"
#include "input_files.hpp"
#include "kept_output.hpp"
#include "provider_option.hpp"
#include "repair_option.hpp"

namespace accord_cli {
namespace {

// The wire name: the schema's title when it is a valid name, else "result".
std::string wire_name(const nlohmann::ordered_json& schema) {
  const auto title = schema.find("title");
  if (title == schema.end() || !title->is_string()) return "result";
  const std::string text = *title;
  return accord::is_wire_name(text) ? text : "result";
}

// --mode's names for the ways to ask for structured output.
constexpr std::array<std::pair<std::string_view, accord::OutputMode>, 3> kOutputModes = {{
    {"per-model", accord::OutputMode::per_model},
    {"response-format", accord::OutputMode::response_format},
    {"forced-tool", accord::OutputMode::forced_tool},
}};

}  // namespace

void add_extraction_options(CLI::App& command, ExtractArgs& args) {
  add_schema_file_argument(command, args.schema);
  add_provider_option(command, args.provider);
  command.add_option("--model", args.model, "the model (default: the provider's)");
  command.add_option("--base-url", args.base_url,
                     "the API base URL (default: the provider's environment variable, then its "
                     "public endpoint)");
  add_bounded_option(command, "--corrections", args.corrections,
                     "corrective retries after an invalid reply, 0 to " +
                         std::to_string(accord::kMaxCorrections) + " (default 1)",
                     0, accord::kMaxCorrections);
  add_repair_option(command, args.repair,
                    "lossless (default), lenient or off: what of a loosely written reply is "
                    "repaired before it is judged (each repair is in the trace)");
  std::vector<std::string> modes;
  for (const auto& [name, mode] : kOutputModes) modes.emplace_back(name);
  command
      .add_option("--mode", args.mode,
                  "per-model (default: the provider's choice for the model), response-format or "
                  "forced-tool: how the schema is sent")
      ->check(CLI::IsMember(modes));
  add_parameter_options(command, args.parameters);
}

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
  options.repair = repair_policy_of(args.repair);
  for (const auto& [name, mode] : kOutputModes) {
    if (args.mode == name) options.mode = mode;  // the option's check admits only these
  }
  options.fallbacks = fallbacks_of(args.fallbacks);
  options.parameters = request_parameters_of(args.parameters);
  auto prices = price_table_of(args.parameters);
  options.prices = prices;
  accord::Client client(std::move(options));
  // Every request would be refused: stop before the command writes or says anything.
  if (const auto why = client.unusable_reason()) throw Failure{kUsage, *why};
  auto contract = std::make_shared<const accord::Contract>(
      imported, std::move(validator), wire_name(imported.json), client.provider());
  return {std::move(client), std::move(contract), std::move(imported.json), std::move(prices)};
}

std::string model_of(const ExtractArgs& args, const accord::Client& client) {
  return args.model.empty() ? std::string(client.provider().default_model()) : args.model;
}

void check_writable(const std::string& file) {
  if (const auto problem = unwritable(file)) throw Failure{kUsage, *problem};
}

std::chrono::milliseconds from_seconds(double seconds) {
  return std::chrono::milliseconds(std::llround(seconds * 1000));
}

}  // namespace accord_cli
