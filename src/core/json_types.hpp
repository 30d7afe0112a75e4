#pragma once
// The JSON Schema types as bits, and which of them a JSON value is: what the engine's `type`
// keyword checks and what reply repair reads a schema's wishes by.

#include <nlohmann/json.hpp>
#include <string_view>

#include "core/json_number.hpp"

namespace accord::detail {

enum TypeBit : unsigned {
  kNull = 1,
  kBoolean = 2,
  kObject = 4,
  kArray = 8,
  kNumber = 16,
  kString = 32,
  kInteger = 64,
};
inline constexpr unsigned kAnyType = 127;

// The bit a JSON Schema type name stands for, or 0 for a name that is none.
[[nodiscard]] constexpr unsigned type_named(std::string_view name) {
  if (name == "null") return kNull;
  if (name == "boolean") return kBoolean;
  if (name == "object") return kObject;
  if (name == "array") return kArray;
  if (name == "number") return kNumber;
  if (name == "string") return kString;
  if (name == "integer") return kInteger;
  return 0;
}

// Whether `value` (a tree or a view) is of one of `types`: every number is a "number", and an
// integral one (1.0 too) an "integer" as well.
template <class Value>
[[nodiscard]] bool type_matches(unsigned types, const Value& value) {
  switch (type_of(value)) {
    case JsonType::null:
      return (types & kNull) != 0;
    case JsonType::boolean:
      return (types & kBoolean) != 0;
    case JsonType::string:
      return (types & kString) != 0;
    case JsonType::array:
      return (types & kArray) != 0;
    case JsonType::object:
      return (types & kObject) != 0;
    case JsonType::number_integer:
    case JsonType::number_unsigned:
      return (types & (kNumber | kInteger)) != 0;
    case JsonType::number_float:
      return (types & kNumber) != 0 || ((types & kInteger) != 0 && is_integral(value));
    default:
      return false;
  }
}

}  // namespace accord::detail
