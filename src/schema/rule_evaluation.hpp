#pragma once
// Judging a declarative rule on a value: the validator asks whether it holds and where its issue
// points; the lowering compares literals with the same semantics.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "accord/json_view.hpp"
#include "accord/path.hpp"
#include "accord/rules.hpp"
#include "core/json_access.hpp"
#include "core/member_values.hpp"

namespace accord::detail {

struct ComparedValue;

// A rule made ready to judge the objects of one schema. An absent field takes the `default` its
// property declares in the object's schema, as Zod's refinements see defaults filled in; each
// field path is split and its defaults looked up once, here, so judging a value reads only the
// fields compared, in place, and allocates nothing unless a compared value is an array or object.
class CompiledRule {
 public:
  // `object_schema` may be null; its local $refs resolve in `root`.
  CompiledRule(Rule rule, const nlohmann::ordered_json* object_schema,
               const nlohmann::ordered_json& root);

  [[nodiscard]] const Rule& rule() const { return rule_; }
  // Gives each field whose first name is among `declared` (the object's declared properties, in
  // order) that place, where holds() reads it from the values the caller found.
  void bind_places(const std::vector<std::string_view>& declared);
  // `found`, when given, holds the values of the object's declared properties (all looked for).
  [[nodiscard]] bool holds(JsonView object, const MemberValues* found = nullptr) const;
  // Where a failed rule's issue points, relative to its object.
  [[nodiscard]] const Path& issue_path() const { return issue_path_; }

 private:
  // tests/unit/schema/rule_evaluation_test.cpp reads which checks were shaped.
  friend struct CompiledRuleShapes;

  // A field path: its names, the default each one's property declares, and the place of the
  // first name among the object's declared properties (bind_places), if it is one.
  struct Field {
    std::vector<std::string> names;
    std::vector<std::optional<nlohmann::json>> defaults;
    std::optional<std::uint32_t> place;
  };
  struct Side {
    std::optional<Field> field;  // else the literal
    nlohmann::json literal;
  };
  // How a check is judged, chosen when the places are bound: a bound field of the object against
  // a string or number literal (a rule's usual comparison) is read from the values found and
  // compared with the literal read once here; anything else goes through value_of.
  enum class Shape : std::uint8_t { general, found_vs_text, found_vs_number };
  struct Check {
    Side left;
    Op op = Op::eq;
    Side right;
    Shape shape = Shape::general;
    std::uint32_t left_place = 0;  // the left field's place, when shaped
    std::string right_text;        // the literal, when found_vs_text
    NumberValue right_number;      // the literal, when found_vs_number
  };
  static Check check(const Comparison& comparison, const nlohmann::ordered_json* object_schema,
                     const nlohmann::ordered_json& root);
  // Chooses the check's Shape once its fields are bound.
  static void shape(Check& check);
  [[nodiscard]] static std::optional<ComparedValue> value_of(const Side& side, JsonView object,
                                                             const MemberValues* found);
  // A shaped check in place (inlined in holds()), anything else by judge_values.
  [[nodiscard]] static std::optional<bool> judge(const Check& check, JsonView object,
                                                 const MemberValues* found);
  [[gnu::noinline]] [[nodiscard]] static std::optional<bool> judge_values(
      const Check& check, JsonView object, const MemberValues* found);

  Rule rule_;
  std::optional<Check> condition_;
  Check requirement_;
  Path issue_path_;
};

// How the comparison of two JSON values turns out: true, false, or not judged (nullopt) when the
// sides cannot be ordered. Numbers are ordered as nlohmann's operator< orders them (an integer
// against a float as doubles), strings by code unit (for UTF-8 code point order).
[[nodiscard]] std::optional<bool> compare_values(const nlohmann::json& left, Op op,
                                                 const nlohmann::json& right);
// The same for two numbers read with number_of (core/json_access.hpp) from a tree or a view,
// without building a tree.
[[nodiscard]] bool compare_numbers_in_tree_order(const NumberValue& left, Op op,
                                                 const NumberValue& right);
[[nodiscard]] Op negated(Op op);

}  // namespace accord::detail
