#include "schema/rule_evaluation.hpp"

#include "schema/local_ref.hpp"
#include "schema/rule_fields.hpp"

namespace accord::detail {

using ojson = nlohmann::ordered_json;

// A value a comparison reads: in the document, or a tree (a literal, a declared default).
struct ComparedValue {
  std::optional<JsonView> view;
  const nlohmann::json* tree = nullptr;

  [[nodiscard]] std::optional<std::string_view> text() const {
    if (view) {
      if (view->is_string()) return view->get_string();
    } else if (tree->is_string()) {
      return tree->get_ref<const std::string&>();
    }
    return std::nullopt;
  }
  // A number, boolean or null becomes a tree without allocating.
  [[nodiscard]] nlohmann::json to_json() const { return view ? view->to_json() : *tree; }
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

// Strings compare by code unit, which for UTF-8 is code point order, as nlohmann's do.
bool compare_strings(std::string_view left, Op op, std::string_view right) {
  switch (op) {
    case Op::eq:
      return left == right;
    case Op::ne:
      return left != right;
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
std::optional<ComparedValue> CompiledRule::value_of(const Side& side, JsonView object) {
  if (!side.field) return ComparedValue{std::nullopt, &side.literal};
  const auto& names = side.field->names;
  const auto& defaults = side.field->defaults;
  ComparedValue at{object, nullptr};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (at.view) {
      if (!at.view->is_object()) return std::nullopt;
      if (const auto member = at.view->find(names[i])) {
        at.view = member;
        continue;
      }
      at.view.reset();
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

std::optional<bool> CompiledRule::judge(const Check& check, JsonView object) {
  const auto left = value_of(check.left, object);
  if (!left) return std::nullopt;
  const auto right = value_of(check.right, object);
  if (!right) return std::nullopt;
  const auto left_text = left->text();
  const auto right_text = right->text();
  if (left_text && right_text) return compare_strings(*left_text, check.op, *right_text);
  return compare_values(left->to_json(), check.op, right->to_json());
}

bool CompiledRule::holds(JsonView object) const {
  if (!object.is_object()) return true;
  if (condition_ && judge(*condition_, object) != std::optional(true)) return true;
  return judge(requirement_, object) != std::optional(false);
}

std::optional<bool> compare_values(const nlohmann::json& left, Op op, const nlohmann::json& right) {
  if (op == Op::eq || op == Op::ne) {
    bool equal = false;
    if (left.is_number() && right.is_number()) {
      equal = !(left < right) && !(right < left);
    } else {
      equal = left == right;
    }
    return op == Op::eq ? equal : !equal;
  }
  const bool numbers = left.is_number() && right.is_number();
  const bool strings = left.is_string() && right.is_string();
  if (!numbers && !strings) return std::nullopt;
  // nlohmann orders numbers across integer/float kinds and strings by code unit, which for UTF-8
  // is code point order.
  switch (op) {
    case Op::lt:
      return left < right;
    case Op::lte:
      return !(right < left);
    case Op::gt:
      return right < left;
    case Op::gte:
      return !(left < right);
    default:
      return std::nullopt;
  }
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
