#pragma once
// A byte-loop matcher for the patterns schemas write most (`^ORD-\d{6}$`, `^acct_[a-z0-9]+$`,
// `^\d{4}-\d{2}-\d{2}$`): anchored at the start, made of ASCII literals, `\d`, `\w` and
// non-negated ASCII classes, each with a quantifier. It gives RE2's (and ECMA-262's) verdict
// for every input: a pattern is taken only when matching greedily item by item cannot go
// wrong (an item of varying length is followed by one that needs a character it cannot take),
// and everything else stays with RE2.

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace accord::detail {

class SimplePattern {
 public:
  // nullopt for a pattern outside the subset (RE2 runs it instead).
  [[nodiscard]] static std::optional<SimplePattern> compile(std::string_view ecma_source);
  // Unanchored search semantics, as `pattern` has; the pattern itself starts with `^`.
  [[nodiscard]] bool search(std::string_view text) const;

 private:
  struct Item {
    std::bitset<128> chars;  // ASCII only: a byte >= 0x80 is in no item
    std::uint32_t min = 1;
    std::uint32_t max = 1;
    // `chars` by byte, filled once compiled: search reads one entry a character.
    std::array<bool, 256> takes{};
  };
  std::string prefix_;       // the literal characters the pattern starts with, compared whole
  std::vector<Item> items_;  // what follows them
  bool to_end_ = false;      // ends with `$`
};

}  // namespace accord::detail
