#pragma once
// Small helpers shared by the schema builders and the emitter: how numbers and rules are written.

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "accord/schema.hpp"

namespace accord::detail {

// Whole numbers become JSON integers so `1` is never written `1.0` (some validators reject
// decimal limits such as `maxLength: 2.0`).
inline nlohmann::json json_number(double value) {
  constexpr double kExactInt = 9007199254740992.0;  // 2^53: beyond it doubles skip integers
  if (std::isfinite(value) && std::trunc(value) == value && std::fabs(value) <= kExactInt) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}

inline std::string number_text(double value) {
  return json_number(value).dump();
}

// `more` appended to the description `text` as a new sentence: a full stop goes after `text` when
// it ends without one ("Preset to use" + "Must ..." -> "Preset to use. Must ...").
inline std::string joined_sentences(const std::string& text, const std::string& more) {
  const auto end = text.find_last_not_of(" \t\n");
  if (end == std::string::npos) return more;
  if (more.empty()) return text;
  const char last = text[end];
  const bool closed = last == '.' || last == '!' || last == '?' || last == ':';
  return text.substr(0, end + 1) + (closed ? " " : ". ") + more;
}

// A string as a JSON literal: quoted, with escapes.
inline std::string quoted(const std::string& text) {
  return nlohmann::json(text).dump();
}

// Backslash-escapes the ECMA-262 metacharacters so `text` matches itself literally.
inline std::string escaped(const std::string& text) {
  static constexpr std::string_view kMeta = "^$\\.*+?()[]{}|/";
  std::string out;
  for (char c : text) {
    if (kMeta.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// The rule as the user wrote it, for the Report and for problem messages.
inline std::string rule_text(const Check& check) {
  switch (check.op) {
    case Check::Op::min_length:
      return "min_length " + number_text(check.number);
    case Check::Op::max_length:
      return "max_length " + number_text(check.number);
    case Check::Op::length:
      return "length " + number_text(check.number);
    case Check::Op::regex:
      return "regex /" + check.text + "/";
    case Check::Op::starts_with:
      return "starts_with " + quoted(check.text);
    case Check::Op::ends_with:
      return "ends_with " + quoted(check.text);
    case Check::Op::includes:
      return "includes " + quoted(check.text);
    case Check::Op::format:
      return "format " + std::string(to_string(check.format));
    case Check::Op::gt:
      return "gt " + number_text(check.number);
    case Check::Op::gte:
      return "gte " + number_text(check.number);
    case Check::Op::lt:
      return "lt " + number_text(check.number);
    case Check::Op::lte:
      return "lte " + number_text(check.number);
    case Check::Op::multiple_of:
      return "multiple_of " + number_text(check.number);
    case Check::Op::min_items:
      return "min_items " + number_text(check.number);
    case Check::Op::max_items:
      return "max_items " + number_text(check.number);
  }
  return "?";
}

}  // namespace accord::detail
