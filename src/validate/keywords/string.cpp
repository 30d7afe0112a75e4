// Strings: `minLength` and `maxLength` (in code points), `pattern` (ECMA-262, a byte loop for
// the simple anchored ones) and `format` (a check function chosen when compiled).

#include <algorithm>

#include "text/string_formats.hpp"
#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"
#include "validate/quick_bounds.hpp"

namespace accord::detail {
namespace {

// Unescaped '/' becomes "\/", as JavaScript's RegExp#toString shows the source.
std::string regex_display(const std::string& source) {
  std::string out = "/";
  bool in_class = false;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\' && i + 1 < source.size()) {
      out += c;
      out += source[++i];
      continue;
    }
    if (c == '[') in_class = true;
    if (c == ']') in_class = false;
    if (c == '/' && !in_class) out += '\\';
    out += c;
  }
  return out + "/";
}

// The text of a pattern made only of literal characters and escaped metacharacters (what
// starts_with/ends_with/includes emit); nullopt for a real regular expression.
std::optional<std::string> literal_of(std::string_view source) {
  constexpr std::string_view meta = "^$\\.*+?()[]{}|/";
  std::string out;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\') {
      if (i + 1 >= source.size() || meta.find(source[i + 1]) == std::string_view::npos) {
        return std::nullopt;
      }
      out += source[++i];
    } else if (meta.find(c) != std::string_view::npos) {
      return std::nullopt;
    } else {
      out += c;
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

bool ends_with_anchor(std::string_view source) {
  if (source.empty() || source.back() != '$') return false;
  std::size_t backslashes = 0;
  for (std::size_t i = source.size() - 1; i > 0 && source[i - 1] == '\\'; --i) ++backslashes;
  return backslashes % 2 == 0;
}

std::string pattern_message(const std::string& source) {
  const bool start = !source.empty() && source.front() == '^';
  const bool end = ends_with_anchor(source);
  if (start && !end) {
    if (auto text = literal_of(std::string_view(source).substr(1))) {
      return "Invalid string: must start with \"" + *text + "\"";
    }
  } else if (end && !start) {
    if (auto text = literal_of(std::string_view(source).substr(0, source.size() - 1))) {
      return "Invalid string: must end with \"" + *text + "\"";
    }
  } else if (!start && !end) {
    if (auto text = literal_of(source)) return "Invalid string: must include \"" + *text + "\"";
  }
  return "Invalid string: must match pattern " + regex_display(source);
}

// A code point takes at least one byte, so a string shorter in bytes than `min` is too short and
// one no longer than `max` fits without counting. (A quarter of the bytes is no lower bound: a
// tree built in code may hold continuation bytes alone, which count as nothing.) Otherwise the
// count stops at the bound: a long text is read only as far as `min` or `max` + 1 code points.
bool at_least(std::string_view text, std::uint64_t min) {
  if (text.size() < min) return false;
  std::uint64_t count = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && ++count >= min) return true;
  }
  return count >= min;
}
bool at_most(std::string_view text, std::uint64_t max) {
  if (text.size() <= max) return true;
  std::uint64_t count = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && ++count > max) return false;
  }
  return true;
}

}  // namespace

void compile_length(KeywordCompiler& k, const std::string& key, const ojson& value,
                    const Path& at) {
  const bool min = key == "minLength";
  (min ? k.node().min_length : k.node().max_length) = k.count(value, at, key);
  k.add_unit(min ? Unit::min_length : Unit::max_length);
}

void compile_pattern(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                     const Path& at) {
  k.node().pattern = k.regex(value, at);
  if (value.is_string()) {
    k.node().pattern_source = value.get<std::string>();
    k.node().pattern_issue = pattern_message(k.node().pattern_source);
  }
  k.add_unit(Unit::pattern);
}

void compile_format(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                    const Path& at) {
  if (!value.is_string()) {
    k.problem(at, "format must be a string");
    return;
  }
  if (k.options().formats != FormatMode::assertion) return;
  Node& node = k.node();
  node.format = value.get<std::string>();
  node.format_check = format_check(node.format, k.data().format_rules);
  node.format_issue = format_message(node.format);
  k.add_unit(Unit::format);
}

bool has_only_string_bounds(const Node& node) {
  return std::all_of(node.units.begin(), node.units.end(), [&](Unit unit) {
    return unit == Unit::min_length || unit == Unit::max_length || unit == Unit::format ||
           (unit == Unit::pattern && (!node.pattern || node.pattern.simple));
  });
}

bool string_within_bounds(const Node& n, std::string_view text) {
  if ((n.min_length && !at_least(text, *n.min_length)) ||
      (n.max_length && !at_most(text, *n.max_length))) {
    return false;
  }
  if (n.format_check != nullptr && !n.format_check(text)) return false;
  // As string_unit: a pattern that follows the format is not searched once the format passed.
  return !n.pattern || n.pattern_follows_format || n.pattern.simple->search(text);
}

bool Run::string_unit(Unit unit, const Node& n, std::string_view text, const Link* at,
                      bool format_failed) {
  switch (unit) {
    case Unit::min_length:
      if (!n.min_length || at_least(text, *n.min_length)) return true;
      return fail(IssueCode::too_small, at, false, [&] {
        return "Too small: expected string to have >=" + std::to_string(*n.min_length) +
               " characters";
      });
    case Unit::max_length:
      if (!n.max_length || at_most(text, *n.max_length)) return true;
      return fail(IssueCode::too_big, at, false, [&] {
        return "Too big: expected string to have <=" + std::to_string(*n.max_length) +
               " characters";
      });
    case Unit::format:
      if (!format_failed) return true;
      return fail(IssueCode::invalid_format, at, false,
                  [&] { return std::string(n.format_issue); });
    case Unit::pattern:
      if (!n.pattern || (n.pattern_follows_format && !format_failed)) return true;
      if (const auto matched = matches(n.pattern, text)) {
        if (*matched) return true;
      } else {
        return budget_spent(at, "pattern " + regex_display(n.pattern_source));
      }
      // The date check already said it; the issue is not repeated (the verdict stands).
      if (format_failed && n.pattern_source == kDatePattern) return false;
      return fail(IssueCode::invalid_format, at, false, [&] { return n.pattern_issue; });
    default:
      return true;
  }
}

}  // namespace accord::detail
