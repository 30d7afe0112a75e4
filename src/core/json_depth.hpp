#pragma once
// How deeply JSON nests, asked before anything recursive walks it: of text (a byte scan that
// skips strings and builds nothing, however hostile the text) and of a parsed value (recursion
// bounded by the limit, so a value nested far deeper costs no more stack than the limit).

#include <cstddef>
#include <string_view>

namespace accord::detail {

// The offset of the first byte outside JSON strings for which `stop(offset)` is true, or npos.
template <class Stop>
std::size_t first_outside_strings(std::string_view text, Stop stop) {
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (stop(i)) {
      return i;
    }
  }
  return std::string_view::npos;
}

// The offset of the first '[' or '{' that nests deeper than `limit`, or npos when within it.
[[nodiscard]] std::size_t first_too_deep(std::string_view text, std::size_t limit);

// True when some array or object inside `value` (a nlohmann json of either kind) is nested
// deeper than `limit`. The recursion stops at the limit.
template <class Json>
[[nodiscard]] bool nests_deeper_than(const Json& value, std::size_t limit) {
  if (!value.is_structured()) return false;
  if (limit == 0) return true;
  for (const auto& child : value) {
    if (nests_deeper_than(child, limit - 1)) return true;
  }
  return false;
}

}  // namespace accord::detail
