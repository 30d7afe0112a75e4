#pragma once
// The schema DSL: a value type that reads like the JSON it describes.
//
//   auto refund = object({
//       {"orderId", string().regex(R"(^ORD-\d{6}$)")},
//       {"amount", number().positive()},
//       {"note", string().refine(no_links, "note must not contain links")},
//   }).refine(dates_in_order, "refundDate is before orderDate", {.path = {"refundDate"}});
//
// Every builder returns a new Schema; a Schema is immutable and cheap to copy. Mistakes (min > max,
// a regex that does not compile, an empty enum, a duplicate field, a rule on the wrong kind) are
// collected with their path as the schema is put together; `check()`, `emit()` and `Validator`
// throw SchemaError listing every one of them.

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "accord/json_view.hpp"
#include "accord/path.hpp"
#include "accord/rules.hpp"

namespace accord {

class Schema;

enum class Kind {
  object,
  string,
  number,
  integer,
  boolean,
  null,
  array,
  tuple,
  enumeration,
  literal,
  union_,
  any,
  ref  // a reference to a named definition (see ref() and Schema::named)
};
enum class StringFormat { email, uri, uuid, date, date_time, time };

[[nodiscard]] std::string_view to_string(Kind kind);
[[nodiscard]] std::string_view to_string(StringFormat format);  // the JSON Schema `format` value

// One declarative rule; each has a JSON Schema keyword.
struct Check {
  enum class Op {
    min_length,
    max_length,
    length,  // strings
    regex,
    starts_with,
    ends_with,
    includes,
    format,  // strings
    gt,
    gte,
    lt,
    lte,
    multiple_of,  // numbers
    min_items,
    max_items,  // arrays
  };
  Op op;
  double number = 0;  // bound, length, count or divisor
  std::string text;   // regex source, prefix, suffix or substring
  StringFormat format = StringFormat::email;
};

struct RefineOptions {
  Path path{};           // where the issue points, relative to the refined node
  bool describe = true;  // state the message in the node's description for the model
  // The rule as the model should read it ("Rule: <rule_text>."); empty: the message. For messages
  // that name the violation ("refundDate is before orderDate") rather than the rule.
  std::string rule_text{};
};

using Predicate = std::function<bool(const nlohmann::json&)>;
// A predicate that reads the parsed document in place (accord/json_view.hpp): no tree is built
// for it. The view is valid only during the call.
using ViewPredicate = std::function<bool(JsonView)>;

struct Refinement {
  Predicate predicate;
  std::string message;
  RefineOptions options;
  // When set, the engine calls this instead of `predicate`, with the node's value as a view
  // (defaults filled in and a closed object's undeclared keys left out, as `predicate` sees it).
  ViewPredicate view_predicate{};
  // Set by the typed layer (typed_rules.hpp): the predicate reads only the members an object
  // declares (a struct has no place for another key), so the engine reads the value in place
  // instead of copying it without a closed object's undeclared keys.
  bool reads_declared_members_only = false;
};

struct SchemaProblem {
  Path path;
  std::string message;
};

class SchemaError : public std::invalid_argument {
 public:
  explicit SchemaError(std::vector<SchemaProblem> problems);
  [[nodiscard]] const std::vector<SchemaProblem>& problems() const { return problems_; }

 private:
  std::vector<SchemaProblem> problems_;
};

struct Field;
struct Definition;

// What a Schema is made of; emitters and validators read it, users build it with the functions
// below.
struct SchemaNode {
  Kind kind = Kind::any;
  std::vector<Check> checks;
  std::vector<Refinement> refinements;
  std::vector<Rule> rules;    // object: declarative rules between fields (rules.hpp)
  std::vector<Field> fields;  // object, in the order written
  bool closed = true;         // object: unknown keys are an issue (additionalProperties false)
  // array: [item]; tuple: the positions; union: the options; record (an object with free keys):
  // [the schema of every value]
  std::vector<Schema> elements;
  std::vector<std::string> options;  // enumeration
  nlohmann::json literal;            // literal
  std::string discriminator;         // discriminated union: the tag field
  bool optional = false;             // may be absent from its object
  bool nullable = false;             // null is accepted too
  std::optional<nlohmann::json> default_value;
  std::string description;
  std::vector<nlohmann::json> examples;
  std::string reference;  // ref: the name of the definition it stands for
  // Set by Schema::named: this node is that definition (rules added later are this use's own).
  std::shared_ptr<const Definition> definition;
  std::vector<SchemaProblem>
      problems;  // mistakes found while building, paths relative to this node
};

class Schema {
 public:
  explicit Schema(Kind kind);

  [[nodiscard]] const SchemaNode& node() const { return *node_; }
  [[nodiscard]] Kind kind() const { return node_->kind; }
  // Throws SchemaError when any mistake was made building this schema or its parts.
  const Schema& check() const;

  // Any kind.
  [[nodiscard]] Schema describe(std::string text) const;
  [[nodiscard]] Schema examples(std::vector<nlohmann::json> values) const;
  [[nodiscard]] Schema optional() const;
  [[nodiscard]] Schema nullable() const;
  [[nodiscard]] Schema default_(nlohmann::json value) const;  // implies optional
  [[nodiscard]] Schema refine(Predicate predicate, std::string message,
                              RefineOptions options = {}) const;
  // A refinement given whole: with a `view_predicate`, validation reads the value in place and
  // builds no tree for it (typed refinements are given this way).
  [[nodiscard]] Schema refine(Refinement refinement) const;
  // This schema, as it is now, becomes the definition `name`: `ref(name)` anywhere in the schema
  // that holds it stands for it, so a schema can contain itself (a tree, a thread of comments).
  // Emitted in `$defs` and referenced with `$ref`; rules added after naming belong to this use
  // only, not to the references. Names are letters, digits, `_`, `-` and `.`.
  [[nodiscard]] Schema named(std::string name) const;

  // Strings: lengths in characters (code points); arrays: item counts.
  [[nodiscard]] Schema min(double value) const;  // strings, arrays; numbers: >=
  [[nodiscard]] Schema max(double value) const;  // strings, arrays; numbers: <=
  [[nodiscard]] Schema length(std::size_t value) const;
  [[nodiscard]] Schema nonempty() const;

  // Strings.
  [[nodiscard]] Schema regex(std::string pattern) const;  // ECMA-262 syntax, as in JSON Schema
  [[nodiscard]] Schema starts_with(std::string prefix) const;
  [[nodiscard]] Schema ends_with(std::string suffix) const;
  [[nodiscard]] Schema includes(std::string part) const;
  [[nodiscard]] Schema format(StringFormat format) const;
  [[nodiscard]] Schema email() const { return format(StringFormat::email); }
  [[nodiscard]] Schema uri() const { return format(StringFormat::uri); }
  [[nodiscard]] Schema uuid() const { return format(StringFormat::uuid); }
  [[nodiscard]] Schema date() const { return format(StringFormat::date); }
  [[nodiscard]] Schema date_time() const { return format(StringFormat::date_time); }
  [[nodiscard]] Schema time() const { return format(StringFormat::time); }

  // Numbers and integers.
  [[nodiscard]] Schema gt(double value) const;
  [[nodiscard]] Schema gte(double value) const;
  [[nodiscard]] Schema lt(double value) const;
  [[nodiscard]] Schema lte(double value) const;
  [[nodiscard]] Schema positive() const { return gt(0); }
  [[nodiscard]] Schema negative() const { return lt(0); }
  [[nodiscard]] Schema nonnegative() const { return gte(0); }
  [[nodiscard]] Schema nonpositive() const { return lte(0); }
  [[nodiscard]] Schema multiple_of(double value) const;

  // Objects.
  [[nodiscard]] Schema passthrough() const;  // accept unknown keys
  // A declarative rule between fields (rules.hpp): checked locally, stated in the description,
  // and sent as keywords to providers that can enforce it.
  [[nodiscard]] Schema rule(Comparison comparison, std::string message,
                            RuleOptions options = {}) const;
  [[nodiscard]] Schema rule(Conditional conditional, std::string message,
                            RuleOptions options = {}) const;

  // How the library makes a Schema from a node it built (src/schema/schema.cpp): declared here
  // for the library, complete only there; no part of the API.
  struct Access;

 private:
  explicit Schema(std::shared_ptr<const SchemaNode> node) : node_(std::move(node)) {}
  [[nodiscard]] Schema with(const std::function<void(SchemaNode&)>& change) const;
  [[nodiscard]] Schema with_rule(Rule rule) const;

  std::shared_ptr<const SchemaNode> node_;
};

struct Field {
  std::string name;
  Schema schema;
};

// A named schema (Schema::named): the name and the schema as it was when named.
struct Definition {
  std::string name;
  Schema body;
};

[[nodiscard]] Schema object(std::vector<Field> fields);
[[nodiscard]] Schema string();
[[nodiscard]] Schema number();
[[nodiscard]] Schema integer();
[[nodiscard]] Schema boolean();
[[nodiscard]] Schema null_();
[[nodiscard]] Schema any();
[[nodiscard]] Schema array(Schema items);
// An object whose keys are free and whose every value is a `values` (additionalProperties with a
// schema), as a std::map<std::string, T> is.
[[nodiscard]] Schema record(Schema values);
[[nodiscard]] Schema tuple(std::vector<Schema> positions);
[[nodiscard]] Schema enumeration(std::vector<std::string> options);
[[nodiscard]] Schema literal(nlohmann::json value);
[[nodiscard]] Schema union_(std::vector<Schema> options);
// Each option must be an object whose `tag` field is a literal; the tags must differ.
[[nodiscard]] Schema discriminated_union(std::string tag, std::vector<Schema> options);
// The definition `name` (Schema::named) of the schema this is part of, at this place: the way a
// schema refers to itself or to an enclosing definition. Resolved when the whole schema is
// emitted or validated; a name no part of it defines is a SchemaError with the ref's path.
[[nodiscard]] Schema ref(std::string name);

// `value` with every absent field that has a default filled in, in nested objects, array items and
// record values too. Union options are left alone: which one applies is the validator's call (a
// refinement, run by a validation, is handed the accepted option's defaults too).
// What Zod's parse returns; the typed layer converts this.
[[nodiscard]] nlohmann::json with_defaults(const Schema& schema, nlohmann::json value);

}  // namespace accord
