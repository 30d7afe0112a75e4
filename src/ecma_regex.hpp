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
};

// Rewrites the parts where RE2 differs from ECMA-262: `.` excludes all line terminators, `\s`
// is Unicode whitespace, `\uXXXX` and `\u{...}` become `\x{...}`, `\v`, `\cX`, `\0`, class-only
// escapes, literal braces. Lookaround and backreferences are reported as errors.
[[nodiscard]] TranslatedRegex translate_ecma_regex(std::string_view pattern);

struct CompiledRegex {
  std::shared_ptr<const re2::RE2> regex;  // null when `error` is set
  std::string error;
};

[[nodiscard]] CompiledRegex compile_ecma_regex(std::string_view pattern);

// RE2's error for a pattern that did not compile, saying which engine limit a repetition broke.
[[nodiscard]] std::string re2_problem(const re2::RE2& regex);

// Unanchored search, as JSON Schema's `pattern` and JavaScript's RegExp.test do.
[[nodiscard]] bool regex_search(const re2::RE2& regex, std::string_view text);

}  // namespace accord::detail
