#pragma once
// The fields a declarative rule names: the syntax of a field path ("shipping.country"), its
// segments, and the object schema each segment steps into in a JSON Schema.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/ascii.hpp"

namespace accord::detail {

using ojson = nlohmann::ordered_json;

// A field name is an identifier: ASCII letters, '_' and '$', then digits too.
constexpr bool field_name_start(char c) {
  return ascii_alpha(c) || c == '_' || c == '$';
}
constexpr bool field_name_char(char c) {
  return field_name_start(c) || ascii_digit(c);
}

// Identifiers joined with dots.
[[nodiscard]] bool valid_field_path(std::string_view path);
// Assumes valid_field_path.
[[nodiscard]] std::vector<std::string> field_segments(const std::string& path);

// The object schema a value of `schema` is when it is an object (inside a nullable wrapper too),
// its local $refs resolved in `root`; nullptr when it is none.
[[nodiscard]] const ojson* object_branch(const ojson* schema, const ojson& root);

}  // namespace accord::detail
