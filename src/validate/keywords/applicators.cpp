// The applicators that combine schemas in place: `allOf`, `anyOf` (emit()'s nullable wrapper
// among them), `oneOf` (a discriminated union when a tag tells the options apart), `not`, and
// `if`/`then`/`else`.

#include "core/json_number.hpp"
#include "text/condition_words.hpp"
#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {
namespace {

// emit()'s nullable wrapper: anyOf [X, {"type":"null"}] (either order).
bool nullable_pair(const ojson& options) {
  if (!options.is_array() || options.size() != 2) return false;
  const ojson null_only = {{"type", "null"}};
  return options[0] == null_only || options[1] == null_only;
}

constexpr std::string_view kMatchedNot = R"(Invalid input: must not match the schema in "not")";

}  // namespace

void compile_combination(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at) {
  auto options = k.list(value, key, at, true);
  if (key == "allOf") {
    k.node().all_of = std::move(options);
    k.add_unit(Unit::all_of);
  } else if (key == "oneOf") {
    k.node().one_of = std::move(options);
  } else if (nullable_pair(value)) {
    const bool first_is_null = value[0] == ojson{{"type", "null"}};
    k.node().nullable_option = first_is_null ? 1 : 0;
    k.node().nullable_inner = options.empty() ? kNone : options[k.node().nullable_option];
  } else {
    k.node().any_of = std::move(options);
  }
}

void compile_not(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                 const Path& at) {
  k.node().not_ = k.sub(value, at);
  k.add_unit(Unit::not_);
}

void compile_conditional(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at) {
  const NodeId target = k.sub(value, at);
  Node& node = k.node();
  (key == "if" ? node.if_ : key == "then" ? node.then_ : node.else_) = target;
  if (key == "if") {
    const auto words = branch_words(value, Mood::condition);
    node.when_then = "when " + words;
    node.when_else = "unless " + words;
  }
  k.add_unit(Unit::conditional);
}

// anyOf (other than the nullable wrapper) and oneOf, as z.union and z.discriminatedUnion.
bool Run::unions(const Node& n, const JsonView* v, const Link* at, const SchemaNode* dsl,
                 Seen* seen) {
  bool ok = true;
  if (!n.any_of.empty()) ok = union_of(n.any_of, v, at, dsl, seen, false);
  if (!ok && sink_ == nullptr) return false;
  if (!n.one_of.empty()) {
    ok = (n.discriminator ? discriminated(n, v, at, dsl, seen)
                          : union_of(n.one_of, v, at, dsl, seen, true)) &&
         ok;
  }
  return ok;
}

bool Run::union_of(const std::vector<NodeId>& options, const JsonView* v, const Link* at,
                   const SchemaNode* dsl, Seen* seen, bool exclusive) {
  if (sink_ == nullptr) {
    std::size_t matches = 0;
    for (std::size_t i = 0; i < options.size(); ++i) {
      Seen branch;
      if (!node(options[i], v, at, element_node(dsl, Kind::union_, i),
                seen != nullptr ? &branch : nullptr)) {
        continue;
      }
      if (++matches == 1) note_accepted(dsl, v, i);
      if (seen != nullptr) seen->merge(branch);
      if (!exclusive && seen == nullptr) return true;
      if (exclusive && matches > 1) return false;
    }
    return exclusive ? matches == 1 : matches > 0;
  }
  std::vector<Sink> results(options.size());
  std::size_t matches = 0;
  Sink* saved = sink_;
  for (std::size_t i = 0; i < options.size(); ++i) {
    Seen branch;
    sink_ = &results[i];
    const bool matched = node(options[i], v, at, element_node(dsl, Kind::union_, i),
                              seen != nullptr ? &branch : nullptr);
    sink_ = saved;
    if (!matched) continue;
    if (++matches == 1) note_accepted(dsl, v, i);
    if (seen != nullptr) seen->merge(branch);
    if (!exclusive && seen == nullptr) return true;
  }
  if (exclusive ? matches == 1 : matches > 0) return true;
  if (matches == 0) {
    std::size_t only = 0;
    std::size_t not_aborted = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (results[i].aborting == 0) {
        ++not_aborted;
        only = i;
      }
    }
    if (not_aborted == 1) {
      // Zod returns that option's result, its defaults in and undeclared keys out, to a
      // refinement above.
      note_accepted(dsl, v, only, results[only].undeclared != 0);
      return report_no_option_fits(&results[only], at);
    }
  }
  return report_no_option_fits(nullptr, at);
}

bool Run::option_beside_null(const Node& n, const JsonView* v, const Link* at,
                             const SchemaNode* dsl, Seen* seen) {
  const SchemaNode* option = element_node(dsl, Kind::union_, n.nullable_option);
  if (sink_ == nullptr) return node(n.nullable_inner, v, at, option, seen);
  Sink result;
  Sink* saved = sink_;
  sink_ = &result;
  const bool fits = node(n.nullable_inner, v, at, option, seen);
  sink_ = saved;
  // The null option's issue (an invalid_type) always aborts.
  return fits || report_no_option_fits(result.aborting == 0 ? &result : nullptr, at);
}

bool Run::report_no_option_fits(Sink* only_unaborted, const Link* at) {
  if (only_unaborted != nullptr) {
    sink_->absorb(std::move(*only_unaborted));
    return false;
  }
  return fail(IssueCode::invalid_union, at, true, [] { return std::string("Invalid input"); });
}

bool Run::discriminated(const Node& n, const JsonView* v, const Link* at, const SchemaNode* dsl,
                        Seen* seen) {
  if (v == nullptr || !v->is_object()) {
    return fail(IssueCode::invalid_type, at, true,
                [&] { return "Invalid input: expected object, received " + received(v); });
  }
  if (const auto tag = v->find(*n.discriminator)) {
    for (std::size_t i = 0; i < n.one_of.size(); ++i) {
      if (json_equal(*tag, n.tag_values[i])) {
        // The tagged option's result is the union's, failing too (Zod hands it on, defaults in
        // and undeclared keys out).
        const std::size_t undeclared_before = undeclared();
        const bool ok = node(n.one_of[i], v, at, element_node(dsl, Kind::union_, i), seen);
        note_accepted(dsl, v, i, undeclared() != undeclared_before);
        return ok;
      }
    }
  }
  // Zod points a tag that matches no option at the tag itself.
  const Link tag = Link::field(at, *n.discriminator);
  return fail(IssueCode::invalid_union, &tag, true, [] { return std::string("Invalid input"); });
}

bool Run::applicator_unit(Unit unit, const Node& n, JsonView v, const Link* at, Seen* seen) {
  if (unit == Unit::all_of) {
    bool ok = true;
    for (const NodeId branch : n.all_of) {
      ok = node(branch, &v, at, nullptr, seen) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
    return ok;
  }
  if (unit == Unit::not_) {
    if (!quietly(n.not_, &v, at, nullptr)) return true;
    return fail(IssueCode::custom, at, false, [] { return std::string(kMatchedNot); });
  }
  return conditional(n, v, at, seen);
}

bool Run::conditional(const Node& n, JsonView v, const Link* at, Seen* seen) {
  if (n.if_ == kNone) return true;
  Seen condition;
  if (quietly(n.if_, &v, at, seen != nullptr ? &condition : nullptr)) {
    if (seen != nullptr) seen->merge(condition);
    return n.then_ == kNone || under_condition(n.then_, v, at, seen, n.when_then);
  }
  return n.else_ == kNone || under_condition(n.else_, v, at, seen, n.when_else);
}

}  // namespace accord::detail
