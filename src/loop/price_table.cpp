#include "accord/price_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace accord {
namespace {

double price_at(const nlohmann::json& prices, const std::string& model, const char* key) {
  const auto found = prices.find(key);
  if (found == prices.end() || !found->is_number() || found->get<double>() < 0) {
    throw std::invalid_argument(
        fmt::format("price table: model \"{}\" needs \"{}\" as a number >= 0 (per million tokens)",
                    model, key));
  }
  return found->get<double>();
}

std::optional<double> optional_price(const nlohmann::json& prices, const std::string& model,
                                     const char* key) {
  if (!prices.contains(key)) return std::nullopt;
  return price_at(prices, model, key);
}

}  // namespace

PriceTable::PriceTable(std::map<std::string, ModelPrice, std::less<>> models, std::string currency)
    : models_(std::move(models)), currency_(std::move(currency)) {}

PriceTable PriceTable::from_json(const nlohmann::json& table) {
  const auto models = table.is_object() ? table.find("models") : table.end();
  if (models == table.end() || !models->is_object()) {
    throw std::invalid_argument(
        "price table: expected {\"currency\": ..., \"models\": {MODEL: {\"input\": ..., "
        "\"output\": ...}}}");
  }
  std::string currency = "USD";
  if (const auto named = table.find("currency"); named != table.end()) {
    if (!named->is_string()) throw std::invalid_argument("price table: \"currency\" is a string");
    currency = *named;
  }
  std::map<std::string, ModelPrice, std::less<>> prices;
  for (const auto& [model, price] : models->items()) {
    if (!price.is_object()) {
      throw std::invalid_argument(
          fmt::format("price table: model \"{}\" needs an object of prices", model));
    }
    prices.emplace(model, ModelPrice{.input = price_at(price, model, "input"),
                                     .output = price_at(price, model, "output"),
                                     .cache_read = optional_price(price, model, "cache_read"),
                                     .cache_write = optional_price(price, model, "cache_write")});
  }
  return PriceTable(std::move(prices), std::move(currency));
}

PriceTable PriceTable::from_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in)
    throw std::invalid_argument(fmt::format("price table {}: cannot be read", file.string()));
  const auto table = nlohmann::json::parse(in, nullptr, false);
  if (table.is_discarded()) {
    throw std::invalid_argument(fmt::format("price table {}: not JSON", file.string()));
  }
  return from_json(table);
}

const ModelPrice* PriceTable::find(std::string_view model) const {
  const auto found = models_.find(model);
  return found == models_.end() ? nullptr : &found->second;
}

std::optional<double> PriceTable::cost(std::string_view model, const Usage& usage) const {
  const ModelPrice* price = find(model);
  if (price == nullptr) return std::nullopt;
  // Cached input is counted in input_tokens too: priced once, at its own rate.
  const auto cached = usage.cache_read_input_tokens + usage.cache_write_input_tokens;
  const auto uncached = std::max<std::int64_t>(usage.input_tokens - cached, 0);
  const double total = static_cast<double>(uncached) * price->input +
                       static_cast<double>(usage.cache_read_input_tokens) *
                           price->cache_read.value_or(price->input) +
                       static_cast<double>(usage.cache_write_input_tokens) *
                           price->cache_write.value_or(price->input) +
                       static_cast<double>(usage.output_tokens) * price->output;
  return total / 1e6;
}

}  // namespace accord
