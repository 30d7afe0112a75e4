#pragma once
// What `accord extract` and `accord batch` share: the options naming the schema, the provider and
// how often to correct, and the client and Contract an extraction runs with.

#include <accord/client.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.hpp"
#include "parameter_options.hpp"

namespace accord_cli {

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
  std::string repair = "lossless";
  std::string mode = "per-model";      // --mode: a name kOutputModes lists
  std::vector<std::string> fallbacks;  // accord extract's --fallback values
  ParameterArgs parameters;
};

// The system instructions every extraction is sent with.
inline constexpr const char* kInstructions =
    "Extract the data the JSON schema describes from the user's text. Follow every rule in the "
    "schema's descriptions. Reply with the JSON only.";

// FILE, --provider, --model, --base-url, --corrections, --repair, --mode and the request
// parameters.
void add_extraction_options(CLI::App& command, ExtractArgs& args);

// An option whose value CLI11 refuses outside [min, max].
template <class T, class Bound>
CLI::Option* add_bounded_option(CLI::App& command, const std::string& name, T& value,
                                const std::string& help, Bound min, Bound max) {
  return command.add_option(name, value, help)->check(CLI::Range(min, max));
}

// The client and the schema's contract both commands run with.
struct Extractor {
  accord::Client client;
  std::shared_ptr<const accord::Contract> contract;
  nlohmann::ordered_json schema;                     // as imported: the order values are printed in
  std::shared_ptr<const accord::PriceTable> prices;  // --price-table's, or null
};

// Fails (exit 2) before any request when the client could make none.
[[nodiscard]] Extractor make_extractor(const ExtractArgs& args);

// The model the requests name: --model, else the provider's default.
[[nodiscard]] std::string model_of(const ExtractArgs& args, const accord::Client& client);

// Fails before any request when an output file cannot be written, so a billed reply is never
// lost to a bad path.
void check_writable(const std::string& file);

[[nodiscard]] std::chrono::milliseconds from_seconds(double seconds);

}  // namespace accord_cli
