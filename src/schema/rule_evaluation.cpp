#include "schema/rule_evaluation.hpp"

#include "schema/local_ref.hpp"
#include "schema/rule_fields.hpp"

namespace accord::detail {
namespace {

using ojson = nlohmann::ordered_json;

// The value at `path` inside `object`, a declared default standing in for an absent field (the
// schema looked up through refs and nullable wrappers, as the field path goes).
std::optional<nlohmann::json> field_value(JsonView object, const ojson* schema, const ojson& root,
                                          const std::string& path) {
  std::optional<JsonView> at = object;
  std::optional<nlohmann::json> fallback;
  for (const auto& name : field_segments(path)) {
    const ojson* property = nullptr;
    schema = schema != nullptr ? object_branch(schema, root) : nullptr;
    if (schema != nullptr) {
      auto properties = schema->find("properties");
      if (properties != schema->end() && properties->is_object() && properties->contains(name)) {
        property = &(*properties)[name];
      }
    }
    // Once a default stood in, the rest of the path is read from its tree.
    bool found = false;
    if (fallback) {
      if (!fallback->is_object()) return std::nullopt;
      if (const auto it = fallback->find(name); it != fallback->end()) {
        fallback = nlohmann::json(*it);
        found = true;
      }
    } else {
      if (!at->is_object()) return std::nullopt;
      if (const auto member = at->find(name)) {
        at = member;
        found = true;
      }
    }
    if (!found) {
      const ojson* declared = property != nullptr ? resolve_local_ref(property, root) : nullptr;
      if (declared == nullptr || !declared->is_object() || !declared->contains("default")) {
        return std::nullopt;
      }
      fallback = nlohmann::json::parse((*declared)["default"].dump());
    }
    schema = property;
  }
  return fallback ? std::move(fallback) : at->to_json();
}

std::optional<bool> judge(const Comparison& c, JsonView object, const ojson* schema,
                          const ojson& root) {
  const auto left = field_value(object, schema, root, c.left);
  if (!left) return std::nullopt;
  std::optional<nlohmann::json> right;
  if (c.right.is_field()) {
    right = field_value(object, schema, root, c.right.field_path());
  } else {
    right = c.right.literal();
  }
  if (!right) return std::nullopt;
  return compare_values(*left, c.op, *right);
}

}  // namespace

bool rule_holds(const Rule& rule, JsonView object, const ojson* object_schema, const ojson& root) {
  if (!object.is_object()) return true;
  if (rule.condition &&
      judge(*rule.condition, object, object_schema, root) != std::optional(true)) {
    return true;
  }
  return judge(rule.requirement, object, object_schema, root) != std::optional(false);
}

Path issue_path(const Rule& rule) {
  if (rule.path) return *rule.path;
  Path out;
  for (auto& name : field_segments(rule.requirement.left)) out = out / std::move(name);
  return out;
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
