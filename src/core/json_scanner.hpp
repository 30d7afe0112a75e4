#pragma once
// The lexical half of the quick JSON readers (core/fast_json.hpp builds trees, core/json_tape
// builds tapes): strings, numbers and literals read the way nlohmann reads them, or a refusal
// (false) on anything unusual, after which the caller leaves the text to nlohmann. The rules
// for refusing are in core/fast_json.hpp.

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "core/ascii.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace accord::detail {

// Recursion stays well inside the stack whatever limit the caller asks for; deeper text goes to
// nlohmann's parser, which does not recurse.
inline constexpr std::size_t kMaxQuickRecursion = 512;

namespace scan {
// Longer number tokens are left to nlohmann (strtod); they never occur in practice.
inline constexpr std::ptrdiff_t kMaxFloatToken = 64;

// The powers of ten a double holds exactly.
inline constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

inline bool in(unsigned char c, unsigned char low, unsigned char high) {
  return c >= low && c <= high;
}

// Length of the well-formed UTF-8 sequence at `p` (RFC 3629, the table nlohmann checks
// against), or 0 when it is not one.
[[gnu::always_inline]] inline std::size_t utf8_sequence(const unsigned char* p,
                                                        const unsigned char* end) {
  const auto left = end - p;
  const unsigned char c = p[0];
  if (in(c, 0xC2, 0xDF)) return left >= 2 && in(p[1], 0x80, 0xBF) ? 2 : 0;
  if (in(c, 0xE0, 0xEF)) {
    if (left < 3) return 0;
    const unsigned char low = c == 0xE0 ? 0xA0 : 0x80;
    const unsigned char high = c == 0xED ? 0x9F : 0xBF;
    return in(p[1], low, high) && in(p[2], 0x80, 0xBF) ? 3 : 0;
  }
  if (in(c, 0xF0, 0xF4)) {
    if (left < 4) return 0;
    const unsigned char low = c == 0xF0 ? 0x90 : 0x80;
    const unsigned char high = c == 0xF4 ? 0x8F : 0xBF;
    return in(p[1], low, high) && in(p[2], 0x80, 0xBF) && in(p[3], 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

// The first byte at or after `p` that a string cannot take as it is: '"', '\\', a control byte
// or a byte of a multi-byte sequence; `end` when there is none. Eight bytes at a time (the
// portable path, and the tail of the SSE2 one); never a byte at or past `end`.
inline const char* plain_ascii_words_end(const char* p, const char* end) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  while (end - p >= 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, 8);
    // A word is flagged when a byte is below 0x20, equals '"' or '\\', or has its high bit set;
    // the bytes of a flagged word are then looked at one by one.
    const std::uint64_t below_space = (word - ones * 0x20) & ~word;
    const std::uint64_t quote = word ^ (ones * '"');
    const std::uint64_t backslash = word ^ (ones * '\\');
    const std::uint64_t is_quote = (quote - ones) & ~quote;
    const std::uint64_t is_backslash = (backslash - ones) & ~backslash;
    if (((below_space | is_quote | is_backslash | word) & highs) != 0) break;
    p += 8;
  }
  for (; p != end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
  }
  return p;
}

#if defined(__SSE2__)
// Bit i set when byte i of the 16 at `p` is '"', '\\', a control byte or from 0x80.
inline unsigned special_bytes(const char* p) {
  const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // Signed: the bytes from 0x80 are negative, so one comparison flags them and the controls.
  const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('"')),
                                                    _mm_cmpeq_epi8(block, _mm_set1_epi8('\\'))),
                                       _mm_cmplt_epi8(block, _mm_set1_epi8(0x20)));
  return static_cast<unsigned>(_mm_movemask_epi8(special));
}
#else
inline unsigned special_bytes(const char* p) {
  unsigned mask = 0;
  for (unsigned i = 0; i < 16; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) mask |= 1U << i;
  }
  return mask;
}
#endif

// The same, sixteen bytes at a time with SSE2 (baseline on x86-64), chosen at compile time.
inline const char* plain_ascii_end(const char* p, const char* end) {
#if defined(__SSE2__)
  while (end - p >= 16) {
    if (const unsigned mask = special_bytes(p); mask != 0) return p + std::countr_zero(mask);
    p += 16;
  }
#endif
  return plain_ascii_words_end(p, end);
}

// plain_ascii_end for a padded text (`end`: the end of its padding, whose zero bytes stop the
// scan): with SSE2, blocks are loaded without comparing with the end.
inline const char* padded_plain_ascii_end(const char* p, [[maybe_unused]] const char* end) {
#if defined(__SSE2__)
  while (true) {
    if (const unsigned mask = special_bytes(p); mask != 0) return p + std::countr_zero(mask);
    p += 16;
  }
#else
  return plain_ascii_words_end(p, end);
#endif
}

// The escapes of one letter: the letter after the backslash and the byte it stands for. The
// escape \/ is read but never written (core/json_dump.hpp writes '/' as it is).
inline constexpr std::array<std::pair<char, char>, 8> kShortEscapeLetters = {{{'"', '"'},
                                                                              {'\\', '\\'},
                                                                              {'b', '\b'},
                                                                              {'f', '\f'},
                                                                              {'n', '\n'},
                                                                              {'r', '\r'},
                                                                              {'t', '\t'},
                                                                              {'/', '/'}}};

// What the letter after a backslash decodes to in the escapes of one letter; 0 for 'u' and for
// letters no escape takes.
inline constexpr auto kShortEscapes = [] {
  std::array<char, 256> decoded{};
  for (const auto& [letter, byte] : kShortEscapeLetters) {
    decoded[static_cast<unsigned char>(letter)] = byte;
  }
  return decoded;
}();

template <class Out>
void append_utf8(Out& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

}  // namespace scan

// A number as nlohmann types it: unsigned when a non-negative integer, integer when a negative
// one, floating otherwise.
struct ScannedNumber {
  enum Kind { unsigned_integer, integer, floating } kind = unsigned_integer;
  std::uint64_t bits = 0;  // the integer kinds (an integer's two's complement)
  double real = 0;
};

// Zero bytes a padded text carries after its end (BasicJsonScanner<true>): a whole 16-byte block
// can be loaded at any position up to the end, and a zero byte, which no JSON token takes, ends
// every token there.
inline constexpr std::size_t kTextPadding = 16;

// A cursor over JSON text. Each reader sits at the first byte of what it reads. A padded scanner
// reads text followed by kTextPadding zero bytes: its readers stop at the first zero instead of
// comparing with the end, which only the caller's last check (the end of the text) needs.
template <bool kPadded>
class BasicJsonScanner {
 public:
  explicit BasicJsonScanner(std::string_view text)
      : p_(text.data()), end_(text.data() + text.size()) {}

  void skip_space() {
    // Text from a model is mostly compact: one test passes a token that follows at once.
    if (more() && static_cast<unsigned char>(*p_) > ' ') return;
    while (more() && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool literal(std::string_view word) {
    if ((!kPadded && static_cast<std::size_t>(end_ - p_) < word.size()) ||
        std::string_view(p_, word.size()) != word) {
      return false;
    }
    p_ += word.size();
    return true;
  }

  // At the opening quote. Runs of plain characters, UTF-8 included, are copied in one go; only
  // escapes interrupt them.
  bool string(std::string& out) {
    ++p_;
    return string_from(run_start(), out);
  }

  // Inside a string, at or after `run`, its first byte not yet copied to `out`: reads to the end
  // of the string (past the closing quote). `out` is a std::string or anything with the same
  // append(first, last) and += of a char.
  template <class Out>
  bool string_from(const char* run, Out& out) {
    while (true) {
      if (!skip_plain()) return false;
      const auto c = static_cast<unsigned char>(*p_);
      out.append(run, p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c < 0x20 || !escape(out)) return false;
      run = p_;
    }
  }

  // To the first '"', '\\' or control byte of a string, past plain bytes and well-formed UTF-8;
  // false at the end of the text or on a malformed sequence.
  [[gnu::always_inline]] bool skip_plain() {
    while (true) {
      if constexpr (kPadded) {
        p_ = scan::padded_plain_ascii_end(p_, end_ + kTextPadding);
      } else {
        p_ = scan::plain_ascii_end(p_, end_);
      }
      if (!more()) return false;
      if (static_cast<unsigned char>(*p_) < 0x80) return true;
      const auto length = scan::utf8_sequence(reinterpret_cast<const unsigned char*>(p_),
                                              reinterpret_cast<const unsigned char*>(end_));
      if (length == 0) return false;
      p_ += length;
    }
  }

  [[nodiscard]] const char* run_start() const { return p_; }

  // At the backslash.
  template <class Out>
  bool escape(Out& out) {
    if (!kPadded && end_ - p_ < 2) return false;
    const char kind = p_[1];
    p_ += 2;
    if (const char decoded = scan::kShortEscapes[static_cast<unsigned char>(kind)]; decoded != 0) {
      out += decoded;
      return true;
    }
    if (kind != 'u') return false;
    std::uint32_t code_point = 0;
    if (!hex4(code_point)) return false;
    if (code_point >= 0xDC00 && code_point <= 0xDFFF) return false;  // a lone low surrogate
    if (code_point >= 0xD800 && code_point <= 0xDBFF) {
      std::uint32_t low = 0;
      if ((!kPadded && end_ - p_ < 2) || p_[0] != '\\' || p_[1] != 'u') return false;
      p_ += 2;
      if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
      code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
    }
    scan::append_utf8(out, code_point);
    return true;
  }

  bool hex4(std::uint32_t& out) {
    if (!kPadded && end_ - p_ < 4) return false;
    for (int i = 0; i < 4; ++i) {
      const int digit = hex_value(p_[i]);
      if (digit < 0) return false;
      out = out * 16 + static_cast<std::uint32_t>(digit);
    }
    p_ += 4;
    return true;
  }

  // Past a run of digits, accumulating them into `value` (which wraps past 19 digits: callers
  // count the digits before trusting it).
  void read_digits(std::uint64_t& value) {
    while (more() && scan::is_digit(*p_)) {
      value = value * 10 + static_cast<std::uint64_t>(*p_ - '0');
      ++p_;
    }
  }

  // Inlined: in the tape reader (core/json_document.cpp) a call's prologue and epilogue cost about
  // a third of reading a short amount. It inlines into fast_json's tree reader too, unmeasured
  // there; accord-bench's code is about 1 KB larger with both.
  [[gnu::always_inline]] bool number(ScannedNumber& out) {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (!more()) return false;
    // The digits before and after the point, as one integer (exact while 19 digits or fewer).
    std::uint64_t mantissa = 0;
    const char* digits = p_;
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      read_digits(mantissa);
    } else {
      return false;
    }
    const auto integer_digits = p_ - digits;
    std::ptrdiff_t fraction_digits = 0;
    bool fractional = false;
    if (more() && *p_ == '.') {
      ++p_;
      if (!more() || !scan::is_digit(*p_)) return false;
      const char* fraction = p_;
      read_digits(mantissa);
      fraction_digits = p_ - fraction;
      fractional = true;
    }
    std::int64_t exponent = 0;
    std::ptrdiff_t exponent_digits = 0;
    if (more() && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      const bool exponent_negative = more() && *p_ == '-';
      if (more() && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!more() || !scan::is_digit(*p_)) return false;
      const char* first = p_;
      std::uint64_t magnitude = 0;
      read_digits(magnitude);
      exponent_digits = p_ - first;
      // A longer exponent is left to from_chars below, and might not fit here.
      if (exponent_digits <= 4) {
        exponent = exponent_negative ? -static_cast<std::int64_t>(magnitude)
                                     : static_cast<std::int64_t>(magnitude);
      }
      fractional = true;
    }
    if (!fractional) {
      // Up to 18 digits always fit; nlohmann decides the rest (signed, unsigned or double).
      if (integer_digits > 18) return false;
      out.kind = negative ? ScannedNumber::integer : ScannedNumber::unsigned_integer;
      out.bits =
          negative ? static_cast<std::uint64_t>(-static_cast<std::int64_t>(mantissa)) : mantissa;
      return true;
    }
    if (p_ - start > scan::kMaxFloatToken) return false;
    // Clinger's fast path: an integer below 2^53 and a power of ten up to 22 are both exact
    // doubles, so one multiplication or division rounds correctly, as from_chars does.
    constexpr std::uint64_t kExactIntegers = std::uint64_t{1} << 53;
    if (integer_digits + fraction_digits <= 19 && mantissa <= kExactIntegers &&
        exponent_digits <= 4) {
      const std::int64_t power = exponent - fraction_digits;
      if (power >= -22 && power <= 22) {
        const double magnitude = static_cast<double>(mantissa);
        const double value = power < 0 ? magnitude / scan::kPowersOfTen[-power]
                                       : magnitude * scan::kPowersOfTen[power];
        out.kind = ScannedNumber::floating;
        out.real = negative ? -value : value;
        return true;
      }
    }
    // Correctly rounded, as glibc's strtod (nlohmann's) is; out of range (either way) is left
    // to nlohmann, which reports overflow and keeps underflow.
    double number = 0;
    const auto [ptr, error] = std::from_chars(start, p_, number);
    if (error != std::errc() || ptr != p_ || !std::isfinite(number)) return false;
    out.kind = ScannedNumber::floating;
    out.real = number;
    return true;
  }

 protected:
  // Whether `*p_` may be read: always for a padded text (its zeros stop every reader).
  [[nodiscard]] bool more() const { return kPadded || p_ != end_; }

  const char* p_;
  const char* end_;
};

using JsonScanner = BasicJsonScanner<false>;

}  // namespace accord::detail
