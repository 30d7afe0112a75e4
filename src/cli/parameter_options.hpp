#pragma once
// The request parameters and prices of `accord extract` and `accord batch`: --temperature,
// --seed, --param KEY=JSON (repeatable) and --price-table FILE.

#include <CLI/CLI.hpp>
#include <accord/price_table.hpp>
#include <accord/request_parameters.hpp>
#include <accord/trace.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accord_cli {

struct ParameterArgs {
  std::optional<double> temperature;
  std::optional<std::int64_t> seed;
  std::vector<std::string> params;  // KEY=JSON
  std::string price_table;
};

void add_parameter_options(CLI::App& command, ParameterArgs& args);

// The parameters the options give: a --param KEY that names a parameter (temperature, top_p,
// seed, stop, reasoning_effort, thinking_budget, service_tier, user, metadata, prompt_cache) sets
// it; any other KEY (dots for nesting: generationConfig.topK) is a member of the extra body.
// --temperature and --seed win over a --param of the same name. Fails (exit 2) on a value that is
// not JSON or not of the parameter's type.
[[nodiscard]] accord::RequestParameters request_parameters_of(const ParameterArgs& args);

// The --price-table file's prices, or null without one; fails (exit 2) on a bad file.
[[nodiscard]] std::shared_ptr<const accord::PriceTable> price_table_of(const ParameterArgs& args);

// "accord: cost X CURRENCY" on stderr, the calls' Trace::cost summed, when a price table priced
// them; a table without the model says so instead.
void show_cost(const std::vector<const accord::Trace*>& traces, const accord::PriceTable* prices,
               const std::string& model);

}  // namespace accord_cli
