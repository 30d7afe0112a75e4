#pragma once
// ECMA-262 patterns (what JSON Schema's `pattern` means) run through RE2, which is linear-time:
// no stack overflow on long strings and no exponential blow-up, unlike std::regex.

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace accord::detail {

struct TranslatedRegex {
  std::string re2;    // RE2 syntax with ECMA-262 meaning; empty when `error` is set
  std::string error;  // why the pattern cannot be used (lookaround, backreferences, bad syntax)
  // The pattern is valid ECMA-262 but needs a backtracking engine (lookaround, backreferences);
  // `error` says which construct.
  bool needs_backtracking = false;
};

// Rewrites the parts where RE2 differs from ECMA-262 (read without the `u` flag, Annex B
// included, as JavaScript's RegExp(pattern) does): `.` excludes all line terminators, `\s` is
// ECMA's whitespace set, `\uXXXX` and `\u{...}` become `\x{...}`, `\v`, `\cX`, legacy octal
// escapes (`\01`, and `\1` when there is no group 1), `[\b]`, long Unicode property names,
// literal braces. Inline flags such as `(?i)` are syntax errors, as in ECMA-262. Lookaround and
// backreferences are reported as errors with `needs_backtracking` set.
[[nodiscard]] TranslatedRegex translate_ecma_regex(std::string_view pattern);

// Whether `pattern` is a syntactically valid ECMA-262 regular expression (JSON Schema's `regex`
// format): lookaround and backreferences count as valid even though RE2 cannot run them;
// identity escapes of letters (`\a`) are errors, as under the `u` flag.
[[nodiscard]] bool is_ecma_regex(std::string_view pattern);

struct CompiledRegex {
  std::shared_ptr<const re2::RE2> regex;  // null when `error` is set
  std::string error;
  bool needs_backtracking = false;  // as in TranslatedRegex
};

[[nodiscard]] CompiledRegex compile_ecma_regex(std::string_view pattern);

// Unanchored search, as JSON Schema's `pattern` and JavaScript's RegExp.test do.
[[nodiscard]] bool regex_search(const re2::RE2& regex, std::string_view text);

}  // namespace accord::detail
