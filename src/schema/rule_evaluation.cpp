#include "schema/rule_evaluation.hpp"

#include <algorithm>

#include "accord/same_bytes.hpp"
#include "core/json_access.hpp"
#include "schema/local_ref.hpp"
#include "schema/rule_fields.hpp"

namespace accord::detail {

using ojson = nlohmann::ordered_json;

// A value a comparison reads: a tree when `tree` is set (a literal, a declared default), else
// `view`, in the document. Two views or a view and a literal of the same kind, string or number,
// compare where they are, without a tree.
struct ComparedValue {
  JsonView view;
  const nlohmann::json* tree = nullptr;

  [[nodiscard]] std::optional<std::string_view> text() const {
    if (tree == nullptr) {
      if (view.is_string()) return view.get_string();
    } else if (const auto* literal = tree->get_ptr<const std::string*>()) {
      return *literal;
    }
    return std::nullopt;
  }
  [[nodiscard]] std::optional<NumberValue> number() const {
    if (tree == nullptr) {
      if (view.is_number()) return number_of(view);
    } else if (tree->is_number()) {
      return number_of(*tree);
    }
    return std::nullopt;
  }
  // A number, boolean or null becomes a tree without allocating.
  [[nodiscard]] nlohmann::json to_json() const { return tree == nullptr ? view.to_json() : *tree; }
};

namespace {

// The default declared for `name` in `schema` (an object schema, or a nullable wrapper of one),
// and the property's schema, which the next name of the path is looked up in.
std::pair<std::optional<nlohmann::json>, const ojson*> declared_default(const ojson* schema,
                                                                        const ojson& root,
                                                                        const std::string& name) {
  schema = schema != nullptr ? object_branch(schema, root) : nullptr;
  if (schema == nullptr) return {std::nullopt, nullptr};
  const auto properties = schema->find("properties");
  if (properties == schema->end() || !properties->is_object() || !properties->contains(name)) {
    return {std::nullopt, nullptr};
  }
  const ojson* property = &(*properties)[name];
  const ojson* declared = resolve_local_ref(property, root);
  if (declared == nullptr || !declared->is_object() || !declared->contains("default")) {
    return {std::nullopt, property};
  }
  return {nlohmann::json::parse((*declared)["default"].dump()), property};
}

// Whether `left` < `right` as nlohmann's operator< orders two numbers (JSON_IMPLEMENT_OPERATOR in
// json.hpp): within a kind exactly, a float against an integer of either kind as doubles, an
// unsigned against a signed integer as int64s (so 2^63 and above wrap to negative).
bool tree_less(const NumberValue& left, const NumberValue& right) {
  if (left.kind == JsonType::number_float || right.kind == JsonType::number_float) {
    return as_double(left) < as_double(right);
  }
  if (left.kind == JsonType::number_unsigned && right.kind == JsonType::number_unsigned) {
    return left.bits < right.bits;
  }
  return static_cast<std::int64_t>(left.bits) < static_cast<std::int64_t>(right.bits);
}

// Strings compare by code unit, which for UTF-8 is code point order, as nlohmann's do.
[[gnu::always_inline]] inline bool compare_strings(std::string_view left, Op op,
                                                   std::string_view right) {
  switch (op) {
    case Op::eq:
      return bytes_detail::same_text(left, right);
    case Op::ne:
      return !bytes_detail::same_text(left, right);
    case Op::lt:
      return left < right;
    case Op::lte:
      return left <= right;
    case Op::gt:
      return left > right;
    case Op::gte:
      return left >= right;
  }
  return false;
}

}  // namespace

CompiledRule::CompiledRule(Rule rule, const ojson* object_schema, const ojson& root)
    : rule_(std::move(rule)) {
  if (rule_.condition) condition_ = check(*rule_.condition, object_schema, root);
  requirement_ = check(rule_.requirement, object_schema, root);
  if (rule_.path) {
    issue_path_ = *rule_.path;
  } else {
    for (auto& name : field_segments(rule_.requirement.left)) {
      issue_path_ = issue_path_ / std::move(name);
    }
  }
}

CompiledRule::Check CompiledRule::check(const Comparison& comparison, const ojson* object_schema,
                                        const ojson& root) {
  const auto field = [&](const std::string& path) {
    Field out;
    out.names = field_segments(path);
    const ojson* schema = object_schema;
    for (const auto& name : out.names) {
      auto [fallback, property] = declared_default(schema, root, name);
      out.defaults.push_back(std::move(fallback));
      schema = property;
    }
    return out;
  };
  Check out;
  out.left.field = field(comparison.left);
  out.op = comparison.op;
  if (comparison.right.is_field()) {
    out.right.field = field(comparison.right.field_path());
  } else {
    out.right.literal = comparison.right.literal();
  }
  return out;
}

// The value a side reads in `object`: a default stands in for an absent field, and once one
// did, the rest of the path is read from it. nullopt when the path leads nowhere.
std::optional<ComparedValue> CompiledRule::value_of(const Side& side, JsonView object,
                                                    const MemberValues* found) {
  if (!side.field) return ComparedValue{object, &side.literal};
  const auto& names = side.field->names;
  const auto& defaults = side.field->defaults;
  ComparedValue at{object, nullptr};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i == 0 && found != nullptr && side.field->place) {
      if (const JsonView* member = found->find(*side.field->place)) {
        at.view = *member;
        continue;
      }
    } else if (at.tree == nullptr) {
      if (!at.view.is_object()) return std::nullopt;
      if (const auto member = at.view.find(names[i])) {
        at.view = *member;
        continue;
      }
    } else {
      if (!at.tree->is_object()) return std::nullopt;
      if (const auto it = at.tree->find(names[i]); it != at.tree->end()) {
        at.tree = &*it;
        continue;
      }
    }
    if (!defaults[i]) return std::nullopt;
    at.tree = &*defaults[i];
  }
  return at;
}

[[gnu::always_inline]] inline std::optional<bool> CompiledRule::judge(const Check& check,
                                                                      JsonView object,
                                                                      const MemberValues* found) {
  if (check.shape != Shape::general && found != nullptr) {
    // An absent field (its default) or a value of another kind is judged by judge_values.
    if (const JsonView* member = found->find(check.left_place)) {
      if (check.shape == Shape::found_vs_text) {
        if (member->is_string()) {
          return compare_strings(member->get_string(), check.op, check.right_text);
        }
      } else if (member->is_number()) {
        return compare_numbers_in_tree_order(number_of(*member), check.op, check.right_number);
      }
    }
  }
  return judge_values(check, object, found);
}

std::optional<bool> CompiledRule::judge_values(const Check& check, JsonView object,
                                               const MemberValues* found) {
  const auto left = value_of(check.left, object, found);
  if (!left) return std::nullopt;
  const auto right = value_of(check.right, object, found);
  if (!right) return std::nullopt;
  if (const auto left_text = left->text()) {
    if (const auto right_text = right->text()) {
      return compare_strings(*left_text, check.op, *right_text);
    }
  } else if (const auto left_number = left->number()) {
    if (const auto right_number = right->number()) {
      return compare_numbers_in_tree_order(*left_number, check.op, *right_number);
    }
  }
  return compare_values(left->to_json(), check.op, right->to_json());
}

void CompiledRule::bind_places(const std::vector<std::string_view>& declared) {
  const auto bind = [&](Side& side) {
    if (!side.field || side.field->names.empty()) return;
    const auto it = std::find(declared.begin(), declared.end(), side.field->names.front());
    if (it != declared.end()) side.field->place = static_cast<std::uint32_t>(it - declared.begin());
  };
  for (Check* check : {condition_ ? &*condition_ : nullptr, &requirement_}) {
    if (check == nullptr) continue;
    bind(check->left);
    bind(check->right);
    shape(*check);
  }
}

void CompiledRule::shape(Check& check) {
  const auto& left = check.left.field;
  if (!left || left->names.size() != 1 || !left->place || check.right.field) return;
  const nlohmann::json& literal = check.right.literal;
  if (literal.is_string()) {
    check.shape = Shape::found_vs_text;
    check.right_text = literal.get<std::string>();
  } else if (literal.is_number()) {
    check.shape = Shape::found_vs_number;
    check.right_number = number_of(literal);
  } else {
    return;
  }
  check.left_place = *left->place;
}

bool CompiledRule::holds(JsonView object, const MemberValues* found) const {
  if (!object.is_object()) return true;
  if (condition_ && judge(*condition_, object, found) != std::optional(true)) return true;
  return judge(requirement_, object, found) != std::optional(false);
}

bool compare_numbers_in_tree_order(const NumberValue& left, Op op, const NumberValue& right) {
  switch (op) {
    case Op::eq:
      return !tree_less(left, right) && !tree_less(right, left);
    case Op::ne:
      return tree_less(left, right) || tree_less(right, left);
    case Op::lt:
      return tree_less(left, right);
    case Op::lte:
      return !tree_less(right, left);
    case Op::gt:
      return tree_less(right, left);
    case Op::gte:
      return !tree_less(left, right);
  }
  return false;
}

std::optional<bool> compare_values(const nlohmann::json& left, Op op, const nlohmann::json& right) {
  if (left.is_number() && right.is_number()) {
    return compare_numbers_in_tree_order(number_of(left), op, number_of(right));
  }
  if (left.is_string() && right.is_string()) {
    return compare_strings(text_of(left), op, text_of(right));
  }
  if (op == Op::eq || op == Op::ne) return (left == right) == (op == Op::eq);
  return std::nullopt;
}

Op negated(Op op) {
  switch (op) {
    case Op::eq:
      return Op::ne;
    case Op::ne:
      return Op::eq;
    case Op::lt:
      return Op::gte;
    case Op::lte:
      return Op::gt;
    case Op::gt:
      return Op::lte;
    case Op::gte:
      return Op::lt;
  }
  return op;
}

}  // namespace accord::detail
