#pragma once
// Texts the schema fixes (a property's name, a string enum's options), compared with the texts
// of values: most compares are of a member's key with the property it names, or of a value with
// a few short options, and are decided by the length and one or two word loads, without a call
// to memcmp.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "accord/same_bytes.hpp"

namespace accord::detail {

struct KnownText {
  std::string_view text;  // points into the node that owns the string

  [[nodiscard]] bool equals(std::string_view other) const {
    return bytes_detail::same_text(other, text);
  }
  // How `other` orders against this text, as string_view::compare's sign (bytes unsigned, a
  // prefix first): the first bytes decide most unequal pairs.
  [[nodiscard]] int order(std::string_view other) const {
    if (!other.empty() && !text.empty() && other.front() != text.front()) {
      return static_cast<unsigned char>(other.front()) < static_cast<unsigned char>(text.front())
                 ? -1
                 : 1;
    }
    return other.compare(text);
  }
};

// A string enum's options, each keyed once by its length and a word of its bytes (for a text of
// up to 8 bytes the pair is the text itself): a value is looked for by its own key, two compares
// an option, its bytes compared only for a longer option whose key matches.
class KnownTexts {
 public:
  explicit KnownTexts(const std::vector<std::string>& options) {
    for (const std::string& option : options) {
      options_.push_back({key(option), option.size(), option});
    }
  }

  // Inlined where a value is judged (kind_plainly_ok): a call would cost as much as the compares.
  [[gnu::always_inline]] [[nodiscard]] bool contains(std::string_view text) const {
    const std::uint64_t wanted = key(text);
    for (const Option& option : options_) {
      if (option.key == wanted && option.size == text.size() &&
          (text.size() <= 8 ||
           bytes_detail::same_bytes(option.text.data(), text.data(), text.size()))) {
        return true;
      }
    }
    return false;
  }

 private:
  struct Option {
    std::uint64_t key;
    std::size_t size;
    std::string text;
  };
  // The bytes of a text of up to 8 bytes, without a loop: one to three as the first, middle and
  // last, four to eight as two 4-byte words that overlap in the middle (for a given length each
  // text has its own key); a longer text's first and last 8 bytes, mixed.
  [[nodiscard]] static std::uint64_t key(std::string_view text) {
    const char* p = text.data();
    const std::size_t size = text.size();
    if (size == 0) return 0;
    if (size < 4) {
      return static_cast<unsigned char>(p[0]) |
             static_cast<std::uint64_t>(static_cast<unsigned char>(p[size / 2])) << 8 |
             static_cast<std::uint64_t>(static_cast<unsigned char>(p[size - 1])) << 16;
    }
    if (size <= 8) {
      std::uint32_t head, tail;
      std::memcpy(&head, p, 4);
      std::memcpy(&tail, p + size - 4, 4);
      return head | static_cast<std::uint64_t>(tail) << 32;
    }
    std::uint64_t head, tail;
    std::memcpy(&head, p, 8);
    std::memcpy(&tail, p + size - 8, 8);
    return head ^ (tail * 0x9e3779b97f4a7c15ULL);
  }

  std::vector<Option> options_;
};

}  // namespace accord::detail
