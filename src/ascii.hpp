#pragma once
// ASCII character classes for parsers of wire text: unlike <cctype> they ignore the locale and
// never see a negative `char` as undefined behaviour.

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

}  // namespace accord::detail
