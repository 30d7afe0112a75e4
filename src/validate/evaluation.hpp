#pragma once
// One evaluation of a value against the engine's nodes (validate/node.hpp). With a sink, every
// issue is worded and collected with Zod's abort rules; without one (the fast path) the first
// failure ends it. Run's steps for each keyword family are defined in that family's file
// (validate/keywords/), beside its compile step and its wording; this header holds what they
// share.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/json_view.hpp"
#include "core/member_values.hpp"
#include "schema/definitions_in_scope.hpp"
#include "validate/node.hpp"
#include "validate/quick_bounds.hpp"

namespace accord::detail {

// Schema hops (applicators and $refs) for one value; past it a recursive schema is cut off with
// an issue instead of exhausting the stack. Each hop is a few frames: under AddressSanitizer
// about 10 KB, so 1,000 hops overflowed an 8 MiB stack; 400 leaves half of it free.
inline constexpr std::size_t kMaxEvalDepth = 400;

// Where in the value a check is, as a chain up to the root built on the stack; a Path is made
// only when an issue is reported.
struct Link {
  const Link* up;
  std::string_view key;  // a member's name, when `named`
  std::size_t index;     // an array index, otherwise
  bool named;

  [[nodiscard]] static Link field(const Link* up, std::string_view key) {
    return Link{up, key, 0, true};
  }
  [[nodiscard]] static Link item(const Link* up, std::size_t index) {
    return Link{up, {}, index, false};
  }
};

[[nodiscard]] Path to_path(const Link* at);

// The issues of one evaluation, in the order found: kept as the Issues the caller gets, so a
// valid value allocates nothing and an invalid one's issues are moved out whole.
struct Sink {
  Issues found;                // at most kMaxIssues
  std::size_t count = 0;       // every issue, the ones past the cap included
  std::size_t aborting = 0;    // aborting issues among them (Zod's `continue: false`: they stop
                               // the refinements of enclosing nodes)
  std::size_t undeclared = 0;  // unrecognized_keys issues among them: a refinement's copy of the
                               // value then drops those keys, as Zod's result does

  void absorb(Sink&& other) {
    count += other.count;
    aborting += other.aborting;
    undeclared += other.undeclared;
    for (auto& issue : other.found) {
      if (found.size() < kMaxIssues) found.push_back(std::move(issue));
    }
  }
};

// What in-place applicators evaluated of the value (for unevaluatedProperties/Items). A property
// is its value's place on the tape.
struct Seen {
  bool all_properties = false;
  std::vector<std::uint32_t> properties;
  std::size_t items = 0;
  bool all_items = false;
  std::vector<std::size_t> item_indices;

  void merge(const Seen& other) {
    all_properties = all_properties || other.all_properties;
    properties.insert(properties.end(), other.properties.begin(), other.properties.end());
    items = std::max(items, other.items);
    all_items = all_items || other.all_items;
    item_indices.insert(item_indices.end(), other.item_indices.begin(), other.item_indices.end());
  }
  [[nodiscard]] bool has_property(JsonView value) const {
    return all_properties ||
           std::find(properties.begin(), properties.end(), value.index()) != properties.end();
  }
  [[nodiscard]] bool has_item(std::size_t index) const {
    return all_items || index < items ||
           std::find(item_indices.begin(), item_indices.end(), index) != item_indices.end();
  }
};

// Whether the node asks only for a type (or a type and one of some strings) and the value has it
// (most nodes, most values), decided without a call; anything else goes to Run::value_kind_ok,
// which decides and words the issue.
[[gnu::always_inline]] inline bool kind_plainly_ok(const Node& n, const JsonView* v) {
  if (n.const_source != nullptr || v == nullptr) return false;
  if (n.enum_source != nullptr &&
      !(n.enum_strings && v->is_string() && n.enum_strings->contains(v->get_string()))) {
    return false;
  }
  // One type, as most nodes ask for: the value's kind alone decides.
  if (n.types == kString) return v->is_string();
  if (n.types == kObject) return v->is_object();
  if (n.types == kNumber) return v->is_number();
  return n.types == 0 || type_matches(n.types, *v);
}

// Whether the DSL node of a value (if any) carries C++ refinements.
[[nodiscard]] inline bool has_refinements(const SchemaNode* dsl) {
  return dsl != nullptr && !dsl->refinements.empty();
}

// The keys of an object that no keyword allows, gathered straight into the words of their issue
// (`"a", "b"`), with no list of keys kept beside them.
struct ExtraKeys {
  std::string listed;
  std::size_t count = 0;

  void add(std::string_view key) {
    listed += count++ == 0 ? "\"" : ", \"";
    listed += key;
    listed += '"';
  }
};

// Zod's name for the kind of value received ("undefined" when absent).
[[nodiscard]] std::string received(const JsonView* value);
[[nodiscard]] std::string plural(std::uint64_t n, const char* one, const char* many);
// The DSL node of field `name` of an object node (`hint`: where the field usually is, as emit()
// writes properties in the order of the fields), or of element `index` of a `kind` node.
[[nodiscard]] const SchemaNode* field_node(const SchemaNode* node, std::string_view name,
                                           std::size_t hint = std::string::npos);
[[nodiscard]] const SchemaNode* element_node(const SchemaNode* node, Kind kind, std::size_t index);

class Run {
 public:
  Run(const Engine::Data& data, Sink* sink)
      : d_(data), sink_(sink), definitions_in_scope_(data.definitions) {}

  bool node(NodeId id, const JsonView* v, const Link* at, const SchemaNode* dsl, Seen* seen);
  // node() for a member or an item, with its leaf shortcut inlined: most members and items are
  // leaves, judged without a call to node(); a leaf with no refinement and no unit (a plain
  // string, a string enum), or with a value inside its QuickBounds, is judged here whole.
  [[gnu::always_inline]] bool visit(NodeId id, const JsonView* v, const Link* at,
                                    const SchemaNode* dsl) {
    return visit(d_.nodes[id], id, v, at, dsl, has_refinements(dsl));
  }
  // The same with node `id` and has_refinements(dsl) given (a property's PropertyStep holds both).
  [[gnu::always_inline]] bool visit(const Node& n, NodeId id, const JsonView* v, const Link* at,
                                    const SchemaNode* dsl, bool refined) {
    if (judged_as_leaf(n, v)) {
      if (!refined) {
        // leaf()'s result when there is nothing but the kind to check.
        if (n.units.empty()) return kind_plainly_ok(n, v) || value_kind_ok(n, v, at);
        // A value inside the leaf's bounds passes its units: they need not run one by one. Any
        // other is checked again by the units (a failing format twice, an integer past 2^53 read
        // twice by number_of): only invalid or huge values pay that.
        if (n.quick_bounds != QuickBounds::none && kind_plainly_ok(n, v) &&
            within_quick_bounds(n, *v)) {
          return true;
        }
      }
      return leaf(n, *v, at, dsl);
    }
    return node(id, v, at, dsl, nullptr);
  }

 private:
  // A present value of a leaf node (Node::leaf) is judged by leaf(), without node()'s steps for
  // sub-nodes, wrappers, the dynamic scope and what applicators saw (a leaf has none of them);
  // at the depth limit node() stops it as it stops any node.
  [[nodiscard]] bool judged_as_leaf(const Node& n, const JsonView* v) const {
    return n.leaf && v != nullptr && depth_ < kMaxEvalDepth;
  }
  [[nodiscard]] std::size_t aborts() const { return sink_ != nullptr ? sink_->aborting : 0; }
  [[nodiscard]] std::size_t issued() const { return sink_ != nullptr ? sink_->count : 0; }
  [[nodiscard]] std::size_t undeclared() const { return sink_ != nullptr ? sink_->undeclared : 0; }
  // Where the issues stood before a node's checks: its refinements run only when no aborting
  // issue came after, and drop undeclared keys only when some were reported after (below it).
  struct Mark {
    std::size_t aborting = 0;
    std::size_t undeclared = 0;
  };
  [[nodiscard]] Mark mark() const {
    return sink_ != nullptr ? Mark{sink_->aborting, sink_->undeclared} : Mark{};
  }

  // Records an issue (the message is only built when there is a sink); always "not ok".
  template <class Words>
  bool fail(IssueCode code, const Link* at, bool aborting, Words&& words,
            const Path* tail = nullptr) {
    if (sink_ == nullptr) return false;
    ++sink_->count;
    if (aborting) ++sink_->aborting;
    if (sink_->found.size() < kMaxIssues) record_worded(code, at, words, tail);
    return false;
  }
  // The words are built out of line: a keyword's check stays a few instructions with no
  // std::string in its frame, as most values pass it.
  template <class Words>
  [[gnu::noinline, gnu::cold]] void record_worded(IssueCode code, const Link* at, Words& words,
                                                  const Path* tail) {
    record(code, at, words(), tail);
  }
  // Keeps one issue in the sink (out of line: only a failing value with a sink gets here).
  void record(IssueCode code, const Link* at, std::string message, const Path* tail);

  // A required property that is absent. Asked for by a condition (a `then`, an `else`, a
  // dependentRequired), the message names it and the condition; asked for plainly, it is Zod's.
  bool missing(const Link* at);
  template <class When>
  bool missing_when(const Link* at, const When& when) {
    return fail(IssueCode::invalid_type, at, true,
                [&] { return json(std::string(at->key)).dump() + " is required " + when(); });
  }
  // Whether `text` matches, within this run's backtracking budget; nullopt when the budget was
  // spent before a backtracking pattern could answer (the value is then not passed unchecked).
  std::optional<bool> matches(const Regex& regex, std::string_view text);
  bool budget_spent(const Link* at, const std::string& what);
  // Evaluates a `then` or `else` with `condition` (its reason in words) in force.
  bool under_condition(NodeId id, JsonView v, const Link* at, Seen* seen,
                       const std::string& condition);
  // Evaluates without recording issues (for not, if, contains, propertyNames).
  bool quietly(NodeId id, const JsonView* v, const Link* at, Seen* seen);
  bool body(const Node& n, const JsonView* v, const Link* at, const SchemaNode* dsl, Seen* seen);
  // The steps of a wrapped node (Node::wrapped) before its kind check: false when they judged
  // the value whole (`ok` is then the verdict).
  bool wrapper_steps(const Node& n, const JsonView* v, const Link* at, const SchemaNode*& dsl,
                     Seen* seen, bool& ok, Seen*& track, std::optional<Seen>& local);
  // The node's units, then its unevaluated* keywords (body's steps between the unions and the
  // refinements); `property_values` as for units().
  [[gnu::always_inline]] inline bool own_steps(const Node& n, JsonView v, const Link* at,
                                               const SchemaNode* dsl, Seen* seen, Seen* track,
                                               std::optional<Seen>& local,
                                               MemberValues* property_values);
  // own_steps, then the node's x-accord-rules on the values its object keywords found (unless an
  // aborting issue came since `start`). Out of line so that only a node with rules carries the
  // MemberValues buffer in its frame: body() recurses once per nesting level.
  [[gnu::noinline]] bool ruled_steps(const Node& n, JsonView v, const Link* at,
                                     const SchemaNode* dsl, Seen* seen, Seen* track,
                                     std::optional<Seen>& local, std::size_t start);
  // A leaf node (Node::leaf) on a present value: its kind, its units, its refinements.
  bool leaf(const Node& n, JsonView v, const Link* at, const SchemaNode* dsl);
  // The node's units in order, each by its family's step for the value's kind (chosen once).
  // `property_values`, when given, receives the values of the node's declared properties when it
  // has at most MemberValues::kCapacity.
  [[gnu::always_inline]] inline bool units(const Node& n, JsonView v, const Link* at,
                                           const SchemaNode* dsl, Seen* seen,
                                           MemberValues* property_values = nullptr);
  template <class Check>
  [[gnu::always_inline]] inline bool each_unit(const Node& n, JsonView v, const Link* at,
                                               Seen* seen, const Check& check);
  // The node's refinements hold, or do not run: no DSL node, a null a nullable node lets
  // through, or an aborting issue since `before`.
  // `n` is the node the value is judged by: its usual DSL node's defaults are known.
  [[gnu::always_inline]] inline bool refinements_hold(const Node& n, JsonView v, const Link* at,
                                                      const SchemaNode* dsl, Mark before);
  // Zod runs refinements after the node's own checks; the predicate sees defaults filled in
  // (looked for only when `fills`: `dsl` has a field with a default at or below it) and
  // undeclared keys dropped (looked for only when `undeclared_below`: the node's own checks
  // reported some).
  bool refine(const SchemaNode& dsl, JsonView v, const Link* at, bool fills, bool undeclared_below);
  // Fills in `tree` (the copy of `v`) the defaults below `dsl`, a union's those of the option
  // noted for it, and drops the undeclared keys when asked; whether the tree changed. Out of
  // line, so that refine()'s frame holds no std::function.
  [[gnu::noinline]] bool fill(const SchemaNode& dsl, JsonView v, json& tree,
                              UndeclaredKeys undeclared) const;
  // The union `dsl` accepted `v` with its option `option` (or handed on its result): noted when a
  // refinement above may fill that option's defaults in (FieldDefaults::unions_to_note), or when
  // the option, failing, reported undeclared keys a refinement above drops, for refine().
  void note_accepted(const SchemaNode* dsl, const JsonView* v, std::size_t option,
                     bool undeclared_keys = false) {
    if (v != nullptr && dsl != nullptr &&
        (undeclared_keys ||
         (!d_.defaults.unions_to_note.empty() && d_.defaults.unions_to_note.contains(dsl)))) {
      note(*dsl, v->index(), option);
    }
  }
  // note_accepted()'s rare half, out of line: the table is made by the first note.
  [[gnu::noinline]] void note(const SchemaNode& union_node, std::uint32_t index,
                              std::size_t option);

  // keywords/type.cpp: enum, const and type, checked first (a failure ends the node)
  bool value_kind_ok(const Node& n, const JsonView* v, const Link* at);
  // keywords/references.cpp: the node a $dynamicRef lands on in this run's dynamic scope
  [[nodiscard]] NodeId dynamic_target(const Node& n) const;
  // keywords/applicators.cpp: anyOf, oneOf, allOf, not, if/then/else
  bool unions(const Node& n, const JsonView* v, const Link* at, const SchemaNode* dsl, Seen* seen);
  bool union_of(const std::vector<NodeId>& options, const JsonView* v, const Link* at,
                const SchemaNode* dsl, Seen* seen, bool exclusive);
  // A DSL union of an option and null (`dsl`, compiled as the nullable wrapper `n`) on a value
  // that is not null: the option's verdict, worded as union_of words a union none of whose
  // options fits.
  bool option_beside_null(const Node& n, const JsonView* v, const Link* at, const SchemaNode* dsl,
                          Seen* seen);
  // No option of a union fits: Zod reports the issues of the one option that did not abort
  // (`only_unaborted`, when there is one) as they are, else one invalid_union at the union.
  bool report_no_option_fits(Sink* only_unaborted, const Link* at);
  bool discriminated(const Node& n, const JsonView* v, const Link* at, const SchemaNode* dsl,
                     Seen* seen);
  bool applicator_unit(Unit unit, const Node& n, JsonView v, const Link* at, Seen* seen);
  bool conditional(const Node& n, JsonView v, const Link* at, Seen* seen);
  // keywords/string.cpp: minLength, maxLength, format, pattern
  bool string_unit(Unit unit, const Node& n, std::string_view text, const Link* at,
                   bool format_failed);
  // keywords/numeric.cpp: minimum, maximum, their exclusive forms, multipleOf; `value` is
  // number_of(v), read once for all of the node's units
  bool number_unit(Unit unit, const Node& n, JsonView v, const NumberValue& value, const Link* at);
  // keywords/array.cpp: items, prefixItems, minItems, maxItems, uniqueItems, contains
  bool tuple_length_ok(const Node& n, JsonView v, const Link* at);
  bool array_unit(Unit unit, const Node& n, JsonView v, const Link* at, const SchemaNode* dsl,
                  Seen* seen);
  bool contains(const Node& n, JsonView v, const Link* at, Seen* seen);
  // keywords/object.cpp: properties, required, additionalProperties, patternProperties,
  // propertyNames, minProperties, maxProperties, dependentRequired, dependentSchemas
  // (object_keywords: Unit::object, i.e. properties, patternProperties, additionalProperties and
  // required; object_unit: the other units)
  bool object_unit(Unit unit, const Node& n, JsonView v, const Link* at, Seen* seen);
  bool object_keywords(const Node& n, JsonView object, const Link* at, const SchemaNode* dsl,
                       Seen* seen, MemberValues* property_values);
  bool unrecognized(const ExtraKeys& extra, const Link* at);
  // keywords/unevaluated.cpp: unevaluatedItems, unevaluatedProperties
  bool unevaluated(const Node& n, JsonView v, const Link* at, Seen& seen);
  // keywords/accord_rules.cpp: x-accord-rules; `property_values` as the object keywords found
  // them, when they did
  bool accord_rules(const Node& n, JsonView v, const Link* at, const MemberValues& property_values);

  const Engine::Data& d_;
  Sink* sink_;
  const std::string* condition_ = nullptr;  // set inside a then/else: why its properties are due
  std::vector<std::uint32_t> scope_;        // dynamic scope: the resources entered, outermost first
  std::size_t depth_ = 0;
  BacktrackingBudget budget_;  // shared by every PCRE2 search of this evaluation
  // This schema's definitions, for typed predicates' readings (schema/definitions_in_scope.hpp),
  // in scope while the evaluation runs: an empty set too, so that a validation run inside a
  // predicate does not see the outer schema's. Installed per run, not at the first refinement:
  // the check in every refinement cost more than the two stores.
  DefinitionsInScope definitions_in_scope_;
  // The option each noted union accepted, by union and the value's tape index (see
  // note_accepted()): made by the first note, so that a run of a schema without such a union
  // makes nothing, and released out of line (the inlined teardown is a null check).
  struct NotedOptions;
  struct ReleaseNotedOptions {
    void operator()(NotedOptions* noted) const;
  };
  std::unique_ptr<NotedOptions, ReleaseNotedOptions> noted_options_;
};

}  // namespace accord::detail
