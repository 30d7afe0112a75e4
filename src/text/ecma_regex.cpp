#include "text/ecma_regex.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <re2/re2.h>

#include <cstdio>

#include "core/ascii.hpp"

namespace accord::detail {
namespace {

// ECMA-262 WhiteSpace and LineTerminator, the members of \s.
constexpr std::string_view kSpaceSet =
    "\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}"
    "\\x{3000}\\x{FEFF}";
// The complement of kSpaceSet as ranges, for \S inside a class (RE2's \S still matches \v and
// NBSP).
constexpr std::string_view kNonSpaceSet =
    "\\x00-\\x08\\x0E-\\x1F\\x21-\\x9F\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}"
    "\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}"
    "\\x{FF00}-\\x{10FFFF}";
// What `.` matches: everything but line terminators.
constexpr std::string_view kDot = "[^\\n\\r\\x{2028}\\x{2029}]";

std::string code_point(unsigned long value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "\\x{%lX}", value);
  return buffer;
}

// Long General_Category names (and `digit`, which ECMA engines accept for Nd) as RE2's short
// ones; script names are the same in both.
std::string_view short_property_name(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
      {"Letter", "L"},
      {"Uppercase_Letter", "Lu"},
      {"Lowercase_Letter", "Ll"},
      {"Titlecase_Letter", "Lt"},
      {"Modifier_Letter", "Lm"},
      {"Other_Letter", "Lo"},
      {"Mark", "M"},
      {"Nonspacing_Mark", "Mn"},
      {"Spacing_Mark", "Mc"},
      {"Enclosing_Mark", "Me"},
      {"Number", "N"},
      {"Decimal_Number", "Nd"},
      {"digit", "Nd"},
      {"Letter_Number", "Nl"},
      {"Other_Number", "No"},
      {"Punctuation", "P"},
      {"punct", "P"},
      {"Connector_Punctuation", "Pc"},
      {"Dash_Punctuation", "Pd"},
      {"Open_Punctuation", "Ps"},
      {"Close_Punctuation", "Pe"},
      {"Initial_Punctuation", "Pi"},
      {"Final_Punctuation", "Pf"},
      {"Other_Punctuation", "Po"},
      {"Symbol", "S"},
      {"Math_Symbol", "Sm"},
      {"Currency_Symbol", "Sc"},
      {"Modifier_Symbol", "Sk"},
      {"Other_Symbol", "So"},
      {"Separator", "Z"},
      {"Space_Separator", "Zs"},
      {"Line_Separator", "Zl"},
      {"Paragraph_Separator", "Zp"},
      {"Other", "C"},
      {"Control", "Cc"},
      {"cntrl", "Cc"},
      {"Format", "Cf"},
      {"Surrogate", "Cs"},
      {"Private_Use", "Co"},
      {"Unassigned", "Cn"}};
  for (const auto& [long_name, short_name] : kNames) {
    if (name == long_name) return short_name;
  }
  return name;
}

// Capturing groups in the pattern: `(` outside a class, not `(?` unless a named group.
std::size_t count_groups(std::string_view p) {
  std::size_t groups = 0;
  bool in_class = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
    } else if (in_class) {
      in_class = p[i] != ']';
    } else if (p[i] == '[') {
      in_class = true;
    } else if (p[i] == '(') {
      const auto rest = p.substr(i + 1);
      if (!rest.starts_with("?") ||
          (rest.starts_with("?<") && !rest.starts_with("?<=") && !rest.starts_with("?<!"))) {
        ++groups;
      }
    }
  }
  return groups;
}

struct Translation {
  std::string re2;           // also set when only `backtracking` is: the pattern minus those parts
  std::string error;         // a syntax error
  std::string backtracking;  // the first construct RE2 cannot run
};

class Translator {
 public:
  // `strict`: identity escapes of letters and digits are errors, as under the `u` flag.
  // `backtracking`: the output is for PCRE2, so lookaround and backreferences are written out
  // instead of reported.
  Translator(std::string_view p, bool strict, bool backtracking = false)
      : p_(p), strict_(strict), backtracking_target_(backtracking), groups_(count_groups(p)) {}

  Translation run() {
    while (i_ < p_.size() && error_.empty()) {
      if (in_class_) {
        class_char();
      } else {
        outside_char();
      }
    }
    if (error_.empty() && in_class_) error_ = "missing ] at the end of a character class";
    return {out_, error_, backtracking_};
  }

 private:
  void needs_backtracking(std::string_view what) {
    if (backtracking_.empty()) backtracking_ = what;
  }

  // A lookaround opener: kept for PCRE2; for RE2 a plain group, so the rest is still checked.
  void lookaround(std::size_t length, std::string_view what) {
    needs_backtracking(what);
    out_ += backtracking_target_ ? p_.substr(i_, length) : std::string_view("(?:");
    i_ += length;
  }

  void outside_char() {
    const char c = p_[i_];
    switch (c) {
      case '\\':
        escape();
        return;
      case '.':
        out_ += kDot;
        ++i_;
        return;
      case '[':
        open_class();
        return;
      case '(':
        group();
        return;
      case '{':
        brace();
        return;
      case '}':
      case ']':
        // Annex B: a lone closing bracket is a literal.
        out_ += '\\';
        out_ += c;
        ++i_;
        return;
      default:
        out_ += c;
        ++i_;
    }
  }

  void class_char() {
    const char c = p_[i_];
    if (c == ']') {
      in_class_ = false;
      out_ += ']';
      ++i_;
    } else if (c == '\\') {
      escape();
    } else if (c == '[') {
      // Literal in ECMA-262; RE2 would read `[:` as a POSIX class.
      out_ += "\\[";
      ++i_;
    } else {
      out_ += c;
      ++i_;
    }
  }

  void open_class() {
    // `[]` matches nothing and `[^]` matches anything in ECMA-262; RE2 rejects both.
    if (p_.substr(i_, 2) == "[]") {
      out_ += "[^\\x00-\\x{10FFFF}]";
      i_ += 2;
      return;
    }
    if (p_.substr(i_, 3) == "[^]") {
      out_ += "[\\x00-\\x{10FFFF}]";
      i_ += 3;
      return;
    }
    in_class_ = true;
    out_ += '[';
    ++i_;
    if (i_ < p_.size() && p_[i_] == '^') {
      out_ += '^';
      ++i_;
    }
  }

  void group() {
    if (p_.substr(i_, 2) != "(?") {
      out_ += '(';
      ++i_;
      return;
    }
    const std::string_view rest = p_.substr(i_ + 2);
    if (rest.starts_with(":")) {
      out_ += "(?:";
      i_ += 3;
    } else if (rest.starts_with("=") || rest.starts_with("!")) {
      lookaround(3, "lookahead (?= or (?! is not supported by the linear-time regex engine");
    } else if (rest.starts_with("<=") || rest.starts_with("<!")) {
      lookaround(4, "lookbehind (?<= or (?<! is not supported by the linear-time regex engine");
    } else if (rest.starts_with("<")) {
      out_ += "(?P<";
      i_ += 3;
    } else {
      error_ = "unsupported group syntax (?" + std::string(rest.substr(0, 1));
    }
  }

  // A brace is a quantifier only as {n}, {n,} or {n,m}; anything else is a literal (Annex B).
  void brace() {
    std::size_t j = i_ + 1;
    std::size_t digits = 0;
    while (j < p_.size() && ascii_digit(p_[j])) ++j, ++digits;
    bool quantifier = false;
    if (digits > 0 && j < p_.size()) {
      if (p_[j] == '}') {
        quantifier = true;
      } else if (p_[j] == ',') {
        ++j;
        while (j < p_.size() && ascii_digit(p_[j])) ++j;
        quantifier = j < p_.size() && p_[j] == '}';
      }
    }
    if (quantifier) {
      out_ += p_.substr(i_, j + 1 - i_);
      i_ = j + 1;
    } else {
      out_ += "\\{";
      ++i_;
    }
  }

  // Reads 4 hex digits at `at`; returns -1 when they are not there.
  long hex4(std::size_t at) const {
    if (at + 4 > p_.size()) return -1;
    long value = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
      if (!ascii_hex(p_[k])) return -1;
      value = value * 16 + hex_value(p_[k]);
    }
    return value;
  }

  void unicode_escape() {
    // i_ points at 'u'.
    if (i_ + 1 < p_.size() && p_[i_ + 1] == '{') {
      std::size_t j = i_ + 2;
      unsigned long value = 0;
      std::size_t digits = 0;
      while (j < p_.size() && ascii_hex(p_[j]) && digits < 8) {
        value = value * 16 + static_cast<unsigned long>(hex_value(p_[j]));
        ++j, ++digits;
      }
      if (digits == 0 || j >= p_.size() || p_[j] != '}' || value > 0x10FFFF) {
        error_ = "bad \\u{...} escape";
        return;
      }
      emit_code_point(value);
      i_ = j + 1;
      return;
    }
    const long unit = hex4(i_ + 1);
    if (unit < 0) {  // Annex B: `\u` not followed by hex digits is the letter u
      out_ += 'u';
      ++i_;
      return;
    }
    if (unit >= 0xD800 && unit <= 0xDBFF && p_.substr(i_ + 5, 2) == "\\u") {
      const long low = hex4(i_ + 7);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        emit_code_point(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
        i_ += 11;
        return;
      }
    }
    emit_code_point(static_cast<unsigned long>(unit));
    i_ += 5;
  }

  void emit_code_point(unsigned long value) {
    if (value >= 0xD800 && value <= 0xDFFF) {
      error_ = "a lone surrogate \\u escape cannot match UTF-8 text";
      return;
    }
    out_ += code_point(value);
  }

  void property_escape(char kind) {
    // i_ points at 'p' or 'P'; RE2 knows general categories and scripts by their short names.
    if (i_ + 1 >= p_.size() || p_[i_ + 1] != '{') {
      out_ += kind;
      ++i_;
      return;
    }
    const auto close = p_.find('}', i_ + 2);
    if (close == std::string_view::npos) {
      error_ = "bad \\p{...} escape";
      return;
    }
    std::string_view name = p_.substr(i_ + 2, close - i_ - 2);
    if (auto eq = name.find('='); eq != std::string_view::npos) name = name.substr(eq + 1);
    out_ += '\\';
    out_ += kind;
    out_ += "{" + std::string(short_property_name(name)) + "}";
    i_ = close + 1;
  }

  void escape() {
    if (i_ + 1 >= p_.size()) {
      error_ = "\\ at the end of the pattern";
      return;
    }
    ++i_;  // now at the escaped character
    const char c = p_[i_];
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 'f':
      case 'n':
      case 'r':
      case 't':
        out_ += '\\';
        out_ += c;
        ++i_;
        return;
      case 'b':
      case 'B':
        if (in_class_ && c == 'b') {
          out_ += "\\x08";  // backspace inside a class
        } else {
          out_ += '\\';
          out_ += c;
        }
        ++i_;
        return;
      case 's':
        if (in_class_) {
          out_ += kSpaceSet;
        } else {
          out_ += "[" + std::string(kSpaceSet) + "]";
        }
        ++i_;
        return;
      case 'S':
        if (in_class_) {
          out_ += kNonSpaceSet;  // a negated set cannot be spliced into a class: its ranges can
        } else {
          out_ += "[^" + std::string(kSpaceSet) + "]";
        }
        ++i_;
        return;
      case 'v':
        out_ += "\\x0B";
        ++i_;
        return;
      case '0':
        legacy_octal();
        return;
      case 'x':
        if (i_ + 2 < p_.size() && ascii_hex(p_[i_ + 1]) && ascii_hex(p_[i_ + 2])) {
          out_ += "\\x";
          out_ += p_.substr(i_ + 1, 2);
          i_ += 3;
        } else {
          out_ += 'x';
          ++i_;
        }
        return;
      case 'u':
        unicode_escape();
        return;
      case 'c':
        if (i_ + 1 < p_.size() && (ascii_alpha(p_[i_ + 1]) ||
                                   (in_class_ && (ascii_digit(p_[i_ + 1]) || p_[i_ + 1] == '_')))) {
          // Annex B also reads `[\c1]` and `[\c_]` as control characters.
          out_ += code_point(static_cast<unsigned long>(p_[i_ + 1]) % 32);
          i_ += 2;
        } else if (strict_) {
          error_ = "\\c must be followed by a letter";
        } else {
          out_ += "\\\\c";  // Annex B: a backslash and a c
          ++i_;
        }
        return;
      case 'p':
      case 'P':
        property_escape(c);
        return;
      case 'k':
        if (i_ + 1 < p_.size() && p_[i_ + 1] == '<') {
          const auto close = p_.find('>', i_ + 2);
          if (close == std::string_view::npos) {
            error_ = "\\k< without a closing >";
            return;
          }
          needs_backtracking("backreferences are not supported by the linear-time regex engine");
          if (backtracking_target_) out_ += p_.substr(i_ - 1, close + 2 - i_);
          i_ = close + 1;
          return;
        }
        if (strict_) {
          error_ = "\\k must name a group: \\k<name>";
          return;
        }
        out_ += 'k';
        ++i_;
        return;
      default:
        break;
    }
    if (c >= '1' && c <= '9') {
      decimal_escape();
      return;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (strict_ && (ascii_alpha(c) || ascii_digit(c))) {
      // Appended piece by piece: g++ 12 misreads `string&& + const char*` (GCC PR 105651).
      error_.assign("\\").append(1, c).append(" is not an ECMA-262 escape");
      return;
    }
    if (byte >= 0x80 || ascii_alpha(c) || c == '_') {
      // Identity escape of a character with no special meaning.
      out_ += c;
    } else {
      out_ += '\\';
      out_ += c;
    }
    ++i_;
  }

  // Annex B's LegacyOctalEscapeSequence, i_ at its first digit: up to three octal digits worth
  // at most 0377 (`\0` alone is NUL; `\08` is NUL then 8).
  void legacy_octal() {
    const std::size_t max_digits = p_[i_] <= '3' ? 3 : 2;
    unsigned long value = 0;
    std::size_t digits = 0;
    while (digits < max_digits && i_ < p_.size() && p_[i_] >= '0' && p_[i_] <= '7') {
      value = value * 8 + static_cast<unsigned long>(p_[i_] - '0');
      ++i_, ++digits;
    }
    out_ += code_point(value);
  }

  // `\N`, i_ at its first digit: a backreference when group N exists; otherwise (Annex B) an
  // octal escape, or the digit itself for 8 and 9. Inside a class it is never a backreference.
  void decimal_escape() {
    std::size_t end = i_;
    std::size_t number = 0;
    while (end < p_.size() && ascii_digit(p_[end]) && number <= groups_) {
      number = number * 10 + static_cast<std::size_t>(p_[end] - '0');
      ++end;
    }
    if (!in_class_ && number <= groups_) {
      needs_backtracking("backreferences are not supported by the linear-time regex engine");
      // \g{N}: a digit after it stays a literal.
      if (backtracking_target_) out_ += "\\g{" + std::to_string(number) + "}";
      i_ = end;
    } else if (strict_) {
      error_.assign("\\")
          .append(p_.substr(i_, end - i_))
          .append(" refers to a group that does not exist");
    } else if (p_[i_] >= '8') {
      out_ += p_[i_];
      ++i_;
    } else {
      legacy_octal();
    }
  }

  std::string_view p_;
  bool strict_;
  bool backtracking_target_;
  std::size_t groups_;
  std::size_t i_ = 0;
  bool in_class_ = false;
  std::string out_;
  std::string error_;
  std::string backtracking_;
};

RE2::Options re2_options() {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(RE2::Options::EncodingUTF8);
  return options;
}

// RE2's error for a pattern that did not compile, saying which engine limit a repetition broke.
std::string re2_problem(const re2::RE2& regex) {
  // RE2 refuses {n} above 1000, and nested repetitions whose counts multiply past 1000, with
  // only "invalid repetition size": say which limit it is.
  if (regex.error_code() == RE2::ErrorRepeatSize) {
    return "a repetition is too large for the regex engine (RE2 allows at most 1000 repeats, "
           "nested repetitions multiplied: ((a{100}){100}) is 10000): " +
           regex.error();
  }
  return regex.error();
}

}  // namespace

TranslatedRegex translate_ecma_regex(std::string_view pattern) {
  auto translation = Translator(pattern, false).run();
  if (!translation.error.empty()) return {"", std::move(translation.error), false};
  if (!translation.backtracking.empty()) return {"", std::move(translation.backtracking), true};
  return {std::move(translation.re2), "", false};
}

bool is_ecma_regex(std::string_view pattern) {
  // The rest of the syntax (balanced groups, quantifier placement) is RE2's to check, on the
  // pattern with its lookarounds made plain groups and its backreferences left out.
  const auto translation = Translator(pattern, true).run();
  return translation.error.empty() && RE2(translation.re2, re2_options()).ok();
}

// PCRE2 with ECMA-262's meaning: `$` only at the very end, a backreference to a group that did
// not take part matches the empty string.
struct EcmaRegex::Backtracking {
  pcre2_code* code = nullptr;
  ~Backtracking() { pcre2_code_free(code); }
};

// Made once per run rather than per search: a search sets the match limit it needs on the context
// (the heap limit is the same for all), and the match data holds one pair whatever the pattern.
struct BacktrackingBudget::Scratch {
  pcre2_match_context* context = pcre2_match_context_create(nullptr);
  pcre2_match_data* data = pcre2_match_data_create(1, nullptr);
  ~Scratch() {
    pcre2_match_data_free(data);
    pcre2_match_context_free(context);
  }
};

void BacktrackingBudget::FreeScratch::operator()(Scratch* scratch) const {
  delete scratch;
}

BacktrackingBudget::Scratch* BacktrackingBudget::scratch() {
  if (!scratch_) {
    scratch_.reset(new Scratch);
    if (scratch_->context == nullptr || scratch_->data == nullptr) {
      scratch_.reset();
      return nullptr;
    }
    pcre2_set_heap_limit(scratch_->context, 64 * 1024);  // KiB
  }
  return scratch_.get();
}

EcmaRegex::EcmaRegex(std::unique_ptr<const re2::RE2> linear) : linear_(std::move(linear)) {}
EcmaRegex::EcmaRegex(std::shared_ptr<const Backtracking> backtracking)
    : backtracking_(std::move(backtracking)) {}
EcmaRegex::~EcmaRegex() = default;

namespace {

// The first try's match limit: most sensible lookarounds finish well within it.
constexpr std::uint64_t kFirstTrySteps = 10'000;

}  // namespace

bool EcmaRegex::search(std::string_view text) const {
  BacktrackingBudget budget(kBacktrackingBudget);
  return search(text, budget);
}

bool EcmaRegex::search(std::string_view text, BacktrackingBudget& budget) const {
  if (linear_) {
    // Match() directly: PartialMatch() with no captures only adds argument plumbing around it.
    return linear_->Match(re2::StringPiece(text.data(), text.size()), 0, text.size(),
                          RE2::UNANCHORED, nullptr, 0);
  }
  if (budget.spent()) return false;
  BacktrackingBudget::Scratch* scratch = budget.scratch();
  if (scratch == nullptr) return false;
  pcre2_match_context* context = scratch->context;
  pcre2_match_data* data = scratch->data;
  const auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  // PCRE2 does not say how many steps a match took, only whether it stayed within its limit:
  // the limit starts small and grows fourfold; each try that reaches it is charged whole and
  // the try that finishes is charged the limit before it (it ran past that), so what is charged
  // is at most what ran and no try runs past the budget left.
  const std::uint64_t most = std::min<std::uint64_t>(kBacktrackingBudget, budget.left());
  std::uint64_t ran_past = 0;
  for (std::uint64_t limit = std::min<std::uint64_t>(kFirstTrySteps, most);;
       limit = std::min(limit * 4, most)) {
    pcre2_set_match_limit(context, static_cast<std::uint32_t>(limit));
    int rc = pcre2_match(backtracking_->code, subject, text.size(), 0, 0, data, context);
    // The JIT's stack is small; the interpreter keeps its frames on the heap, within the limit.
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
      rc = pcre2_match(backtracking_->code, subject, text.size(), 0, PCRE2_NO_JIT, data, context);
    }
    if (rc != PCRE2_ERROR_MATCHLIMIT) {
      budget.charge(ran_past);
      return rc >= 0;  // a match, no match, or the heap or depth limit
    }
    budget.charge(limit);
    ran_past = limit;
    if (limit == most) return false;  // this subject's limit, or the budget, is spent
  }
}

namespace {

CompiledRegex compile_backtracking(std::string_view pattern) {
  auto translation = Translator(pattern, false, true).run();
  if (!translation.error.empty()) return {nullptr, std::move(translation.error), true};
  auto backtracking = std::make_shared<EcmaRegex::Backtracking>();
  int code = 0;
  PCRE2_SIZE offset = 0;
  backtracking->code = pcre2_compile(
      reinterpret_cast<PCRE2_SPTR>(translation.re2.data()), translation.re2.size(),
      PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_MATCH_UNSET_BACKREF, &code, &offset, nullptr);
  if (!backtracking->code) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(code, message, sizeof message);
    return {nullptr,
            "the backtracking engine (PCRE2) refuses it: " +
                std::string(reinterpret_cast<const char*>(message)),
            true};
  }
  // Without the JIT (an unusual build) the interpreter gives the same answers, slower.
  (void)pcre2_jit_compile(backtracking->code, PCRE2_JIT_COMPLETE);
  return {std::make_shared<const EcmaRegex>(std::move(backtracking)), "", true};
}

}  // namespace

CompiledRegex compile_ecma_regex(std::string_view pattern) {
  auto translated = translate_ecma_regex(pattern);
  if (translated.needs_backtracking) return compile_backtracking(pattern);
  if (!translated.error.empty()) return {nullptr, std::move(translated.error), false};
  auto regex = std::make_unique<const RE2>(translated.re2, re2_options());
  if (!regex->ok()) return {nullptr, re2_problem(*regex), false};
  return {std::make_shared<const EcmaRegex>(std::move(regex)), "", false};
}

}  // namespace accord::detail
