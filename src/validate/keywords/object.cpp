// Objects: `properties` with `required` (whether each property is required is decided once,
// beside it), `additionalProperties`, `patternProperties`, `propertyNames`, `minProperties`,
// `maxProperties`, `dependentRequired`, `dependentSchemas` and draft-07's `dependencies`.

#include <algorithm>
#include <optional>

#include "core/member_values.hpp"
#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {
namespace {

// Zod 4.x marks unrecognized_keys `continue: true`: extra keys do not stop refinements.
constexpr bool kUnrecognizedKeysAbort = false;

bool declared(const Node& n, std::string_view name) {
  for (const auto& entry : n.properties) {
    if (entry.first == name) return true;
  }
  return false;
}

// Each declared property's value, found in one pass: the members and properties_by_name are both
// in key order, so each member is compared with the property it names (a match, the usual case:
// its length and a word or two) or passed over. Returns how many properties were present.
std::size_t match_properties(const Node& n, JsonView object, MemberValues& found) {
  std::size_t present = 0;
  const auto members = object.members();
  auto member = members.begin();
  const auto end = members.end();
  for (const auto& [name, p] : n.properties_by_name) {
    for (; member != end; ++member) {
      const JsonMember here = *member;
      if (name.equals(here.key)) {
        found.keep(p, here.value);
        ++present;
        ++member;
        break;
      }
      if (name.order(here.key) > 0) break;  // past the name: the property is absent
    }
    if (member == end) break;
  }
  found.mark_filled();
  return present;
}

// The DSL node of property `i` (its `step`) reached with `dsl`: bound once when the engine was
// built for the usual `dsl` (`bound`, decided once per object), looked up by name for another.
const SchemaNode* property_dsl(const Node::PropertyStep& step, const SchemaNode* dsl, bool bound,
                               std::size_t i) {
  return bound ? step.dsl : field_node(dsl, step.name, i);
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

bool Run::object_unit(Unit unit, const Node& n, JsonView v, const Link* at, Seen* seen) {
  const std::size_t size = v.size();
  switch (unit) {
    case Unit::min_properties:
      if (!n.min_properties || size >= *n.min_properties) return true;
      return fail(IssueCode::too_small, at, false, [&] {
        return "Too small: expected object to have >=" +
               plural(*n.min_properties, "property", "properties");
      });
    case Unit::max_properties:
      if (!n.max_properties || size <= *n.max_properties) return true;
      return fail(IssueCode::too_big, at, false, [&] {
        return "Too big: expected object to have <=" +
               plural(*n.max_properties, "property", "properties");
      });
    case Unit::property_names: {
      // Each key is checked as a string value of its own: one small document holds them all.
      json names = json::array();
      for (const JsonMember& member : v.members()) names.emplace_back(member.key);
      const JsonDocument keys = JsonDocument::from_json(names);
      auto key = keys.root().items().begin();
      bool ok = true;
      for (const JsonMember& member : v.members()) {
        const JsonView key_value = *key++;
        if (quietly(n.property_names, &key_value, at, nullptr)) continue;
        ok = fail(IssueCode::custom, at, false,
                  [&] { return "Invalid key: \"" + std::string(member.key) + "\""; });
        if (sink_ == nullptr) return false;
      }
      return ok;
    }
    case Unit::dependent_required: {
      bool ok = true;
      for (const auto& [name, needed] : n.dependent_required) {
        if (!v.find(name)) continue;
        for (const auto& other : needed) {
          if (v.find(other)) continue;
          const Link field = Link::field(at, other);
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
        if (!v.find(name)) continue;
        ok = node(dependent, &v, at, nullptr, seen) && ok;
        if (!ok && sink_ == nullptr) return false;
      }
      return ok;
    }
    default:
      return true;
  }
}

bool Run::object_keywords(const Node& n, JsonView object, const Link* at, const SchemaNode* dsl,
                          Seen* seen, MemberValues* property_values) {
  bool ok = true;
  MemberValues matched;
  // Read once: the calls in the loop below would have them read again for each property.
  const Node::PropertyStep* const steps = n.property_steps.data();
  const std::size_t count = n.property_steps.size();
  const bool on_stack = count <= MemberValues::kCapacity;
  // Declared properties the value has.
  std::size_t present = on_stack ? match_properties(n, object, matched) : 0;
  // Copied (the places in use): filling the caller's buffer in place would make every node's
  // loop read and write its bits through memory.
  if (on_stack && property_values != nullptr) property_values->copy_places(matched, count);
  // Reached with its usual DSL node, each property's is in its step (both null: the steps are
  // unbound and hold no DSL node).
  const bool bound = dsl == n.usual_dsl;
  // One link for every property, renamed for each: the checks below it do not keep it.
  Link property_link = Link::field(at, {});
  for (std::size_t i = 0; i < count; ++i) {
    const Node::PropertyStep& step = steps[i];
    property_link.key = step.name;
    const auto looked_up = on_stack ? std::nullopt : object.find(step.name);
    const JsonView* value = on_stack ? matched.find(i) : looked_up ? &*looked_up : nullptr;
    if (value != nullptr) {
      if (!on_stack) ++present;
      const SchemaNode* value_dsl = property_dsl(step, dsl, bound, i);
      const bool refined = bound ? step.refined : has_refinements(value_dsl);
      ok = visit(*step.node, step.id, value, &property_link, value_dsl, refined) && ok;
      if (seen != nullptr) seen->properties.push_back(value->index());
    } else if (step.required) {
      ok = node(step.id, nullptr, &property_link, property_dsl(step, dsl, bound, i), nullptr) && ok;
    }
    if (!ok && sink_ == nullptr) return false;
  }
  for (const auto& name : n.required_undeclared) {
    if (object.find(name)) continue;
    const Link field = Link::field(at, name);
    ok = missing(&field);
    if (sink_ == nullptr) return false;
  }
  // Every key declared (the common valid case): no key left for the other two keywords.
  if (n.pattern_properties.empty() && (n.additional == kNone || present == object.size())) {
    return ok;
  }
  ExtraKeys extra;
  for (const auto& [name, item] : object.members()) {
    const Link field = Link::field(at, name);
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
      if (matched && seen != nullptr) seen->properties.push_back(item.index());
      continue;
    }
    if (n.additional == kNone) continue;
    if (seen != nullptr) seen->properties.push_back(item.index());
    const Node& additional = d_.nodes[n.additional];
    if (additional.boolean && !additional.allows) {
      if (sink_ == nullptr) return false;
      extra.add(name);
    } else {
      // A DSL record's values: their refinements run as a field's do.
      ok = visit(n.additional, &item, &field, element_node(dsl, Kind::object, 0)) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
  }
  if (extra.count > 0) ok = unrecognized(extra, at);
  return ok;
}

bool Run::unrecognized(const ExtraKeys& extra, const Link* at) {
  if (sink_ != nullptr) ++sink_->undeclared;
  return fail(IssueCode::unrecognized_keys, at, kUnrecognizedKeysAbort, [&] {
    return (extra.count == 1 ? "Unrecognized key: " : "Unrecognized keys: ") + extra.listed;
  });
}

}  // namespace accord::detail
