#pragma once
// The field an object node declares under a key (its fields, not a record's or a passthrough's
// other keys): one search for every reader that asks whether a key is declared.

#include <algorithm>
#include <string_view>

#include "accord/schema.hpp"

namespace accord::detail {

inline const Field* declared_field(const SchemaNode& node, std::string_view name) {
  const auto found = std::find_if(node.fields.begin(), node.fields.end(),
                                  [&](const Field& field) { return field.name == name; });
  return found == node.fields.end() ? nullptr : &*found;
}

inline bool declares(const SchemaNode& node, std::string_view name) {
  return declared_field(node, name) != nullptr;
}

}  // namespace accord::detail
