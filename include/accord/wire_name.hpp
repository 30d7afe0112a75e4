#pragma once
// The names a provider takes on the wire: a schema's name, a tool's name, the keys a scoped
// correction builds from a path. OpenAI and Anthropic both accept 1 to 64 ASCII letters, digits,
// '_' and '-'.

#include <cstddef>
#include <string_view>

namespace accord {

inline constexpr std::size_t kMaxWireNameLength = 64;

// Whether `name` is 1 to kMaxWireNameLength of A-Z, a-z, 0-9, '_' and '-'. ASCII only: the
// locale plays no part, and no byte of a multi-byte character is a letter.
[[nodiscard]] constexpr bool is_wire_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxWireNameLength) return false;
  for (const char c : name) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter && !(c >= '0' && c <= '9') && c != '_' && c != '-') return false;
  }
  return true;
}

}  // namespace accord
