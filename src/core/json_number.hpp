#pragma once
// JSON numbers compared as the numbers they denote: an int64, a uint64 and a double are ordered
// exactly against each other (no lossy casts, so 2^64-1 and 1e19 compare right), 1 equals 1.0,
// and multipleOf is decided on the decimal digits as written. Also JavaScript's Number#toString,
// which Zod uses for bounds and divisors.

#include <nlohmann/json.hpp>
#include <string>

#include "accord/json_view.hpp"
#include "core/json_access.hpp"

namespace accord::detail {

// -1, 0, 1 for two JSON numbers read with number_of (core/json_access.hpp) from a tree or a view
// of a tape (a NaN compares as equal, which never happens for parsed JSON).
[[nodiscard]] int compare_numbers(const NumberValue& a, const NumberValue& b);

// A number with no fractional part (1.0 is an integer, as JSON Schema says). These take a tree
// or, where the engine reads a document, a view.
[[nodiscard]] bool is_integral(const nlohmann::json& number);
[[nodiscard]] bool is_integral(JsonView number);

// 4.35 is a multiple of 0.01 (as Zod and ajv decide it), integers exactly at any size.
[[nodiscard]] bool is_multiple_of(const nlohmann::json& value, const nlohmann::json& divisor);
[[nodiscard]] bool is_multiple_of(JsonView value, const nlohmann::json& divisor);

// JSON Schema equality: numbers by value (1 == 1.0), arrays by position, objects by key.
[[nodiscard]] bool json_equal(const nlohmann::json& a, const nlohmann::json& b);
[[nodiscard]] bool json_equal(JsonView a, const nlohmann::json& b);
[[nodiscard]] bool json_equal(JsonView a, JsonView b);
// A hash consistent with json_equal.
[[nodiscard]] std::size_t json_hash(const nlohmann::json& value);
[[nodiscard]] std::size_t json_hash(JsonView value);

[[nodiscard]] std::string js_number(double value);
[[nodiscard]] std::string js_number(const nlohmann::json& number);

}  // namespace accord::detail
