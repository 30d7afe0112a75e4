#pragma once
// ASCII character classes for parsers of wire text: unlike <cctype> they ignore the locale and
// never see a negative `char` as undefined behaviour.

#include <string>
#include <string_view>

namespace accord::detail {

constexpr bool ascii_digit(char c) {
  return c >= '0' && c <= '9';
}
constexpr bool ascii_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool ascii_alnum(char c) {
  return ascii_digit(c) || ascii_alpha(c);
}
constexpr bool ascii_hex(char c) {
  return ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// The value of one hex digit, or -1.
constexpr int hex_value(char c) {
  if (ascii_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}
// Without the spaces, tabs and line breaks at either end (HTTP header values, numbers in them).
constexpr std::string_view trim_blanks(std::string_view text) {
  constexpr auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace accord::detail
