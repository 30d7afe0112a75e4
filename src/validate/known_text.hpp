#pragma once
// A text the schema fixes (a property's name, a string enum's option), compared with the texts
// of values: most compares are of a member's key with the property it names, and are decided by
// the length and one or two word loads, without a call to memcmp.

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

// Whether `text` is one of a string enum's options.
[[nodiscard]] inline bool is_one_of(const std::vector<std::string>& options,
                                    std::string_view text) {
  for (const std::string& option : options) {
    if (bytes_detail::same_text(option, text)) return true;
  }
  return false;
}

}  // namespace accord::detail
