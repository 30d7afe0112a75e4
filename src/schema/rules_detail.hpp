#pragma once
// What the DSL, the emitter, the JSON Schema loader, the validator and the lowering share about
// declarative rules: field lookups for load-time checks, evaluation, and the words and Report
// text a rule becomes.

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "accord/rules.hpp"
#include "accord/schema.hpp"

namespace accord::detail {

using ojson = nlohmann::ordered_json;

// The JSON types a field may hold, as far as the schema says: "number", "string", "boolean",
// "null", "object", "array". Empty: the schema does not say (any, unconstrained).
using ValueTypes = std::set<std::string>;

// The types of the field at `segments` (relative to the object), or nullopt when the schema has
// no such field.
using FieldLookup = std::function<std::optional<ValueTypes>(const std::vector<std::string>&)>;

// A problem with a rule, and which part of its JSON entry it is about ("rule", "if", "then",
// "path").
struct RuleProblem {
  std::string part;
  std::string message;
};

[[nodiscard]] bool valid_field_path(std::string_view path);
// Assumes valid_field_path.
[[nodiscard]] std::vector<std::string> field_segments(const std::string& path);

// Fields that do not exist, sides that can never be compared, a path option pointing nowhere.
[[nodiscard]] std::vector<RuleProblem> rule_problems(const Rule& rule, const FieldLookup& lookup);

struct SchemaDefinitions;

// The lookups over a DSL object node and over a JSON Schema object node (`root` resolves local
// $refs). A DSL path through a ref() is resolved with `definitions`; without them (while the
// schema is still being built) it is accepted, its type unknown.
[[nodiscard]] FieldLookup dsl_lookup(const SchemaNode& object,
                                     const SchemaDefinitions* definitions = nullptr);
// rule_problems() over a DSL object, each worded with the rule: "rule `a < b`: b is not a field
// of this object".
[[nodiscard]] std::vector<std::string> dsl_rule_problems(const Rule& rule, const SchemaNode& object,
                                                         const SchemaDefinitions* definitions);
[[nodiscard]] FieldLookup json_lookup(const ojson& object_schema, const ojson& root);

// Parses and checks every entry of an `x-accord-rules` value found on `object_schema`; problems
// are added with paths under `at` (the keyword's own path).
[[nodiscard]] std::vector<Rule> parse_rules(const ojson& rules, const ojson& object_schema,
                                            const ojson& root, const Path& at,
                                            std::vector<SchemaProblem>& problems);

// Whether the rule holds for `object`; an absent field takes the `default` its property declares
// in `object_schema` (may be null; its local $refs resolve in `root`), as Zod's refinements see
// defaults filled in.
[[nodiscard]] bool rule_holds(const Rule& rule, const nlohmann::json& object,
                              const ojson* object_schema, const ojson& root);

// Where a failed rule's issue points, relative to its object.
[[nodiscard]] Path issue_path(const Rule& rule);

// How the comparison of two JSON values turns out: true, false, or not judged (nullopt) when the
// sides cannot be ordered.
[[nodiscard]] std::optional<bool> compare_values(const nlohmann::json& left, Op op,
                                                 const nlohmann::json& right);
[[nodiscard]] Op negated(Op op);

// The sentence for the description ("Rule: refundDate >= orderDate."), the Report's rule text
// ("rule refundDate >= orderDate") and emit's reason for the fate.
[[nodiscard]] std::string rule_sentence(const Rule& rule);
[[nodiscard]] std::string rule_report_text(const Rule& rule);
[[nodiscard]] std::string rule_why(const Rule& rule);

// True when any node of the document carries `x-accord-rules`.
[[nodiscard]] bool has_rules(const ojson& document);

}  // namespace accord::detail
