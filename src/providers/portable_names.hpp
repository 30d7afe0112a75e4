#pragma once
// Names every provider takes, for names accord makes up (a tool's, a correction patch's keys):
// 1 to 64 of A-Z, a-z, 0-9, `_` and `-`. Anthropic holds tool names and property keys to this
// (property keys may add `.`); OpenAI tool names too. A provider with a stricter rule narrows it
// here, for all of them.

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace accord::detail {

inline constexpr std::size_t kMaxPortableName = 64;

[[nodiscard]] constexpr bool portable_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// A non-empty run of portable characters (its length is the caller's: a patch key joins several).
[[nodiscard]] constexpr bool portable_chars(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), portable_name_char);
}

[[nodiscard]] constexpr bool portable_name(std::string_view name) {
  return portable_chars(name) && name.size() <= kMaxPortableName;
}

}  // namespace accord::detail
