#include "core/fast_json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/ascii.hpp"

namespace accord::detail {
namespace {

// Recursion stays well inside the stack whatever limit the caller asks for; deeper text goes to
// nlohmann's parser, which does not recurse.
constexpr std::size_t kMaxRecursion = 512;
// Longer number tokens are left to nlohmann (strtod); they never occur in practice.
constexpr std::ptrdiff_t kMaxFloatToken = 64;

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool in(unsigned char c, unsigned char low, unsigned char high) {
  return c >= low && c <= high;
}

// Length of the well-formed UTF-8 sequence at `p` (RFC 3629, the table nlohmann checks
// against), or 0 when it is not one.
std::size_t utf8_sequence(const unsigned char* p, const unsigned char* end) {
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

void append_utf8(std::string& out, std::uint32_t code_point) {
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

template <class Json>
class Reader {
 public:
  Reader(std::string_view text, std::size_t max_depth, std::span<const std::string_view> keep = {})
      : p_(text.data()), end_(text.data() + text.size()), max_depth_(max_depth), keep_(keep) {}

  bool document(Json& out) {
    skip_space();
    if (p_ == end_ || !value(out, 0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool value(Json& out, std::size_t depth) {
    switch (*p_) {
      case '{':
        return object(out, depth + 1);
      case '[':
        return array(out, depth + 1);
      case '"':
        out = typename Json::string_t();
        return string(out.template get_ref<typename Json::string_t&>());
      case 't':
        out = true;
        return literal("true");
      case 'f':
        out = false;
        return literal("false");
      case 'n':
        out = nullptr;
        return literal("null");
      default:
        return number(out);
    }
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word) {
      return false;
    }
    p_ += word.size();
    return true;
  }

  bool object(Json& out, std::size_t depth) {
    if (depth > max_depth_ || depth > kMaxRecursion) return false;
    ++p_;
    out = Json::object();
    auto& members = out.template get_ref<typename Json::object_t&>();
    skip_space();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    const std::size_t first_pending = pending_.size();
    while (true) {
      if (p_ == end_ || *p_ != '"') return false;
      std::string key;
      if (!string(key)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_space();
      if (p_ == end_) return false;
      // nlohmann keeps the last of duplicate keys; rare enough to leave to it.
      if (!insert(members, std::move(key), depth, first_pending)) return false;
      skip_space();
      if (p_ == end_) return false;
      if (*p_ == '}') {
        ++p_;
        if constexpr (kOrdered) settle(members, first_pending);
        return true;
      }
      if (*p_ != ',') return false;
      ++p_;
      skip_space();
    }
  }

  static constexpr bool kOrdered = !std::is_same_v<Json, nlohmann::json>;
  // An ordered object finds a key by scanning its members; past this many, nlohmann's parser
  // (through parse_ordered_json, linear in the keys) reads the text instead.
  static constexpr std::size_t kMaxOrderedMembers = 64;

  // An ordered object's members wait in pending_ (from first_pending on) until its closing brace:
  // its own vector holds pair<const string, Json>, which it copies, subtrees and all, each time
  // it grows, as a const key cannot be moved.
  bool insert(typename Json::object_t& members, std::string key, std::size_t depth,
              std::size_t first_pending) {
    if (depth == 1 && !keep_.empty() && std::find(keep_.begin(), keep_.end(), key) == keep_.end())
      return skip(depth);
    if constexpr (kOrdered) {
      if (pending_.size() - first_pending >= kMaxOrderedMembers) return false;
      for (auto i = first_pending; i < pending_.size(); ++i) {
        if (pending_[i].first == key) return false;
      }
      Json member;
      if (!value(member, depth)) return false;
      pending_.emplace_back(std::move(key), std::move(member));
      return true;
    } else {
      auto [slot, inserted] = members.try_emplace(std::move(key));
      return inserted && value(slot->second, depth);
    }
  }

  void settle(typename Json::object_t& members, std::size_t first_pending) {
    const auto first = pending_.begin() + static_cast<std::ptrdiff_t>(first_pending);
    members.reserve(static_cast<std::size_t>(pending_.end() - first));
    for (auto it = first; it != pending_.end(); ++it) {
      members.emplace_back(std::move(it->first), std::move(it->second));
    }
    pending_.erase(first, pending_.end());
  }

  // Reads a value as value() would, to the same limits, and keeps nothing of it.
  bool skip(std::size_t depth) {
    if (*p_ == '"') {
      scratch_.clear();
      return string(scratch_);
    }
    if (*p_ != '{' && *p_ != '[') {
      Json scalar;
      return value(scalar, depth);
    }
    const bool is_object = *p_ == '{';
    const char close = is_object ? '}' : ']';
    if (++depth > max_depth_ || depth > kMaxRecursion) return false;
    ++p_;
    skip_space();
    if (p_ != end_ && *p_ == close) {
      ++p_;
      return true;
    }
    while (true) {
      if (is_object) {
        if (p_ == end_ || *p_ != '"') return false;
        scratch_.clear();
        if (!string(scratch_)) return false;
        skip_space();
        if (p_ == end_ || *p_ != ':') return false;
        ++p_;
        skip_space();
      }
      if (p_ == end_ || !skip(depth)) return false;
      skip_space();
      if (p_ == end_) return false;
      if (*p_ == close) {
        ++p_;
        return true;
      }
      if (*p_ != ',') return false;
      ++p_;
      skip_space();
    }
  }

  bool array(Json& out, std::size_t depth) {
    if (depth > max_depth_ || depth > kMaxRecursion) return false;
    ++p_;
    out = Json::array();
    auto& items = out.template get_ref<typename Json::array_t&>();
    skip_space();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return true;
    }
    while (true) {
      if (p_ == end_) return false;
      items.emplace_back();
      if (!value(items.back(), depth)) return false;
      skip_space();
      if (p_ == end_) return false;
      if (*p_ == ']') {
        ++p_;
        return true;
      }
      if (*p_ != ',') return false;
      ++p_;
      skip_space();
    }
  }

  // At the opening quote. Runs of plain characters, UTF-8 included, are copied in one go; only
  // escapes interrupt them.
  bool string(std::string& out) {
    ++p_;
    const char* run = p_;
    while (true) {
      skip_plain_ascii();
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c >= 0x80) {
        const auto length = utf8_sequence(reinterpret_cast<const unsigned char*>(p_),
                                          reinterpret_cast<const unsigned char*>(end_));
        if (length == 0) return false;
        p_ += length;
        continue;
      }
      out.append(run, p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c < 0x20 || !escape(out)) return false;
      run = p_;
    }
  }

  // Past bytes that need no attention inside a string: not '"', '\\', a control character or a
  // byte of a multi-byte sequence. Eight bytes at a time while they last.
  void skip_plain_ascii() {
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t highs = 0x8080808080808080ULL;
    // A local cursor: the member would be stored back on every step.
    const char* p = p_;
    while (end_ - p >= 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, p, 8);
      // A byte is flagged when it is below 0x20, equals '"' or '\\', or has its high bit set.
      const std::uint64_t below_space = (word - ones * 0x20) & ~word;
      const std::uint64_t quote = word ^ (ones * '"');
      const std::uint64_t backslash = word ^ (ones * '\\');
      const std::uint64_t is_quote = (quote - ones) & ~quote;
      const std::uint64_t is_backslash = (backslash - ones) & ~backslash;
      if (((below_space | is_quote | is_backslash) & highs) != 0 || (word & highs) != 0) break;
      p += 8;
    }
    while (p != end_) {
      const auto c = static_cast<unsigned char>(*p);
      if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
      ++p;
    }
    p_ = p;
  }

  // At the backslash.
  bool escape(std::string& out) {
    if (end_ - p_ < 2) return false;
    const char kind = p_[1];
    p_ += 2;
    switch (kind) {
      case '"':
      case '\\':
      case '/':
        out += kind;
        return true;
      case 'b':
        out += '\b';
        return true;
      case 'f':
        out += '\f';
        return true;
      case 'n':
        out += '\n';
        return true;
      case 'r':
        out += '\r';
        return true;
      case 't':
        out += '\t';
        return true;
      case 'u':
        break;
      default:
        return false;
    }
    std::uint32_t code_point = 0;
    if (!hex4(code_point)) return false;
    if (code_point >= 0xDC00 && code_point <= 0xDFFF) return false;  // a lone low surrogate
    if (code_point >= 0xD800 && code_point <= 0xDBFF) {
      std::uint32_t low = 0;
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
      p_ += 2;
      if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
      code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(out, code_point);
    return true;
  }

  bool hex4(std::uint32_t& out) {
    if (end_ - p_ < 4) return false;
    for (int i = 0; i < 4; ++i) {
      const int digit = hex_value(p_[i]);
      if (digit < 0) return false;
      out = out * 16 + static_cast<std::uint32_t>(digit);
    }
    p_ += 4;
    return true;
  }

  bool number(Json& out) {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_) return false;
    const char* digits = p_;
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      while (p_ != end_ && is_digit(*p_)) ++p_;
    } else {
      return false;
    }
    const auto integer_digits = p_ - digits;
    bool fractional = false;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
      fractional = true;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
      fractional = true;
    }
    if (!fractional) {
      // Up to 18 digits always fit; nlohmann decides the rest (signed, unsigned or double).
      if (integer_digits > 18) return false;
      std::uint64_t magnitude = 0;
      for (const char* d = digits; d != p_; ++d) magnitude = magnitude * 10 + (*d - '0');
      if (negative) {
        out = -static_cast<std::int64_t>(magnitude);
      } else {
        out = magnitude;
      }
      return true;
    }
    if (p_ - start > kMaxFloatToken) return false;
    // Correctly rounded, as glibc's strtod (nlohmann's) is; out of range (either way) is left
    // to nlohmann, which reports overflow and keeps underflow.
    double number = 0;
    const auto [ptr, error] = std::from_chars(start, p_, number);
    if (error != std::errc() || ptr != p_ || !std::isfinite(number)) return false;
    out = number;
    return true;
  }

  const char* p_;
  const char* end_;
  std::size_t max_depth_;
  std::span<const std::string_view> keep_;  // empty: every member of the top-level object
  std::vector<std::pair<std::string, Json>> pending_;  // ordered objects' members, see insert()
  std::string scratch_;                                // skipped strings land here
};

}  // namespace

std::optional<nlohmann::json> fast_parse_json(std::string_view text, std::size_t max_depth) {
  nlohmann::json out;
  if (!Reader<nlohmann::json>(text, max_depth).document(out)) return std::nullopt;
  return out;
}

std::optional<nlohmann::ordered_json> fast_parse_ordered_json(
    std::string_view text, std::size_t max_depth, std::span<const std::string_view> keep) {
  nlohmann::ordered_json out;
  if (!Reader<nlohmann::ordered_json>(text, max_depth, keep).document(out)) return std::nullopt;
  return out;
}

}  // namespace accord::detail
