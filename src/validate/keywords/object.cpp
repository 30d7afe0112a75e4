// Objects: `properties` with `required` (whether each property is required is decided once,
// beside it), `additionalProperties`, `patternProperties`, `propertyNames`, `minProperties`,
// `maxProperties`, `dependentRequired`, `dependentSchemas` and draft-07's `dependencies`.

#include <algorithm>

#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {
namespace {

// Zod 4.x marks unrecognized_keys `continue: true`: extra keys do not stop refinements.
constexpr bool kUnrecognizedKeysAbort = false;

bool declared(const Node& n, const std::string& name) {
  for (const auto& entry : n.properties) {
    if (entry.first == name) return true;
  }
  return false;
}

}  // namespace

void compile_properties(KeywordCompiler& k, const std::string& key, const ojson& value,
                        const Path& at) {
  k.node().properties = k.map(value, key, at);
  if (value.is_object()) k.add_unit(Unit::object);
}

void compile_pattern_properties(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                                const Path& at) {
  if (!value.is_object()) {
    k.problem(at, "patternProperties must be an object");
    return;
  }
  for (const auto& [source, property] : value.items()) {
    Regex compiled = k.regex(ojson(source), at / source);
    const NodeId target = k.sub(property, at / source);
    if (compiled) k.node().pattern_properties.emplace_back(std::move(compiled), target);
  }
  k.add_unit(Unit::object);
}

void compile_additional_properties(KeywordCompiler& k, const std::string& /*key*/,
                                   const ojson& value, const Path& at) {
  k.node().additional = k.sub(value, at);
  k.add_unit(Unit::object);
}

void compile_required(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                      const Path& at) {
  if (!value.is_array() ||
      std::any_of(value.begin(), value.end(), [](const ojson& v) { return !v.is_string(); })) {
    k.problem(at, "required must be an array of property names");
    return;
  }
  for (const auto& name : value) k.node().required.push_back(name.get<std::string>());
  k.add_unit(Unit::object);
}

void compile_property_names(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                            const Path& at) {
  k.node().property_names = k.sub(value, at);
  k.add_unit(Unit::property_names);
}

void compile_property_count(KeywordCompiler& k, const std::string& key, const ojson& value,
                            const Path& at) {
  const bool min = key == "minProperties";
  (min ? k.node().min_properties : k.node().max_properties) = k.count(value, at, key);
  k.add_unit(min ? Unit::min_properties : Unit::max_properties);
}

// `dependentRequired`, and draft-07's `dependencies` (a list of names or a schema per name).
void compile_dependencies(KeywordCompiler& k, const std::string& key, const ojson& value,
                          const Path& at) {
  if (!value.is_object()) {
    k.problem(at, key + " must be an object");
    return;
  }
  for (const auto& [name, dependent] : value.items()) {
    if (dependent.is_array()) {
      std::vector<std::string> names;
      for (const auto& entry : dependent) {
        if (entry.is_string()) names.push_back(entry.get<std::string>());
      }
      k.node().dependent_required.emplace_back(name, std::move(names));
      k.add_unit(Unit::dependent_required);
    } else if (key == "dependencies") {
      const NodeId target = k.sub(dependent, at / name);
      k.node().dependent_schemas.emplace_back(name, target);
      k.add_unit(Unit::dependent_schemas);
    } else {
      k.problem(at / name, key + " values must be arrays of property names");
    }
  }
}

void compile_dependent_schemas(KeywordCompiler& k, const std::string& key, const ojson& value,
                               const Path& at) {
  auto schemas = k.map(value, key, at);
  if (!value.is_object()) return;
  auto& node = k.node();
  node.dependent_schemas.insert(node.dependent_schemas.end(),
                                std::make_move_iterator(schemas.begin()),
                                std::make_move_iterator(schemas.end()));
  k.add_unit(Unit::dependent_schemas);
}

bool Run::object_unit(Unit unit, const Node& n, const json& v, const Link* at,
                      const SchemaNode* dsl, Seen* seen) {
  const auto& object = v.get_ref<const json::object_t&>();
  switch (unit) {
    case Unit::object:
      return object_keywords(n, object, at, dsl, seen);
    case Unit::min_properties:
      if (!n.min_properties || object.size() >= *n.min_properties) return true;
      return fail(IssueCode::too_small, at, false, [&] {
        return "Too small: expected object to have >=" +
               plural(*n.min_properties, "property", "properties");
      });
    case Unit::max_properties:
      if (!n.max_properties || object.size() <= *n.max_properties) return true;
      return fail(IssueCode::too_big, at, false, [&] {
        return "Too big: expected object to have <=" +
               plural(*n.max_properties, "property", "properties");
      });
    case Unit::property_names: {
      bool ok = true;
      for (const auto& [name, item] : object) {
        const json key(name);
        if (quietly(n.property_names, &key, at, nullptr)) continue;
        // clang 14 (the fuzz build) cannot capture a structured binding: name it first.
        const std::string& key_name = name;
        ok =
            fail(IssueCode::custom, at, false, [&] { return "Invalid key: \"" + key_name + "\""; });
        if (sink_ == nullptr) return false;
      }
      return ok;
    }
    case Unit::dependent_required: {
      bool ok = true;
      for (const auto& [name, needed] : n.dependent_required) {
        if (object.find(name) == object.end()) continue;
        for (const auto& other : needed) {
          if (object.find(other) != object.end()) continue;
          const Link field{at, &other, 0};
          const std::string& trigger = name;  // clang 14 cannot capture a structured binding
          ok = missing_when(&field, [&] { return "when " + json(trigger).dump() + " is present"; });
          if (sink_ == nullptr) return false;
        }
      }
      return ok;
    }
    case Unit::dependent_schemas: {
      bool ok = true;
      for (const auto& [name, dependent] : n.dependent_schemas) {
        if (object.find(name) == object.end()) continue;
        ok = node(dependent, &v, at, nullptr, seen) && ok;
        if (!ok && sink_ == nullptr) return false;
      }
      return ok;
    }
    default:
      return true;
  }
}

bool Run::object_keywords(const Node& n, const json::object_t& object, const Link* at,
                          const SchemaNode* dsl, Seen* seen) {
  bool ok = true;
  std::size_t present = 0;  // declared properties the value has
  for (std::size_t i = 0; i < n.properties.size(); ++i) {
    const auto& [name, id] = n.properties[i];
    const Link field{at, &name, 0};
    auto it = object.find(name);
    if (it != object.end()) {
      ++present;
      ok = node(id, &it->second, &field, field_node(dsl, name, i), nullptr) && ok;
      if (seen != nullptr) seen->properties.push_back(&it->second);
    } else if (n.property_required[i]) {
      ok = node(id, nullptr, &field, field_node(dsl, name, i), nullptr) && ok;
    }
    if (!ok && sink_ == nullptr) return false;
  }
  for (const auto& name : n.required_undeclared) {
    if (object.find(name) != object.end()) continue;
    const Link field{at, &name, 0};
    ok = missing(&field);
    if (sink_ == nullptr) return false;
  }
  // Every key declared (the common valid case): no key left for the other two keywords.
  if (n.pattern_properties.empty() && (n.additional == kNone || present == object.size())) {
    return ok;
  }
  std::vector<const std::string*> extra;
  for (const auto& [name, item] : object) {
    const Link field{at, &name, 0};
    bool matched = false;
    for (const auto& [regex, id] : n.pattern_properties) {
      const auto key_matches = matches(regex, name);
      if (!key_matches) {
        ok = budget_spent(&field, "the patternProperties for this key") && ok;
        if (sink_ == nullptr) return false;
      }
      if (!key_matches.value_or(false)) continue;
      matched = true;
      ok = node(id, &item, &field, nullptr, nullptr) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
    if (matched || declared(n, name)) {
      if (matched && seen != nullptr) seen->properties.push_back(&item);
      continue;
    }
    if (n.additional == kNone) continue;
    if (seen != nullptr) seen->properties.push_back(&item);
    const Node& additional = d_.nodes[n.additional];
    if (additional.boolean && !additional.allows) {
      if (sink_ == nullptr) return false;
      extra.push_back(&name);
    } else {
      // A DSL record's values: their refinements run as a field's do.
      ok = node(n.additional, &item, &field, element_node(dsl, Kind::object, 0), nullptr) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
  }
  if (!extra.empty()) ok = unrecognized(extra, at);
  return ok;
}

bool Run::unrecognized(const std::vector<const std::string*>& extra, const Link* at) {
  return fail(IssueCode::unrecognized_keys, at, kUnrecognizedKeysAbort, [&] {
    std::string message = extra.size() == 1 ? "Unrecognized key: " : "Unrecognized keys: ";
    for (std::size_t i = 0; i < extra.size(); ++i) {
      message += (i == 0 ? "\"" : ", \"") + *extra[i] + "\"";
    }
    return message;
  });
}

}  // namespace accord::detail
