#pragma once
// ECMA-262 patterns (what JSON Schema's `pattern` means) run through RE2, which is linear-time:
// no stack overflow on long strings and no exponential blow-up, unlike std::regex. The patterns
// RE2 cannot run (lookaround, backreferences) run through PCRE2 with a bounded match budget.

#include <algorithm>
#include <cstdint>
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

// The backtracking steps (PCRE2's match limit) one validation may spend across every
// lookaround or backreference pattern it runs: a document of many hostile strings is bounded as
// a whole, not per string. Not shared between threads: one per validation, which also owns the
// PCRE2 match context and match data its searches run with (made at the first one, then reused).
class BacktrackingBudget {
 public:
  // About 10-20 ms of PCRE2 on one core; a sensible lookaround on a 1 KB string takes under 10,000.
  static constexpr std::uint64_t kPerDocument = 10'000'000;

  explicit BacktrackingBudget(std::uint64_t steps = kPerDocument) : left_(steps) {}
  [[nodiscard]] bool spent() const { return left_ == 0; }
  [[nodiscard]] std::uint64_t left() const { return left_; }
  void charge(std::uint64_t steps) { left_ -= std::min(steps, left_); }

 private:
  friend class EcmaRegex;
  struct Scratch;  // ecma_regex.cpp
  struct FreeScratch {
    void operator()(Scratch* scratch) const;
  };
  // The match context and data, made now if this is the first search; null when out of memory.
  Scratch* scratch();

  std::uint64_t left_;
  std::unique_ptr<Scratch, FreeScratch> scratch_;
};

// A compiled pattern: RE2 when the pattern is regular, otherwise PCRE2 (lookaround,
// backreferences), whose backtracking is cut off after kBacktrackingBudget steps. Immutable, so
// one instance serves every thread.
class EcmaRegex {
 public:
  // Match steps PCRE2 may take for one subject (its match limit): far above what a sensible
  // lookaround needs on a long string, and a few milliseconds at worst.
  static constexpr unsigned kBacktrackingBudget = 1'000'000;

  explicit EcmaRegex(std::unique_ptr<const re2::RE2> linear);
  struct Backtracking;
  explicit EcmaRegex(std::shared_ptr<const Backtracking> backtracking);
  ~EcmaRegex();
  EcmaRegex(const EcmaRegex&) = delete;
  EcmaRegex& operator=(const EcmaRegex&) = delete;

  // Unanchored search, as JSON Schema's `pattern` and JavaScript's RegExp.test do. A subject
  // that exhausts the backtracking budget does not match: the value is rejected, never passed
  // unchecked.
  [[nodiscard]] bool search(std::string_view text) const;
  // The same within `budget`, charged with the steps PCRE2 took (at most kBacktrackingBudget
  // for this subject); nothing is charged for RE2, which is linear. Once the budget is spent
  // every backtracking search fails at once.
  [[nodiscard]] bool search(std::string_view text, BacktrackingBudget& budget) const;
  [[nodiscard]] bool backtracks() const { return backtracking_ != nullptr; }

 private:
  std::unique_ptr<const re2::RE2> linear_;
  std::shared_ptr<const Backtracking> backtracking_;
};

struct CompiledRegex {
  std::shared_ptr<const EcmaRegex> regex;  // null when `error` is set
  std::string error;
  // The pattern needs a backtracking engine (lookaround, backreferences): it runs on PCRE2, or
  // `error` says why PCRE2 refused it too.
  bool needs_backtracking = false;
};

[[nodiscard]] CompiledRegex compile_ecma_regex(std::string_view pattern);

// Unanchored search, as JSON Schema's `pattern` and JavaScript's RegExp.test do.
[[nodiscard]] inline bool regex_search(const EcmaRegex& regex, std::string_view text) {
  return regex.search(text);
}

}  // namespace accord::detail
