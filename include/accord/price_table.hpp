#pragma once
// Prices per model, given by the user (accord ships none: prices change), and what a call's
// usage cost by them.

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "accord/reply.hpp"

namespace accord {

// Per million tokens, in the table's currency.
struct ModelPrice {
  double input = 0;
  double output = 0;
  // Input tokens read from or written to the provider's prompt cache; absent: the input price.
  std::optional<double> cache_read;
  std::optional<double> cache_write;
};

class PriceTable {
 public:
  PriceTable() = default;
  explicit PriceTable(std::map<std::string, ModelPrice, std::less<>> models,
                      std::string currency = "USD");
  // {"currency": "USD", "models": {"gpt-4o-mini": {"input": 0.15, "output": 0.6,
  // "cache_read": 0.075}}}; throws std::invalid_argument naming what is wrong.
  [[nodiscard]] static PriceTable from_json(const nlohmann::json& table);
  [[nodiscard]] static PriceTable from_file(const std::filesystem::path& file);

  [[nodiscard]] const std::string& currency() const { return currency_; }
  [[nodiscard]] const ModelPrice* find(std::string_view model) const;
  // What `usage` cost on `model`: uncached input, cache reads and writes and output each at its
  // price; nullopt for a model the table does not price.
  [[nodiscard]] std::optional<double> cost(std::string_view model, const Usage& usage) const;

 private:
  std::map<std::string, ModelPrice, std::less<>> models_;
  std::string currency_ = "USD";
};

}  // namespace accord
