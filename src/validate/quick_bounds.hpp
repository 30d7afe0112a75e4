#pragma once
// A leaf's QuickBounds (validate/node.hpp): decided when the leaf is compiled (Compiler::finish),
// checked where the leaf is visited (Run::visit). The family files define both halves, beside
// the units they stand for: keywords/string.cpp and keywords/numeric.cpp.

#include <string_view>

#include "accord/json_view.hpp"
#include "validate/node.hpp"

namespace accord::detail {

// Whether every unit of `node` is a string bound checked inline (lengths, a checked format, a
// pattern of SimplePattern's subset).
[[nodiscard]] bool has_only_string_bounds(const Node& node);
// Marks `node` QuickBounds::number when every unit is a number bound exact as a double, and fills
// its quick doubles: they are read in the same pass that decides whether each one is exact.
void mark_quick_number_bounds(Node& node);

// Whether a value of a leaf with QuickBounds is inside every bound; false when it is outside one,
// or of another kind, or not exact as a double (its units then decide and word the issues).
[[nodiscard]] bool string_within_bounds(const Node& n, std::string_view text);
[[nodiscard]] bool number_within_bounds(const Node& n, JsonView v);
[[gnu::always_inline]] inline bool within_quick_bounds(const Node& n, JsonView v) {
  if (n.quick_bounds == QuickBounds::string) {
    return v.is_string() && string_within_bounds(n, v.get_string());
  }
  return v.is_number() && number_within_bounds(n, v);
}

}  // namespace accord::detail
