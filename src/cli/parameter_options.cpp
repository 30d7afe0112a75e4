#include "parameter_options.hpp"

#include <fmt/format.h>

#include <iostream>

#include "command.hpp"

namespace accord_cli {
namespace {

using nlohmann::json;

// A --param value into the parameter it names; false for a KEY that names none.
bool set_parameter(accord::RequestParameters& p, const std::string& key, const json& value) {
  if (key == "temperature")
    p.temperature = value.get<double>();
  else if (key == "top_p")
    p.top_p = value.get<double>();
  else if (key == "seed")
    p.seed = value.get<std::int64_t>();
  else if (key == "stop")
    p.stop = value.get<std::vector<std::string>>();
  else if (key == "reasoning_effort")
    p.reasoning_effort = value.get<std::string>();
  else if (key == "thinking_budget")
    p.thinking_budget = value.get<std::int64_t>();
  else if (key == "service_tier")
    p.service_tier = value.get<std::string>();
  else if (key == "user")
    p.user = value.get<std::string>();
  else if (key == "metadata")
    p.metadata = value.get<std::map<std::string, std::string>>();
  else if (key == "prompt_cache")
    p.prompt_cache = value.get<bool>();
  else
    return false;
  return true;
}

// `generationConfig.topK` as the JSON pointer /generationConfig/topK.
json::json_pointer member_pointer(const std::string& key) {
  std::string pointer;
  std::size_t start = 0;
  for (;;) {
    const auto dot = key.find('.', start);
    std::string part = key.substr(start, dot - start);
    // JSON pointer escapes, so a member may hold '~' or '/'.
    for (std::size_t at = 0; (at = part.find('~', at)) != std::string::npos; at += 2)
      part.replace(at, 1, "~0");
    for (std::size_t at = 0; (at = part.find('/', at)) != std::string::npos; at += 2)
      part.replace(at, 1, "~1");
    pointer += "/" + part;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return json::json_pointer(pointer);
}

}  // namespace

void add_parameter_options(CLI::App& command, ParameterArgs& args) {
  command.add_option("--temperature", args.temperature, "sampling temperature")
      ->check(CLI::Range(0.0, 2.0));
  command.add_option("--seed", args.seed, "sampling seed, where the provider takes one");
  command.add_option("--param", args.params,
                     "KEY=JSON, repeatable: a request parameter (top_p, stop, reasoning_effort, "
                     "thinking_budget, service_tier, user, metadata, prompt_cache, ...) or else a "
                     "member of the request body (dots nest: generationConfig.topK=40)");
  command.add_option("--price-table", args.price_table,
                     "a JSON file of prices per million tokens per model: the summary says what "
                     "the call cost");
}

accord::RequestParameters request_parameters_of(const ParameterArgs& args) {
  accord::RequestParameters p;
  for (const auto& param : args.params) {
    const auto equals = param.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw Failure{kUsage, fmt::format("--param {}: expected KEY=JSON", param)};
    }
    const std::string key = param.substr(0, equals);
    const json value = json::parse(param.substr(equals + 1), nullptr, false);
    if (value.is_discarded()) {
      throw Failure{kUsage, fmt::format("--param {}: the value is not JSON (a string is quoted: "
                                        "{}=\"text\")",
                                        param, key)};
    }
    try {
      if (!set_parameter(p, key, value)) {
        if (p.extra_body.is_null()) p.extra_body = json::object();
        p.extra_body[member_pointer(key)] = value;
      }
    } catch (const json::exception& e) {
      throw Failure{kUsage, fmt::format("--param {}: {}", param, e.what())};
    }
  }
  if (args.temperature) p.temperature = args.temperature;
  if (args.seed) p.seed = args.seed;
  return p;
}

std::shared_ptr<const accord::PriceTable> price_table_of(const ParameterArgs& args) {
  if (args.price_table.empty()) return nullptr;
  try {
    return std::make_shared<const accord::PriceTable>(
        accord::PriceTable::from_file(args.price_table));
  } catch (const std::invalid_argument& e) {
    throw Failure{kUsage, e.what()};
  }
}

void show_cost(const std::vector<const accord::Trace*>& traces, const accord::PriceTable* prices,
               const std::string& model) {
  if (prices == nullptr) return;
  if (prices->find(model) == nullptr) {
    std::cerr << "accord: no cost: the price table has no model " << model << "\n";
    return;
  }
  double total = 0;
  for (const auto* trace : traces) {
    // A call that fell back to a model the table does not price has no cost: say which.
    if (!trace->cost) {
      for (const auto& attempt : trace->attempts) {
        if (prices->find(attempt.model) == nullptr) {
          std::cerr << "accord: no cost: the price table has no model " << attempt.model << "\n";
          return;
        }
      }
    }
    total += trace->cost.value_or(0);
  }
  std::cerr << fmt::format("accord: cost {:.6f} {}\n", total, prices->currency());
}

}  // namespace accord_cli
