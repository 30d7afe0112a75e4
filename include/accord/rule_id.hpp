#pragma once
// The identity of one rule in a Report: where it sits in the schema and what kind of rule it is.
// It depends only on the schema, so the same rule has the same id in every run, in every
// provider's Report and in every process: two providers' Reports compare entry by entry.

#include <compare>
#include <cstddef>
#include <functional>
#include <string>

#include "accord/path.hpp"

namespace accord {

class RuleId {
 public:
  RuleId() = default;
  // `pointer`: RFC 6901 pointer to the schema node holding the rule ("" for the root).
  // `kind`: the keyword the rule is written as (`minimum`, `pattern`), or its kind when no one
  // keyword names it (`refine`, `rule`, `tuple`, `length`, `nullable`).
  // `ordinal`: which of several rules of that kind on that node, in the order they were written.
  explicit RuleId(std::string pointer, std::string kind, std::size_t ordinal = 0)
      : pointer_(std::move(pointer)), kind_(std::move(kind)), ordinal_(ordinal) {}

  [[nodiscard]] const std::string& pointer() const { return pointer_; }
  [[nodiscard]] const std::string& kind() const { return kind_; }
  [[nodiscard]] std::size_t ordinal() const { return ordinal_; }
  [[nodiscard]] bool empty() const { return kind_.empty(); }

  // `/properties/amount#minimum`; a later rule of the same kind on the node adds its ordinal:
  // `/properties/code#pattern[1]`.
  [[nodiscard]] std::string to_string() const;

  friend auto operator<=>(const RuleId&, const RuleId&) = default;
  friend bool operator==(const RuleId&, const RuleId&) = default;

 private:
  std::string pointer_;
  std::string kind_;
  std::size_t ordinal_ = 0;
};

// The schema node a Report path names, as a JSON Pointer: a property `amount` is
// `/properties/amount`, array items `[]` are `/items`, record values `{}` are
// `/additionalProperties`, tuple position 2 is `/prefixItems/2`, union option `|1` is `/anyOf/1`
// (oneOf options too), and a path that starts in `$defs` or `definitions` stays there.
[[nodiscard]] std::string schema_pointer(const Path& path);

}  // namespace accord

template <>
struct std::hash<accord::RuleId> {
  std::size_t operator()(const accord::RuleId& id) const noexcept {
    const std::size_t h = std::hash<std::string>{}(id.pointer());
    const std::size_t k = std::hash<std::string>{}(id.kind());
    return h ^ (k + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)) ^ id.ordinal();
  }
};
