#include "text/simple_pattern.hpp"

#include <limits>
#include <string_view>

#include "accord/same_bytes.hpp"

namespace accord::detail {
namespace {

using Chars = std::bitset<128>;

constexpr std::uint32_t kUnbounded = std::numeric_limits<std::uint32_t>::max();
// RE2 refuses larger repeat counts; such a pattern never reaches a matcher.
constexpr std::uint32_t kMaxRepeat = 1000;
// Characters that are syntax outside a class (ECMA-262 reads a lone `]` or `}` as a literal
// under Annex B; those patterns are left to RE2 rather than reasoned about here).
constexpr std::string_view kSyntax = "^$\\.*+?()[]{}|";

Chars range(char low, char high) {
  Chars out;
  for (int c = low; c <= high; ++c) out.set(static_cast<std::size_t>(c));
  return out;
}

Chars digits() {
  return range('0', '9');
}

Chars word() {
  Chars out = range('a', 'z') | range('A', 'Z') | digits();
  out.set('_');
  return out;
}

bool printable_ascii(char c) {
  return c >= 0x20 && c < 0x7F;
}

class Parser {
 public:
  explicit Parser(std::string_view source) : s_(source) {}

  // The escape at `pos_` (past the backslash): \d, \w or an escaped syntax character. Sets
  // `literal` when it stands for one character.
  bool escape(Chars& out, bool& literal) {
    if (pos_ >= s_.size()) return false;
    const char e = s_[pos_++];
    literal = false;
    if (e == 'd') {
      out |= digits();
    } else if (e == 'w') {
      out |= word();
    } else if (kSyntax.find(e) != std::string_view::npos || e == '/' || e == '-') {
      out.set(static_cast<unsigned char>(e));
      literal = true;
    } else {
      return false;
    }
    return true;
  }

  // A non-negated class of ASCII characters, ranges, \d and \w; at the `[`.
  bool char_class(Chars& out) {
    ++pos_;
    if (pos_ >= s_.size() || s_[pos_] == '^' || s_[pos_] == ']') return false;
    while (pos_ < s_.size() && s_[pos_] != ']') {
      char low = 0;
      if (!class_atom(out, low)) return false;
      if (low != 0 && pos_ + 1 < s_.size() && s_[pos_] == '-' && s_[pos_ + 1] != ']') {
        ++pos_;
        char high = 0;
        Chars ignored;
        if (!class_atom(ignored, high) || high == 0 || high < low) return false;
        out |= range(low, high);
      }
    }
    if (pos_ >= s_.size()) return false;
    ++pos_;
    return true;
  }

  // One character of a class (set in `out`; `single` is that character) or \d/\w (`single` 0).
  bool class_atom(Chars& out, char& single) {
    const char c = s_[pos_];
    single = 0;
    if (c == '\\') {
      ++pos_;
      bool literal = false;
      Chars chars;
      if (!escape(chars, literal)) return false;
      out |= chars;
      if (literal) single = s_[pos_ - 1];
      return true;
    }
    if (!printable_ascii(c) || c == '[') return false;
    out.set(static_cast<unsigned char>(c));
    single = c;
    ++pos_;
    return true;
  }

  bool number(std::uint32_t& out) {
    const std::size_t start = pos_;
    out = 0;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9' && out <= kMaxRepeat) {
      out = out * 10 + static_cast<std::uint32_t>(s_[pos_++] - '0');
    }
    return pos_ > start && out <= kMaxRepeat;
  }

  // An optional quantifier after an item; a lazy one (`+?`) is left to RE2.
  bool quantifier(std::uint32_t& min, std::uint32_t& max) {
    min = max = 1;
    if (pos_ >= s_.size()) return true;
    switch (s_[pos_]) {
      case '?':
        min = 0;
        ++pos_;
        break;
      case '*':
        min = 0;
        max = kUnbounded;
        ++pos_;
        break;
      case '+':
        max = kUnbounded;
        ++pos_;
        break;
      case '{': {
        ++pos_;
        if (!number(min)) return false;
        max = min;
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          max = kUnbounded;
          if (pos_ < s_.size() && s_[pos_] != '}' && !number(max)) return false;
        }
        if (pos_ >= s_.size() || s_[pos_] != '}' || min > max) return false;
        ++pos_;
        break;
      }
      default:
        return true;
    }
    return pos_ >= s_.size() || s_[pos_] != '?';
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<SimplePattern> SimplePattern::compile(std::string_view source) {
  if (source.empty() || source.front() != '^') return std::nullopt;
  SimplePattern out;
  Parser p(source);
  p.pos_ = 1;
  while (p.pos_ < source.size()) {
    const char c = source[p.pos_];
    if (c == '$') {
      if (p.pos_ + 1 != source.size()) return std::nullopt;
      out.to_end_ = true;
      break;
    }
    Item item;
    if (c == '\\') {
      ++p.pos_;
      bool literal = false;
      if (!p.escape(item.chars, literal)) return std::nullopt;
    } else if (c == '[') {
      if (!p.char_class(item.chars)) return std::nullopt;
    } else if (!printable_ascii(c) || kSyntax.find(c) != std::string_view::npos) {
      return std::nullopt;
    } else {
      item.chars.set(static_cast<unsigned char>(c));
      ++p.pos_;
    }
    if (!p.quantifier(item.min, item.max)) return std::nullopt;
    out.items_.push_back(item);
  }
  // Greedy is exact when an item of varying length is followed by one that must take a
  // character it cannot: giving any character back could never let the next item match.
  for (std::size_t i = 0; i + 1 < out.items_.size(); ++i) {
    const Item& item = out.items_[i];
    const Item& next = out.items_[i + 1];
    if (item.min != item.max && (next.min == 0 || (item.chars & next.chars).any())) {
      return std::nullopt;
    }
  }
  // The leading items of one character each, once: the start is compared as a word or two.
  std::size_t literal = 0;
  for (; literal < out.items_.size(); ++literal) {
    const Item& item = out.items_[literal];
    if (item.min != 1 || item.max != 1 || item.chars.count() != 1) break;
    for (std::size_t c = 0; c < item.chars.size(); ++c) {
      if (item.chars[c]) out.prefix_ += static_cast<char>(c);
    }
  }
  out.items_.erase(out.items_.begin(), out.items_.begin() + static_cast<std::ptrdiff_t>(literal));
  for (Item& item : out.items_) {
    for (std::size_t c = 0; c < item.chars.size(); ++c) item.takes[c] = item.chars[c];
  }
  return out;
}

bool SimplePattern::search(std::string_view text) const {
  if (text.size() < prefix_.size() ||
      !bytes_detail::same_bytes(text.data(), prefix_.data(), prefix_.size())) {
    return false;
  }
  const auto* at = reinterpret_cast<const unsigned char*>(text.data()) + prefix_.size();
  const auto* const end = reinterpret_cast<const unsigned char*>(text.data()) + text.size();
  for (const Item& item : items_) {
    // The run stops at the item's maximum, so the loop tests one table entry a character.
    const auto* const first = at;
    const auto* const stop = static_cast<std::size_t>(end - at) > item.max ? at + item.max : end;
    while (at != stop && item.takes[*at]) ++at;
    if (static_cast<std::size_t>(at - first) < item.min) return false;
  }
  return !to_end_ || at == end;
}

}  // namespace accord::detail
