#pragma once
// The same questions asked of a tree (nlohmann::json) and of a tape (JsonView): what kind of
// value, which number, which text, and a walk over items and members. The comparisons, hashes
// and type checks built on them (core/json_number.hpp, core/json_types.hpp) then have one
// implementation for both.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "accord/json_view.hpp"

namespace accord::detail {

using JsonType = nlohmann::json::value_t;

[[nodiscard]] constexpr bool is_number_type(JsonType type) {
  return type == JsonType::number_unsigned || type == JsonType::number_integer ||
         type == JsonType::number_float;
}

// A JSON number as nlohmann types it.
struct NumberValue {
  JsonType kind = JsonType::number_unsigned;  // number_unsigned, number_integer or number_float
  std::uint64_t bits = 0;                     // the integer kinds (an int64's two's complement)
  double real = 0;                            // number_float
};

[[nodiscard]] inline JsonType type_of(const nlohmann::json& value) {
  return value.type();
}
[[nodiscard]] inline JsonType type_of(JsonView value) {
  if (value.is_object()) return JsonType::object;
  if (value.is_array()) return JsonType::array;
  if (value.is_string()) return JsonType::string;
  if (value.is_number_float()) return JsonType::number_float;
  if (value.is_number_unsigned()) return JsonType::number_unsigned;
  if (value.is_number_integer()) return JsonType::number_integer;
  return value.is_boolean() ? JsonType::boolean : JsonType::null;
}

// Either tree's number (nlohmann::json, ordered_json), read alike.
template <class Tree>
[[nodiscard]] NumberValue number_of_tree(const Tree& value) {
  if (value.is_number_float()) return {JsonType::number_float, 0, value.template get<double>()};
  if (value.is_number_unsigned())
    return {JsonType::number_unsigned, value.template get<std::uint64_t>(), 0};
  return {JsonType::number_integer, static_cast<std::uint64_t>(value.template get<std::int64_t>()),
          0};
}

// Precondition: a number.
[[nodiscard]] inline NumberValue number_of(const nlohmann::json& value) {
  return number_of_tree(value);
}
// An ordered tree (a reply envelope, a stream event) would otherwise convert to a copy.
[[nodiscard]] inline NumberValue number_of(const nlohmann::ordered_json& value) {
  return number_of_tree(value);
}
[[nodiscard]] inline NumberValue number_of(JsonView value) {
  if (value.is_number_float()) return {JsonType::number_float, 0, value.get_double()};
  return {value.is_number_unsigned() ? JsonType::number_unsigned : JsonType::number_integer,
          value.get_unsigned(), 0};
}

[[nodiscard]] inline double as_double(const NumberValue& n) {
  if (n.kind == JsonType::number_float) return n.real;
  if (n.kind == JsonType::number_unsigned) return static_cast<double>(n.bits);
  return static_cast<double>(static_cast<std::int64_t>(n.bits));
}

[[nodiscard]] inline std::string_view text_of(const nlohmann::json& value) {
  return value.get_ref<const std::string&>();
}
[[nodiscard]] inline std::string_view text_of(const nlohmann::ordered_json& value) {
  return value.get_ref<const std::string&>();
}
[[nodiscard]] inline std::string_view text_of(JsonView value) {
  return value.get_string();
}
[[nodiscard]] inline bool boolean_of(const nlohmann::json& value) {
  return value.get<bool>();
}
[[nodiscard]] inline bool boolean_of(JsonView value) {
  return value.get_bool();
}

// What `for (item : items_of(v))` walks: an array's items.
[[nodiscard]] inline const nlohmann::json& items_of(const nlohmann::json& value) {
  return value;
}
[[nodiscard]] inline JsonView::Items items_of(JsonView value) {
  return value.items();
}

// The items of an array in order; the walk stops at the first `step(item)` that is false, and
// says whether none was.
template <class Step>
bool every_item(const nlohmann::json& value, Step step) {
  for (const auto& item : value) {
    if (!step(item)) return false;
  }
  return true;
}
template <class Step>
bool every_item(JsonView value, Step step) {
  for (JsonView item : value.items()) {
    if (!step(item)) return false;
  }
  return true;
}
// The members of an object in key order, as `step(key, value)`.
template <class Step>
bool every_member(const nlohmann::json& value, Step step) {
  for (const auto& [key, item] : value.get_ref<const nlohmann::json::object_t&>()) {
    if (!step(std::string_view(key), item)) return false;
  }
  return true;
}
template <class Step>
bool every_member(JsonView value, Step step) {
  for (const JsonMember& member : value.members()) {
    if (!step(member.key, member.value)) return false;
  }
  return true;
}

[[nodiscard]] inline const nlohmann::json* find_member(const nlohmann::json& object,
                                                       std::string_view key) {
  const auto& members = object.get_ref<const nlohmann::json::object_t&>();
  const auto it = members.find(key);
  return it == members.end() ? nullptr : &it->second;
}
// Any value of an ordered tree (a reply envelope, a stream event): nullptr unless an object with
// `key`.
[[nodiscard]] inline const nlohmann::ordered_json* find_member(const nlohmann::ordered_json& value,
                                                               std::string_view key) {
  if (!value.is_object()) return nullptr;
  const auto found = value.find(key);
  return found == value.end() ? nullptr : &*found;
}
// Any view: nullopt unless an object with `key`.
[[nodiscard]] inline std::optional<JsonView> find_member(JsonView value, std::string_view key) {
  return value.find(key);
}

}  // namespace accord::detail
