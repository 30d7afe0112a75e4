#include "core/json_depth.hpp"

namespace accord::detail {

std::size_t first_too_deep(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  return first_outside_strings(text, [&](std::size_t i) {
    const char c = text[i];
    if (c == '[' || c == '{') return ++depth > limit;
    if ((c == ']' || c == '}') && depth > 0) --depth;
    return false;
  });
}

}  // namespace accord::detail
