#include "validate/evaluation.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <unordered_map>
#include <utility>

#include "core/json_number.hpp"
#include "schema/declared_field.hpp"

namespace accord::detail {

Path to_path(const Link* at) {
  std::size_t depth = 0;
  for (const Link* link = at; link != nullptr; link = link->up) ++depth;
  // Made from the leaf up, each segment once, then turned round: one allocation for the
  // segments, none for a chain.
  std::vector<PathSegment> segments;
  segments.reserve(depth);
  for (; at != nullptr; at = at->up) {
    if (at->named) {
      segments.emplace_back(std::in_place_type<std::string>, at->key);
    } else {
      segments.emplace_back(std::in_place_type<std::size_t>, at->index);
    }
  }
  std::reverse(segments.begin(), segments.end());
  return Path(std::move(segments));
}

std::string received(const JsonView* value) {
  return value == nullptr ? "undefined" : value->type_name();
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

const SchemaNode* field_node(const SchemaNode* node, std::string_view name, std::size_t hint) {
  if (node == nullptr || node->kind != Kind::object) return nullptr;
  if (hint < node->fields.size() && node->fields[hint].name == name) {
    return &node->fields[hint].schema.node();
  }
  const Field* field = declared_field(*node, name);
  return field != nullptr ? &field->schema.node() : nullptr;
}

const SchemaNode* element_node(const SchemaNode* node, Kind kind, std::size_t index) {
  if (node == nullptr || node->kind != kind || index >= node->elements.size()) return nullptr;
  return &node->elements[index].node();
}

bool Run::node(NodeId id, const JsonView* v, const Link* at, const SchemaNode* dsl, Seen* seen) {
  const Node& n = d_.nodes[id];
  if (judged_as_leaf(n, v)) return leaf(n, *v, at, dsl);
  if (depth_ >= kMaxEvalDepth) {
    fail(IssueCode::custom, at, true, [] {
      return "Invalid input: the schema recurses deeper than " + std::to_string(kMaxEvalDepth) +
             " levels for this value";
    });
    return false;
  }
  ++depth_;
  const bool entered = d_.dynamic_scope && (scope_.empty() || scope_.back() != n.resource);
  if (entered) scope_.push_back(n.resource);
  const bool ok = body(n, v, at, dsl, seen);
  if (entered) scope_.pop_back();
  --depth_;
  return ok;
}

void Run::record(IssueCode code, const Link* at, std::string message, const Path* tail) {
  Path path = to_path(at);
  if (tail != nullptr && !tail->empty()) path = path + *tail;
  // An invalid document usually has a few issues: room for them in one allocation.
  if (sink_->found.empty()) sink_->found.reserve(4);
  sink_->found.push_back(Issue{code, std::move(path), std::move(message)});
}

bool Run::missing(const Link* at) {
  if (condition_ != nullptr && at != nullptr && at->named) {
    return missing_when(at, [this] { return *condition_; });
  }
  return fail(IssueCode::invalid_type, at, true, [] {
    return std::string("Invalid input: expected nonoptional, received undefined");
  });
}

// Whether `text` matches, within this run's backtracking budget; nullopt when the budget was
// spent before a backtracking pattern could answer (the value is then not passed unchecked).
std::optional<bool> Run::matches(const Regex& regex, std::string_view text) {
  if (regex.search(text, budget_)) return true;
  if (regex.backtracks() && budget_.spent()) return std::nullopt;
  return false;
}

bool Run::budget_spent(const Link* at, const std::string& what) {
  return fail(IssueCode::invalid_format, at, false, [&] {
    return "Invalid string: not checked against " + what + ": this document spent its budget of " +
           std::to_string(BacktrackingBudget::kPerDocument) +
           " backtracking steps for lookaround and backreference patterns";
  });
}

// Evaluates a `then` or `else` with `condition` (its reason in words) in force.
bool Run::under_condition(NodeId id, JsonView v, const Link* at, Seen* seen,
                          const std::string& condition) {
  const std::string* saved = condition_;
  condition_ = &condition;
  const bool ok = node(id, &v, at, nullptr, seen);
  condition_ = saved;
  return ok;
}

// Evaluates without recording issues (for not, if, contains, propertyNames).
bool Run::quietly(NodeId id, const JsonView* v, const Link* at, Seen* seen) {
  Sink* saved = sink_;
  sink_ = nullptr;
  const bool ok = node(id, v, at, nullptr, seen);
  sink_ = saved;
  return ok;
}

template <class Check>
bool Run::each_unit(const Node& n, JsonView v, const Link* at, Seen* seen, const Check& check) {
  bool ok = true;
  for (const Unit unit : n.units) {
    const bool applicator = unit == Unit::all_of || unit == Unit::not_ || unit == Unit::conditional;
    ok = (applicator ? applicator_unit(unit, n, v, at, seen) : check(unit)) && ok;
    if (!ok && sink_ == nullptr) return false;
  }
  return ok;
}

bool Run::units(const Node& n, JsonView v, const Link* at, const SchemaNode* dsl, Seen* seen,
                MemberValues* property_values) {
  // Many nodes (a plain string, a string enum, a union's wrapper) have none; the value is then
  // not read at all.
  if (n.units.empty()) return true;
  if (v.is_string()) {
    const std::string_view text = v.get_string();
    const bool format_failed = n.format_check != nullptr && !n.format_check(text);
    return each_unit(n, v, at, seen,
                     [&](Unit unit) { return string_unit(unit, n, text, at, format_failed); });
  }
  if (v.is_number()) {
    const NumberValue value = number_of(v);
    return each_unit(n, v, at, seen, [&](Unit unit) { return number_unit(unit, n, v, value, at); });
  }
  if (v.is_array()) {
    return each_unit(n, v, at, seen,
                     [&](Unit unit) { return array_unit(unit, n, v, at, dsl, seen); });
  }
  if (v.is_object()) {
    // Unit::object (an object node's usual unit) is called straight, past object_unit's switch.
    return each_unit(n, v, at, seen, [&](Unit unit) {
      return unit == Unit::object ? object_keywords(n, v, at, dsl, seen, property_values)
                                  : object_unit(unit, n, v, at, seen);
    });
  }
  return each_unit(n, v, at, seen,
                   [](Unit /*no unit of a kind checks null or a boolean*/) { return true; });
}

bool Run::refinements_hold(const Node& n, JsonView v, const Link* at, const SchemaNode* dsl,
                           Mark before) {
  if (!has_refinements(dsl) || (dsl->nullable && v.is_null()) || aborts() != before.aborting) {
    return true;
  }
  // bind_dsl asked already for the usual DSL node; another one is asked here.
  return refine(*dsl, v, at,
                dsl == n.usual_dsl ? n.usual_dsl_has_defaults : d_.defaults.below.contains(dsl),
                undeclared() != before.undeclared);
}

bool Run::leaf(const Node& n, JsonView v, const Link* at, const SchemaNode* dsl) {
  if (!kind_plainly_ok(n, &v) && !value_kind_ok(n, &v, at)) return false;
  const Mark start = mark();
  const bool ok = units(n, v, at, dsl, nullptr);
  if (!has_refinements(dsl)) return ok;
  if (!ok && sink_ == nullptr) return false;
  return refinements_hold(n, v, at, dsl, start) && ok;
}

bool Run::body(const Node& n, const JsonView* v, const Link* at, const SchemaNode* dsl,
               Seen* seen) {
  bool ok = true;
  const Mark start = mark();
  const std::size_t entry = issued();
  std::optional<Seen> local;  // only a node with unevaluated* keeps its own record (two vectors)
  Seen* track = seen;
  if (n.wrapped && !wrapper_steps(n, v, at, dsl, seen, ok, track, local)) return ok;
  if (!kind_plainly_ok(n, v) && !value_kind_ok(n, v, at)) return false;
  if (v == nullptr) {
    // Absent (a required property): the unions may word it, else it is "nonoptional".
    (void)unions(n, v, at, dsl, nullptr);
    if (issued() == entry) missing(at);
    return false;
  }
  if (n.wrapped) {
    if (!n.any_of.empty() || !n.one_of.empty()) {
      ok = unions(n, v, at, dsl, track) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
    if (v->is_array() && n.tuple && !tuple_length_ok(n, *v, at)) return false;
  }

  ok = (n.rules.empty() ? own_steps(n, *v, at, dsl, seen, track, local, nullptr)
                        : ruled_steps(n, *v, at, dsl, seen, track, local, start.aborting)) &&
       ok;
  if (!ok && sink_ == nullptr) return false;
  return refinements_hold(n, *v, at, dsl, start) && ok;
}

bool Run::own_steps(const Node& n, JsonView v, const Link* at, const SchemaNode* dsl, Seen* seen,
                    Seen* track, std::optional<Seen>& local, MemberValues* property_values) {
  bool ok = units(n, v, at, dsl, track, property_values);
  if (!ok && sink_ == nullptr) return false;
  if (n.tracks) {
    ok = unevaluated(n, v, at, *local) && ok;
    if (!ok && sink_ == nullptr) return false;
    if (seen != nullptr) seen->merge(*local);
  }
  return ok;
}

bool Run::ruled_steps(const Node& n, JsonView v, const Link* at, const SchemaNode* dsl, Seen* seen,
                      Seen* track, std::optional<Seen>& local, std::size_t start) {
  // The rules read the fields the object keywords found.
  MemberValues property_values;
  bool ok = own_steps(n, v, at, dsl, seen, track, local, &property_values);
  if (!ok && sink_ == nullptr) return false;
  if (v.is_object() && aborts() == start) ok = accord_rules(n, v, at, property_values) && ok;
  return ok;
}

// A boolean schema and a ref-only node are judged here whole (false: `ok` is the verdict); a
// nullable wrapper, a $ref and a $dynamicRef go first, the node's own steps after them (true).
bool Run::wrapper_steps(const Node& n, const JsonView* v, const Link* at, const SchemaNode*& dsl,
                        Seen* seen, bool& ok, Seen*& track, std::optional<Seen>& local) {
  if (n.boolean) {
    if (v == nullptr) {
      ok = missing(at);
    } else {
      ok = n.allows || fail(IssueCode::invalid_type, at, true, [&] {
             return "Invalid input: expected never, received " + received(v);
           });
    }
    return false;
  }
  if (n.ref_only) {
    // draft-07 ignores a $ref's siblings; a ref's own refinements (its use) still run.
    if (dsl == nullptr || dsl->kind != Kind::ref) {
      ok = n.ref == kNone || node(n.ref, v, at, dsl, seen);
      return false;
    }
    const Mark before = mark();
    ok = n.ref == kNone || node(n.ref, v, at, d_.definitions.resolve(dsl), seen);
    if (!ok && sink_ == nullptr) return false;
    if (v != nullptr) ok = refinements_hold(n, *v, at, dsl, before) && ok;
    return false;
  }
  if (n.nullable_inner != kNone) {
    // emit()'s nullable wrapper: null passes, anything else is the inner schema's. A .nullable()'s
    // inner schema has the same DSL node (whose refinements run there, never on null: Zod's
    // `X.refine(p).nullable()`); a union with null is judged as a union, and its own refinements
    // run here, after the option's, on null too (Zod's `z.union([X, z.null()]).refine(p)`).
    const bool union_with_null = n.union_with_null && dsl != nullptr && dsl->kind == Kind::union_;
    const Mark before = mark();
    if (v == nullptr || !v->is_null()) {
      ok = union_with_null ? option_beside_null(n, v, at, dsl, seen)
                           : node(n.nullable_inner, v, at, dsl, seen);
      if (!ok && sink_ == nullptr) return false;
      // Zod hands the option's result on, its defaults in and undeclared keys out, failing too
      // (an aborting failure is an invalid_union, and no refinement above reads the note then;
      // the option's issues are absorbed only when it did not abort).
      if (union_with_null && v != nullptr) {
        note_accepted(dsl, v, n.nullable_option, undeclared() != before.undeclared);
      }
    }
    if (union_with_null && v != nullptr) {
      ok = refinements_hold(n, *v, at, dsl, before) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
    dsl = nullptr;
  }
  if (n.tracks) track = &local.emplace();
  if (n.ref != kNone) {
    const SchemaNode* target =
        dsl != nullptr && dsl->kind == Kind::ref ? d_.definitions.resolve(dsl) : nullptr;
    ok = node(n.ref, v, at, target, track) && ok;
    if (!ok && sink_ == nullptr) return false;
  }
  if (n.dynamic_ref != kNone) {
    ok = node(dynamic_target(n), v, at, nullptr, track) && ok;
    if (!ok && sink_ == nullptr) return false;
  }
  return true;
}

struct Run::NotedOptions {
  using Key = std::pair<const SchemaNode*, std::uint32_t>;  // the union, the value's tape index
  struct KeyHash {
    std::size_t operator()(const Key& key) const {
      return std::hash<const SchemaNode*>{}(key.first) ^
             (static_cast<std::size_t>(key.second) * 0x9E3779B97F4A7C15ULL);
    }
  };
  std::unordered_map<Key, std::size_t, KeyHash> options;
};

void Run::ReleaseNotedOptions::operator()(NotedOptions* noted) const {
  delete noted;
}

void Run::note(const SchemaNode& union_node, std::uint32_t index, std::size_t option) {
  if (!noted_options_) noted_options_.reset(new NotedOptions);
  noted_options_->options[{&union_node, index}] = option;
}

bool Run::fill(const SchemaNode& dsl, JsonView v, json& tree, UndeclaredKeys undeclared) const {
  if (!noted_options_) {  // no union noted
    return fill_defaults(&dsl, tree, d_.definitions, std::nullopt, undeclared);
  }
  const AcceptedOptionLookup option_of = [this](const SchemaNode& union_node,
                                                JsonView value) -> std::optional<std::size_t> {
    const auto& options = noted_options_->options;
    const auto noted = options.find({&union_node, value.index()});
    if (noted == options.end()) return std::nullopt;
    return noted->second;
  };
  return fill_defaults(&dsl, tree, d_.definitions, WalkedValue{v, &option_of}, undeclared);
}

// Zod runs refinements after the node's own checks; the predicate sees the defaults of absent
// fields filled in at every depth below `dsl`, and the keys closed objects do not declare left
// out, as Zod's parse hands the value over (below a union, the option the walk accepted:
// note_accepted() noted it). The value is copied once (to_json), here, and filled in place by
// the walk behind accord::with_defaults; the copy is a JSON predicate's tree too. A view
// predicate reads the value as it is when the walk changed nothing. Undeclared keys are looked
// for only when the node's checks reported some (unrecognized_keys does not abort), and not for
// refinements that read only declared members (typed ones: a struct has no place for the key).
bool Run::refine(const SchemaNode& dsl, JsonView v, const Link* at, bool fills,
                 bool undeclared_below) {
  std::optional<json> tree;
  bool filled = false;
  const bool drops =
      undeclared_below && !std::all_of(dsl.refinements.begin(), dsl.refinements.end(),
                                       [](const Refinement& refinement) {
                                         return refinement.reads_declared_members_only;
                                       });
  if (fills || drops) {
    tree = v.to_json();
    filled = fill(dsl, v, *tree, drops ? UndeclaredKeys::drop : UndeclaredKeys::keep);
  }
  std::optional<JsonDocument> filled_document;
  bool ok = true;
  for (const auto& refinement : dsl.refinements) {
    std::string message;
    try {
      bool holds = true;
      if (refinement.view_predicate) {
        if (filled && !filled_document) filled_document = JsonDocument::from_json(*tree);
        holds = refinement.view_predicate(filled_document ? filled_document->root() : v);
      } else if (refinement.predicate) {
        if (!tree) tree = v.to_json();
        holds = refinement.predicate(*tree);
      }
      if (holds) continue;
      message = refinement.message.empty() ? "Invalid input" : refinement.message;
    } catch (const std::exception& e) {
      message = std::string("Refinement failed: ") + e.what();
    } catch (...) {
      message = "Refinement failed: unknown exception";
    }
    ok = fail(
        IssueCode::custom, at, false, [&] { return message; }, &refinement.options.path);
    if (sink_ == nullptr) return false;
  }
  return ok;
}

}  // namespace accord::detail
