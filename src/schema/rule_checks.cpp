#include "schema/rule_checks.hpp"

#include <algorithm>

#include "schema/local_ref.hpp"
#include "schema/rule_fields.hpp"
#include "schema/rule_wording.hpp"
#include "schema/schema_definitions.hpp"

namespace accord::detail {
namespace {

std::string type_of(const nlohmann::json& value) {
  if (value.is_number()) return "number";
  return value.type_name();
}

// Adds the kinds a DSL node can hold.
ValueTypes dsl_types(const SchemaNode& node) {
  ValueTypes out;
  switch (node.kind) {
    case Kind::string:
    case Kind::enumeration:
      out = {"string"};
      break;
    case Kind::number:
    case Kind::integer:
      out = {"number"};
      break;
    case Kind::boolean:
      out = {"boolean"};
      break;
    case Kind::null:
      out = {"null"};
      break;
    case Kind::object:
      out = {"object"};
      break;
    case Kind::array:
    case Kind::tuple:
      out = {"array"};
      break;
    case Kind::literal:
      out = {type_of(node.literal)};
      break;
    case Kind::union_:
      for (const auto& option : node.elements) {
        auto types = dsl_types(option.node());
        if (types.empty()) return {};
        out.insert(types.begin(), types.end());
      }
      break;
    case Kind::any:
    case Kind::ref:  // what the definition holds is not looked up here
      return {};
  }
  if (node.nullable) out.insert("null");
  return out;
}

ValueTypes json_types(const ojson& schema, const ojson& root) {
  const ojson* at = resolve_local_ref(&schema, root);
  if (at == nullptr || !at->is_object()) return {};
  ValueTypes out;
  if (auto c = at->find("const"); c != at->end())
    return {type_of(nlohmann::json::parse(c->dump()))};
  if (auto e = at->find("enum"); e != at->end() && e->is_array()) {
    for (const auto& v : *e) out.insert(type_of(nlohmann::json::parse(v.dump())));
    return out;
  }
  if (auto t = at->find("type"); t != at->end()) {
    auto add = [&](const ojson& name) {
      if (!name.is_string()) return;
      const auto text = name.get<std::string>();
      out.insert(text == "integer" ? "number" : text);
    };
    if (t->is_array()) {
      for (const auto& name : *t) add(name);
    } else {
      add(*t);
    }
    return out;
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    if (auto options = at->find(key); options != at->end() && options->is_array()) {
      for (const auto& option : *options) {
        auto types = json_types(option, root);
        if (types.empty()) return {};
        out.insert(types.begin(), types.end());
      }
      return out;
    }
  }
  return {};
}

bool is_orderable(const ValueTypes& types) {
  return types.empty() || types.count("number") != 0 || types.count("string") != 0;
}

bool overlap(const ValueTypes& a, const ValueTypes& b) {
  if (a.empty() || b.empty()) return true;
  return std::any_of(a.begin(), a.end(), [&](const std::string& t) { return b.count(t) != 0; });
}

std::string types_text(const ValueTypes& types) {
  std::string out;
  for (const auto& t : types) out += (out.empty() ? "" : " or ") + t;
  return out;
}

void comparison_problems(const Comparison& c, const std::string& part, const FieldLookup& lookup,
                         std::vector<RuleProblem>& out) {
  auto field_types = [&](const std::string& path) -> std::optional<ValueTypes> {
    if (!valid_field_path(path)) {
      out.push_back({part, "\"" + path +
                               "\" is not a field path (identifiers joined with dots, such as "
                               "shipping.country)"});
      return std::nullopt;
    }
    auto types = lookup(field_segments(path));
    if (!types) out.push_back({part, path + " is not a field of this object"});
    return types;
  };
  const auto left = field_types(c.left);
  std::optional<ValueTypes> right;
  if (c.right.is_field()) {
    right = field_types(c.right.field_path());
  } else {
    const auto& literal = c.right.literal();
    if (literal.is_structured()) {
      out.push_back(
          {part, "the literal " + literal.dump() + " must be a string, number, boolean or null"});
      return;
    }
    right = ValueTypes{type_of(literal)};
  }
  if (!left || !right) return;
  const bool ordering = c.op != Op::eq && c.op != Op::ne;
  const std::string shown = "`" + to_string(c) + "`";
  if (ordering &&
      (!is_orderable(*left) || !is_orderable(*right) ||
       (!right->empty() && right->count("number") == 0 && right->count("string") == 0))) {
    out.push_back(
        {part, shown + ": " + std::string(to_string(c.op)) + " orders numbers or strings only"});
    return;
  }
  if (!overlap(*left, *right)) {
    out.push_back({part, shown + " can never hold: " + c.left + " is " + types_text(*left) + ", " +
                             operand_text(c.right) + " is " + types_text(*right)});
  }
}

}  // namespace

std::vector<RuleProblem> rule_problems(const Rule& rule, const FieldLookup& lookup) {
  std::vector<RuleProblem> out;
  if (rule.condition) {
    comparison_problems(*rule.condition, "if", lookup, out);
    comparison_problems(rule.requirement, "then", lookup, out);
  } else {
    comparison_problems(rule.requirement, "rule", lookup, out);
  }
  if (rule.path && !rule.path->empty()) {
    const auto* key = std::get_if<std::string>(&rule.path->segments().front());
    if (key != nullptr && !lookup({*key})) {
      out.push_back({"path", "path points at " + *key + ", which is not a field of this object"});
    }
  }
  return out;
}

FieldLookup dsl_lookup(const SchemaNode& object, const SchemaDefinitions* definitions) {
  return [&object,
          definitions](const std::vector<std::string>& segments) -> std::optional<ValueTypes> {
    // A ref stands for a definition known only once the whole schema is: until then a path
    // through it is taken on trust (emit() checks it again with the definitions).
    const auto through_ref = [definitions](const SchemaNode* node) -> const SchemaNode* {
      if (node->kind != Kind::ref || definitions == nullptr) return node;
      return definitions->resolve(node);  // an unknown name is a problem of its own
    };
    const SchemaNode* at = &object;
    for (const auto& name : segments) {
      at = through_ref(at);
      if (at == nullptr || at->kind == Kind::ref) return ValueTypes{};
      if (at->kind != Kind::object) return std::nullopt;
      auto field = std::find_if(at->fields.begin(), at->fields.end(),
                                [&](const Field& f) { return f.name == name; });
      if (field == at->fields.end()) return std::nullopt;
      at = &field->schema.node();
    }
    const SchemaNode* resolved = through_ref(at);
    if (resolved == nullptr || resolved == at) return dsl_types(*at);
    auto types = dsl_types(*resolved);
    if (at->nullable && !types.empty()) types.insert("null");
    return types;
  };
}

std::vector<std::string> dsl_rule_problems(const Rule& rule, const SchemaNode& object,
                                           const SchemaDefinitions* definitions) {
  std::vector<std::string> out;
  for (const auto& problem : rule_problems(rule, dsl_lookup(object, definitions))) {
    out.push_back("rule `" + to_string(rule) + "`: " + problem.message);
  }
  return out;
}

FieldLookup json_lookup(const ojson& object_schema, const ojson& root) {
  return [&object_schema,
          &root](const std::vector<std::string>& segments) -> std::optional<ValueTypes> {
    const ojson* at = &object_schema;
    for (const auto& name : segments) {
      const ojson* object = object_branch(at, root);
      if (object == nullptr) return std::nullopt;
      auto properties = object->find("properties");
      if (properties == object->end() || !properties->is_object() || !properties->contains(name)) {
        return std::nullopt;
      }
      at = &(*properties)[name];
    }
    return json_types(*at, root);
  };
}

std::vector<Rule> parse_rules(const ojson& rules, const ojson& object_schema, const ojson& root,
                              const Path& at, std::vector<SchemaProblem>& problems) {
  std::vector<Rule> out;
  if (!rules.is_array()) {
    problems.push_back({at, std::string(kRulesKeyword) + " must be an array of rules"});
    return out;
  }
  if (object_branch(&object_schema, root) == nullptr) {
    problems.push_back({at, std::string(kRulesKeyword) + " belongs on an object with properties"});
    return out;
  }
  const auto lookup = json_lookup(object_schema, root);
  for (std::size_t i = 0; i < rules.size(); ++i) {
    try {
      Rule rule = parse_rule(rules[i]);
      const auto found = rule_problems(rule, lookup);
      for (const auto& problem : found)
        problems.push_back({at / i / problem.part, problem.message});
      if (found.empty()) out.push_back(std::move(rule));
    } catch (const SchemaError& e) {
      for (const auto& problem : e.problems()) {
        problems.push_back({at / i + problem.path, problem.message});
      }
    }
  }
  return out;
}

}  // namespace accord::detail
