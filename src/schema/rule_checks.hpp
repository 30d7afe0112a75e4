#pragma once
// Whether a declarative rule fits the object it sits on, checked when the schema is built or
// loaded: the fields it names exist, and the types the schema gives them can be compared. The
// DSL builder, emit() and the JSON Schema loader share these checks.

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

}  // namespace accord::detail
