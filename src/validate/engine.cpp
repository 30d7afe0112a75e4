#include "validate/engine.hpp"

#include <algorithm>

#include "core/json_depth.hpp"
#include "validate/compiler.hpp"
#include "validate/evaluation.hpp"
#include "validate/field_defaults.hpp"

namespace accord::detail {
namespace {

// The issues a run found, with one more saying how many past the cap were left out.
Issues collected(Sink&& sink, const Path& where) {
  const std::size_t left_out = sink.count - sink.found.size();
  Issues out = std::move(sink.found);
  if (left_out > 0) {
    out.push_back(
        Issue{IssueCode::custom, where, "and " + std::to_string(left_out) + " more issues"});
  }
  return out;
}

// The node (and DSL node) that judges the value at a path, and whether the way there goes
// through a DSL union with null: whether a failure below one is reported as it is or as the
// union's invalid_union depends on the rest of the union's option (a sibling's aborting issue).
struct PlainNode {
  NodeId id;
  const SchemaNode* dsl;
  bool below_union_with_null;
};

// The one node that judges the value at `path` when the way there is plain: only `properties`,
// `additionalProperties` and list `items`, through `$ref`-only and nullable wrappers of the
// containers on the way (the DSL node followed through them as Run follows it). Anything that
// could pick another subschema by what else the value holds (unions, allOf, conditionals,
// pattern properties, unevaluated*, dynamic references), or that stops before the children are
// judged (enum, const, tuple length), gives nullopt.
std::optional<PlainNode> plain_node_at(const Engine::Data& d, const Path& path) {
  NodeId id = d.root;
  const SchemaNode* dsl = d.dsl;
  bool below_union_with_null = false;
  const auto settle = [&]() -> const Node* {
    for (int hops = 0; hops < 64; ++hops) {
      const Node& n = d.nodes[id];
      if (n.ref_only && n.ref != kNone) {
        if (dsl != nullptr && dsl->kind == Kind::ref) dsl = d.definitions.resolve(dsl);
        id = n.ref;
      } else if (n.nullable_inner != kNone && n.properties.empty() && n.rest == kNone &&
                 n.prefix.empty() && n.additional == kNone && n.pattern_properties.empty()) {
        if (n.union_with_null && dsl != nullptr && dsl->kind == Kind::union_) {
          dsl = element_node(dsl, Kind::union_, n.nullable_option);
          below_union_with_null = true;
        }
        id = n.nullable_inner;
      } else {
        return &n;
      }
    }
    return nullptr;
  };
  for (const auto& segment : path.segments()) {
    const Node* n = settle();
    if (n == nullptr || n->boolean || n->ref_only || n->ref != kNone || n->dynamic_ref != kNone ||
        !n->any_of.empty() || !n->one_of.empty() || !n->all_of.empty() || n->not_ != kNone ||
        n->if_ != kNone || !n->dependent_schemas.empty() || n->tracks ||
        n->enum_source != nullptr || n->const_source != nullptr) {
      return std::nullopt;
    }
    if (const auto* key = std::get_if<std::string>(&segment)) {
      if (!n->pattern_properties.empty()) return std::nullopt;
      const auto it = std::find_if(n->properties.begin(), n->properties.end(),
                                   [&](const auto& entry) { return entry.first == *key; });
      if (it != n->properties.end()) {
        id = it->second;
        dsl = field_node(dsl, *key);
      } else if (n->additional != kNone && !d.nodes[n->additional].boolean) {
        id = n->additional;
        dsl = element_node(dsl, Kind::object, 0);
      } else {
        return std::nullopt;
      }
    } else {
      if (n->tuple || !n->prefix.empty() || n->rest == kNone) return std::nullopt;
      id = n->rest;
      dsl = element_node(dsl, Kind::array, 0);
    }
  }
  // The part's own node is not unwrapped: a nullable wrapper must see a null part itself.
  return PlainNode{id, dsl, below_union_with_null};
}

// Records the DSL node each node is first reached with (Node::usual_dsl), whether a field at or
// below that DSL node declares a default (Node::usual_dsl_has_defaults), and in each property's
// step the property's DSL node under it and whether that one is refined, following the DSL down as
// Run does: through nullable wrappers, $refs, properties, records' and lists' values and union
// options. A node reached again keeps its first binding.
void bind_dsl(Engine::Data& d, NodeId id, const SchemaNode* dsl, std::size_t depth) {
  if (dsl == nullptr || id == kNone || depth >= kMaxEvalDepth) return;
  Node& n = d.nodes[id];
  if (n.usual_dsl != nullptr) return;
  n.usual_dsl = dsl;
  const SchemaNode* target = dsl->kind == Kind::ref ? d.definitions.resolve(dsl) : nullptr;
  n.usual_dsl_has_defaults = d.defaults.below.contains(dsl);
  if (n.ref_only) {
    bind_dsl(d, n.ref, target != nullptr ? target : dsl, depth + 1);
    return;
  }
  if (n.nullable_inner != kNone) {
    // A union of an option and null, or a .nullable() (the outer wrapper where both apply: the
    // body of a nullable union is then the union with null).
    if (n.union_with_null || (dsl->kind == Kind::union_ && !dsl->nullable)) {
      n.union_with_null = true;
      bind_dsl(d, n.nullable_inner, element_node(dsl, Kind::union_, n.nullable_option), depth + 1);
      return;
    }
    Node& body = d.nodes[n.nullable_inner];
    if (dsl->kind == Kind::union_ && body.nullable_inner != kNone) body.union_with_null = true;
    bind_dsl(d, n.nullable_inner, dsl, depth + 1);
    return;  // the wrapper's own keywords see no DSL node
  }
  bind_dsl(d, n.ref, target, depth + 1);
  for (std::size_t i = 0; i < n.property_steps.size(); ++i) {
    auto& step = n.property_steps[i];
    step.dsl = field_node(dsl, step.name, i);
    step.refined = has_refinements(step.dsl);
    bind_dsl(d, step.id, step.dsl, depth + 1);
  }
  bind_dsl(d, n.additional, element_node(dsl, Kind::object, 0), depth + 1);
  if (!n.tuple) bind_dsl(d, n.rest, element_node(dsl, Kind::array, 0), depth + 1);
  for (std::size_t i = 0; i < n.any_of.size(); ++i) {
    bind_dsl(d, n.any_of[i], element_node(dsl, Kind::union_, i), depth + 1);
  }
  for (std::size_t i = 0; i < n.one_of.size(); ++i) {
    bind_dsl(d, n.one_of[i], element_node(dsl, Kind::union_, i), depth + 1);
  }
}

}  // namespace

Engine::Engine(const ojson& schema, const SchemaNode* dsl, const EngineOptions& options)
    : data_(std::make_unique<Data>()) {
  // A schema level is at most two levels of JSON (`properties`, then the name), so this refuses
  // no schema the compiler would take; it stops a hostile `const` or `enum` value too, before
  // anything copies or compares it.
  if (nests_deeper_than(schema, 2 * kMaxSchemaDepth)) {
    throw SchemaError({SchemaProblem{Path{}, schema_too_deep()}});
  }
  data_->dsl = dsl;
  if (dsl != nullptr) {
    data_->format_rules = FormatRules::zod;
    data_->definitions = collect_definitions(*dsl);
    data_->defaults = field_defaults(*dsl, data_->definitions);
  }
  data_->documents.push_back(std::make_unique<ojson>(schema));
  Compiler(*data_, options).run(*data_->documents.front());
  bind_dsl(*data_, data_->root, dsl, 0);
}

Engine::~Engine() = default;

bool Engine::accepts(JsonView value) const {
  Run run(*data_, nullptr);
  return run.node(data_->root, &value, nullptr, data_->dsl, nullptr);
}

bool Engine::accepts(const json& value) const {
  const JsonDocument document = JsonDocument::from_json(value);
  return accepts(document.root());
}

Issues Engine::issues(JsonView value) const {
  Sink sink;
  Run run(*data_, &sink);
  (void)run.node(data_->root, &value, nullptr, data_->dsl, nullptr);
  return collected(std::move(sink), Path{});
}

Issues Engine::issues(const json& value) const {
  const JsonDocument document = JsonDocument::from_json(value);
  return issues(document.root());
}

std::optional<Issues> Engine::issues_at(const Path& path, JsonView value) const {
  if (path.empty() || data_->dynamic_scope) return std::nullopt;
  const auto found = plain_node_at(*data_, path);
  if (!found) return std::nullopt;
  // The issues carry the whole path, as a validation of the whole value would word them.
  std::vector<Link> links;
  links.reserve(path.size());
  for (const auto& segment : path.segments()) {
    const Link* up = links.empty() ? nullptr : &links.back();
    if (const auto* key = std::get_if<std::string>(&segment)) {
      links.push_back(Link::field(up, *key));
    } else {
      links.push_back(Link::item(up, std::get<std::size_t>(segment)));
    }
  }
  Sink sink;
  Run run(*data_, &sink);
  if (run.node(found->id, &value, &links.back(), found->dsl, nullptr)) return Issues{};
  if (found->below_union_with_null) return std::nullopt;
  Issues out = collected(std::move(sink), path);
  if (out.empty()) out.push_back(Issue{IssueCode::custom, path, "Invalid input"});
  return out;
}

const std::vector<Path>& Engine::keywords_beside_ref() const {
  return data_->keywords_beside_ref;
}

bool too_deep(const json& value) {
  return nests_deeper_than(value, kMaxValueDepth);
}

namespace {
// As nests_deeper_than (core/json_depth.hpp) for a view; the recursion stops at the limit.
bool view_nests_deeper_than(JsonView value, std::size_t limit) {
  if (!value.is_array() && !value.is_object()) return false;
  if (limit == 0) return true;
  for (JsonView item : value.items()) {
    if (view_nests_deeper_than(item, limit - 1)) return true;
  }
  for (const JsonMember& member : value.members()) {
    if (view_nests_deeper_than(member.value, limit - 1)) return true;
  }
  return false;
}
}  // namespace

bool too_deep(JsonView value) {
  return view_nests_deeper_than(value, kMaxValueDepth);
}

}  // namespace accord::detail
