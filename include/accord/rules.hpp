#pragma once
// Declarative rules between an object's fields, which JSON Schema has no keyword for:
//
//   object({...}).rule(compare("refundDate", Op::gte, field("orderDate")),
//                      "refundDate is before orderDate")
//   object({...}).rule(when("currency", Op::eq, "eur").then("amount", Op::lte, 500),
//                      "eur transfers are capped at 500")
//
// A rule is checked locally (a custom issue with its message), stated in words in the object's
// description, and carried in the JSON Schema as the `x-accord-rules` extension, where a provider
// that can enforce it gets real keywords instead (`if`/`then`, `anyOf` branches). JSON Schema
// files write the same rules as text: {"rule": "refundDate >= orderDate", "message": "..."} or
// {"if": "currency == \"eur\"", "then": "amount <= 500", "message": "...", "text": "..."}. See
// docs/rules.md.
//
// Semantics: strings compare lexicographically (code point order, so ISO dates compare as dates),
// numbers numerically; `==`/`!=` compare any JSON values. A comparison whose field is absent (and
// has no default) or whose sides cannot be ordered is not judged: the rule holds, and a condition
// that cannot be judged does not apply. As with an object's refine(), rules are skipped while the
// object has a type mismatch or a missing field inside.

#include <concepts>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "accord/path.hpp"

namespace accord {

inline constexpr const char* kRulesKeyword = "x-accord-rules";

enum class Op { eq, ne, lt, lte, gt, gte };

[[nodiscard]] std::string_view to_string(Op op);  // "==", "!=", "<", "<=", ">", ">="

// A field of the object the rule sits on; dots reach into nested objects ("shipping.country").
// Each name is an identifier: letters, digits, '_' and '$', not starting with a digit.
struct FieldRef {
  std::string path;
  friend bool operator==(const FieldRef&, const FieldRef&) = default;
};
[[nodiscard]] inline FieldRef field(std::string path) {
  return FieldRef{std::move(path)};
}

// The right-hand side of a comparison: another field (`field("orderDate")`) or a JSON literal
// (a string, number, boolean or null). A plain string is a literal, never a field name.
class Operand {
 public:
  Operand(FieldRef field) : field_(std::move(field.path)) {}  // NOLINT: implicit by design
  template <class T>
  requires(!std::same_as<std::remove_cvref_t<T>, FieldRef> &&
           !std::same_as<std::remove_cvref_t<T>, Operand> &&
           std::constructible_from<nlohmann::json, T>) Operand(T&& literal)
      : literal_(std::forward<T>(literal)) {}  // NOLINT: implicit by design

  [[nodiscard]] bool is_field() const { return field_.has_value(); }
  [[nodiscard]] const std::string& field_path() const { return *field_; }
  [[nodiscard]] const nlohmann::json& literal() const { return literal_; }

  friend bool operator==(const Operand&, const Operand&) = default;

 private:
  std::optional<std::string> field_;
  nlohmann::json literal_;
};

struct Comparison {
  std::string left;  // a field path
  Op op = Op::eq;
  Operand right{nullptr};
  friend bool operator==(const Comparison&, const Comparison&) = default;
};

// `requirement` must hold whenever `condition` does.
struct Conditional {
  Comparison condition;
  Comparison requirement;
};

struct When {
  Comparison condition;
  [[nodiscard]] Conditional then(std::string left, Op op, Operand right) const;
};

[[nodiscard]] Comparison compare(std::string left, Op op, Operand right);
[[nodiscard]] When when(std::string left, Op op, Operand right);

struct Rule {
  std::optional<Comparison> condition;  // set for a conditional
  Comparison requirement;
  std::string message;  // the message when the rule fails
  // Where the issue points, relative to the object; unset: the requirement's left field.
  std::optional<Path> path;
  // The rule in the user's words for the model, stated before the formula; empty: the formula
  // alone. The message usually names the violation, so it is not used for this.
  std::string text;

  friend bool operator==(const Rule&, const Rule&) = default;
};

struct RuleOptions {
  // Where the issue points, relative to the object (Path{} for the object itself, as an object
  // refine() reports); unset: the requirement's left field.
  std::optional<Path> path;
  // The rule in words for the model ("eur transfers are capped at 500"): the description then
  // reads "Rule: <text> (<formula>)." instead of "Rule: <formula>.".
  std::string text{};
};

// The text forms: `refundDate >= orderDate`, `if currency == "eur" then amount <= 500`.
[[nodiscard]] std::string to_string(const Comparison& comparison);
[[nodiscard]] std::string to_string(const Rule& rule);

// One `x-accord-rules` entry, and back. parse_rule throws SchemaError with paths relative to the
// entry (`if`, `then`, `rule`, `message`, `path`). It checks the syntax only; whether the fields
// exist is checked where the rule sits (the DSL builder, the JSON Schema loader).
[[nodiscard]] nlohmann::ordered_json to_json(const Rule& rule);
[[nodiscard]] Rule parse_rule(const nlohmann::ordered_json& entry);
// `left OP right`, with `right` a field path or a JSON literal; throws SchemaError.
[[nodiscard]] Comparison parse_comparison(std::string_view text);

}  // namespace accord
