#include "ecma_regex.hpp"

#include <re2/re2.h>

#include <cstdio>

namespace accord::detail {
namespace {

// ECMA-262 WhiteSpace and LineTerminator, the members of \s.
constexpr std::string_view kSpaceSet =
    "\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}"
    "\\x{3000}\\x{FEFF}";
// What `.` matches: everything but line terminators.
constexpr std::string_view kDot = "[^\\n\\r\\x{2028}\\x{2029}]";

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::string code_point(unsigned long value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "\\x{%lX}", value);
  return buffer;
}

class Translator {
 public:
  explicit Translator(std::string_view p) : p_(p) {}

  TranslatedRegex run() {
    while (i_ < p_.size() && error_.empty()) {
      if (in_class_) {
        class_char();
      } else {
        outside_char();
      }
    }
    if (error_.empty() && in_class_) error_ = "missing ] at the end of a character class";
    if (!error_.empty()) return {"", error_};
    return {out_, ""};
  }

 private:
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
      error_ = "lookahead (?= or (?! is not supported by the linear-time regex engine";
    } else if (rest.starts_with("<=") || rest.starts_with("<!")) {
      error_ = "lookbehind (?<= or (?<! is not supported by the linear-time regex engine";
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
    while (j < p_.size() && is_digit(p_[j])) ++j, ++digits;
    bool quantifier = false;
    if (digits > 0 && j < p_.size()) {
      if (p_[j] == '}') {
        quantifier = true;
      } else if (p_[j] == ',') {
        ++j;
        while (j < p_.size() && is_digit(p_[j])) ++j;
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
      if (!is_hex(p_[k])) return -1;
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
      while (j < p_.size() && is_hex(p_[j]) && digits < 8) {
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
    std::string name(p_.substr(i_ + 2, close - i_ - 2));
    if (auto eq = name.find('='); eq != std::string::npos) name = name.substr(eq + 1);
    out_ += '\\';
    out_ += kind;
    out_ += "{" + name + "}";
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
          out_ += "\\S";  // RE2's narrower set; a negated set cannot be spliced into a class
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
        if (i_ + 1 < p_.size() && is_digit(p_[i_ + 1])) {
          error_ = "octal escapes are not supported";
          return;
        }
        out_ += "\\x00";
        ++i_;
        return;
      case 'x':
        if (i_ + 2 < p_.size() && is_hex(p_[i_ + 1]) && is_hex(p_[i_ + 2])) {
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
        if (i_ + 1 < p_.size() && is_ascii_letter(p_[i_ + 1])) {
          out_ += code_point(static_cast<unsigned long>(p_[i_ + 1]) % 32);
          i_ += 2;
        } else {
          out_ += "\\\\c";
          ++i_;
        }
        return;
      case 'p':
      case 'P':
        property_escape(c);
        return;
      case 'k':
        if (i_ + 1 < p_.size() && p_[i_ + 1] == '<') {
          error_ = "backreferences are not supported by the linear-time regex engine";
          return;
        }
        out_ += 'k';
        ++i_;
        return;
      default:
        break;
    }
    if (c >= '1' && c <= '9') {
      error_ = "backreferences are not supported by the linear-time regex engine";
      return;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80 || is_ascii_letter(c) || c == '_') {
      // Identity escape of a character with no special meaning.
      out_ += c;
    } else {
      out_ += '\\';
      out_ += c;
    }
    ++i_;
  }

  std::string_view p_;
  std::size_t i_ = 0;
  bool in_class_ = false;
  std::string out_;
  std::string error_;
};

}  // namespace

TranslatedRegex translate_ecma_regex(std::string_view pattern) {
  return Translator(pattern).run();
}

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

CompiledRegex compile_ecma_regex(std::string_view pattern) {
  auto translated = translate_ecma_regex(pattern);
  if (!translated.error.empty()) return {nullptr, translated.error};
  RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(RE2::Options::EncodingUTF8);
  auto regex = std::make_shared<const RE2>(translated.re2, options);
  if (!regex->ok()) return {nullptr, re2_problem(*regex)};
  return {std::move(regex), ""};
}

bool regex_search(const re2::RE2& regex, std::string_view text) {
  // Match() directly: PartialMatch() with no captures only adds argument plumbing around it.
  return regex.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED,
                     nullptr, 0);
}

}  // namespace accord::detail
