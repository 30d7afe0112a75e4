#include "accord/schema.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_set>

#include "accord/typed_value.hpp"

#include "schema/declared_field.hpp"
#include "schema/definitions_in_scope.hpp"
#include "schema/rule_checks.hpp"
#include "schema/schema_definitions.hpp"
#include "schema/schema_text.hpp"
#include "text/ecma_regex.hpp"

namespace accord {
namespace {

using detail::number_text;
using detail::rule_text;

void add_problem(SchemaNode& node, std::string message, Path path = {}) {
  node.problems.push_back({std::move(path), std::move(message)});
}

// A child's mistakes belong to its container too, under the child's position.
void adopt_problems(SchemaNode& node, const Schema& child, const PathSegment& segment) {
  for (const auto& problem : child.node().problems) {
    node.problems.push_back({Path{segment} + problem.path, problem.message});
  }
}

bool is_numeric(Kind kind) {
  return kind == Kind::number || kind == Kind::integer;
}

// The kinds a rule applies to, in words, and whether `kind` is one of them.
struct Applies {
  bool strings = false;
  bool numbers = false;
  bool arrays = false;

  [[nodiscard]] bool to(Kind kind) const {
    return (strings && kind == Kind::string) || (numbers && is_numeric(kind)) ||
           (arrays && kind == Kind::array);
  }
  [[nodiscard]] std::string words() const {
    std::vector<std::string> parts;
    if (strings) parts.emplace_back("strings");
    if (arrays) parts.emplace_back("arrays");
    if (numbers) parts.emplace_back("numbers");
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i > 0) out += i + 1 == parts.size() ? " and " : ", ";
      out += parts[i];
    }
    return out;
  }
};

void wrong_kind(SchemaNode& node, std::string_view rule, Applies applies) {
  add_problem(node, std::string(rule) + " applies to " + applies.words() + ", not " +
                        std::string(to_string(node.kind)));
}

// The DSL reads `.regex()` with the validator's ECMA-262 front end, so both agree on every
// pattern.
std::optional<std::string> regex_problem(const std::string& pattern) {
  const auto compiled = detail::compile_ecma_regex(pattern);
  if (!compiled.error.empty()) return "regex /" + pattern + "/ does not compile: " + compiled.error;
  return std::nullopt;
}

// Bounds a check puts on a length, a count or a number: {value, exclusive}.
struct Bound {
  double value;
  bool exclusive;
};

std::optional<Bound> lower_bound(const Check& check) {
  switch (check.op) {
    case Check::Op::min_length:
    case Check::Op::length:
    case Check::Op::min_items:
    case Check::Op::gte:
      return Bound{check.number, false};
    case Check::Op::gt:
      return Bound{check.number, true};
    default:
      return std::nullopt;
  }
}

std::optional<Bound> upper_bound(const Check& check) {
  switch (check.op) {
    case Check::Op::max_length:
    case Check::Op::length:
    case Check::Op::max_items:
    case Check::Op::lte:
      return Bound{check.number, false};
    case Check::Op::lt:
      return Bound{check.number, true};
    default:
      return std::nullopt;
  }
}

// Reports a lower bound of one check that no value can meet together with an upper of another.
void check_range(SchemaNode& node, const Check& low, const Check& high) {
  auto lo = lower_bound(low);
  auto hi = upper_bound(high);
  if (!lo || !hi) return;
  if (lo->value > hi->value) {
    add_problem(node, rule_text(low) + " is greater than " + rule_text(high));
  } else if (lo->value == hi->value && (lo->exclusive || hi->exclusive)) {
    add_problem(node, rule_text(low) + " and " + rule_text(high) + " leave no valid value");
  }
}

bool is_count(Check::Op op) {
  return op == Check::Op::min_length || op == Check::Op::max_length || op == Check::Op::length ||
         op == Check::Op::min_items || op == Check::Op::max_items;
}

// Adds a check after checking that it fits the node; a misfit is recorded, not added.
void add_check(SchemaNode& node, Check check, std::string_view rule, Applies applies) {
  if (!applies.to(node.kind)) {
    wrong_kind(node, rule, applies);
    return;
  }
  const bool numeric_rule = !is_count(check.op) && check.op != Check::Op::regex &&
                            check.op != Check::Op::starts_with &&
                            check.op != Check::Op::ends_with && check.op != Check::Op::includes &&
                            check.op != Check::Op::format;
  if (numeric_rule && !std::isfinite(check.number)) {
    add_problem(node, std::string(rule) + " needs a finite number");
    return;
  }
  if (is_count(check.op) && (!std::isfinite(check.number) || check.number < 0 ||
                             std::trunc(check.number) != check.number)) {
    add_problem(node, rule_text(check) + ": a length or count must be a whole number >= 0");
    return;
  }
  if (check.op == Check::Op::multiple_of && check.number <= 0) {
    add_problem(node, "multiple_of must be positive, got " + number_text(check.number));
    return;
  }
  if (check.op == Check::Op::regex) {
    if (auto problem = regex_problem(check.text)) add_problem(node, *problem);
  }
  if (check.op == Check::Op::format) {
    for (const auto& other : node.checks) {
      if (other.op == Check::Op::format && other.format != check.format) {
        add_problem(node, "format set twice: " + std::string(to_string(other.format)) + ", then " +
                              std::string(to_string(check.format)));
      }
    }
  }
  for (const auto& other : node.checks) {
    check_range(node, other, check);
    check_range(node, check, other);
  }
  node.checks.push_back(std::move(check));
}

// Basic check that a default can be a value of the node: its JSON type, enum and literal values.
std::optional<std::string> default_problem(const SchemaNode& node, const nlohmann::json& value) {
  if (value.is_null() && node.nullable) return std::nullopt;
  const std::string shown = "default " + value.dump();
  auto is_not = [&](std::string_view what) { return shown + " is not " + std::string(what); };
  switch (node.kind) {
    case Kind::object:
      if (!value.is_object()) return is_not("an object");
      break;
    case Kind::string:
      if (!value.is_string()) return is_not("a string");
      break;
    case Kind::number:
      if (!value.is_number()) return is_not("a number");
      break;
    case Kind::integer:
      if (!value.is_number() || std::trunc(value.get<double>()) != value.get<double>()) {
        return is_not("an integer");
      }
      break;
    case Kind::boolean:
      if (!value.is_boolean()) return is_not("a boolean");
      break;
    case Kind::null:
      if (!value.is_null()) return is_not("null");
      break;
    case Kind::array:
    case Kind::tuple:
      if (!value.is_array()) return is_not("an array");
      break;
    case Kind::enumeration:
      if (!value.is_string() || std::find(node.options.begin(), node.options.end(),
                                          value.get<std::string>()) == node.options.end()) {
        return is_not("one of the enum options");
      }
      break;
    case Kind::literal:
      if (value != node.literal) return is_not("the literal " + node.literal.dump());
      break;
    case Kind::union_:
    case Kind::any:
    case Kind::ref:
      break;
  }
  return std::nullopt;
}

Schema of_kind(Kind kind) {
  return Schema(kind);
}

}  // namespace

std::string_view to_string(Kind kind) {
  switch (kind) {
    case Kind::object:
      return "object";
    case Kind::string:
      return "string";
    case Kind::number:
      return "number";
    case Kind::integer:
      return "integer";
    case Kind::boolean:
      return "boolean";
    case Kind::null:
      return "null";
    case Kind::array:
      return "array";
    case Kind::tuple:
      return "tuple";
    case Kind::enumeration:
      return "enum";
    case Kind::literal:
      return "literal";
    case Kind::union_:
      return "union";
    case Kind::any:
      return "any";
    case Kind::ref:
      return "ref";
  }
  return "?";
}

std::string_view to_string(StringFormat format) {
  switch (format) {
    case StringFormat::email:
      return "email";
    case StringFormat::uri:
      return "uri";
    case StringFormat::uuid:
      return "uuid";
    case StringFormat::date:
      return "date";
    case StringFormat::date_time:
      return "date-time";
    case StringFormat::time:
      return "time";
  }
  return "?";
}

namespace {

std::string error_text(const std::vector<SchemaProblem>& problems) {
  std::string out = "invalid schema: ";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (i > 0) out += "\n  ";
    const auto where = problems[i].path.to_string();
    if (!where.empty()) out += "at " + where + ": ";
    out += problems[i].message;
  }
  if (problems.empty()) out += "no problems listed";
  return out;
}

}  // namespace

SchemaError::SchemaError(std::vector<SchemaProblem> problems)
    : std::invalid_argument(error_text(problems)), problems_(std::move(problems)) {}

Schema::Schema(Kind kind) : node_(std::make_shared<SchemaNode>(SchemaNode{.kind = kind})) {}

const Schema& Schema::check() const {
  if (!node_->problems.empty()) throw SchemaError(node_->problems);
  return *this;
}

// A Schema straight from a node, past the builders that record its problems: this file only.
struct Schema::Access {
  static Schema make(SchemaNode node) {
    return Schema(std::make_shared<const SchemaNode>(std::move(node)));
  }
};

namespace {
Schema make_schema(SchemaNode node) {
  return Schema::Access::make(std::move(node));
}
}  // namespace

Schema Schema::with(const std::function<void(SchemaNode&)>& change) const {
  SchemaNode copy = *node_;
  change(copy);
  return make_schema(std::move(copy));
}

Schema Schema::describe(std::string text) const {
  return with([&](SchemaNode& n) { n.description = std::move(text); });
}

Schema Schema::examples(std::vector<nlohmann::json> values) const {
  return with([&](SchemaNode& n) { n.examples = std::move(values); });
}

Schema Schema::optional() const {
  return with([](SchemaNode& n) { n.optional = true; });
}

Schema Schema::nullable() const {
  return with([](SchemaNode& n) { n.nullable = true; });
}

Schema Schema::default_(nlohmann::json value) const {
  return with([&](SchemaNode& n) {
    if (auto problem = default_problem(n, value)) add_problem(n, *problem);
    n.default_value = std::move(value);
    n.optional = true;
  });
}

Schema Schema::refine(Predicate predicate, std::string message, RefineOptions options) const {
  return refine(Refinement{std::move(predicate), std::move(message), std::move(options)});
}

Schema Schema::refine(Refinement refinement) const {
  return with([&](SchemaNode& n) {
    const std::string& message = refinement.message;
    if (!refinement.predicate && !refinement.view_predicate) {
      add_problem(n, "refine needs a predicate");
    }
    if (message.empty()) add_problem(n, "refine needs a message");
    const Path& path = refinement.options.path;
    if (n.kind == Kind::object && !path.empty()) {
      const auto* key = std::get_if<std::string>(&path.segments().front());
      if (key && !detail::declares(n, *key)) {
        add_problem(n, "refine \"" + message + "\" points at " + detail::quoted(*key) +
                           ", which is not a field");
      }
    }
    n.refinements.push_back(std::move(refinement));
  });
}

Schema Schema::rule(Comparison comparison, std::string message, RuleOptions options) const {
  return with_rule(Rule{std::nullopt, std::move(comparison), std::move(message),
                        std::move(options.path), std::move(options.text)});
}

Schema Schema::rule(Conditional conditional, std::string message, RuleOptions options) const {
  return with_rule(Rule{std::move(conditional.condition), std::move(conditional.requirement),
                        std::move(message), std::move(options.path), std::move(options.text)});
}

Schema Schema::with_rule(Rule rule) const {
  return with([&](SchemaNode& n) {
    if (n.kind != Kind::object) {
      n.problems.push_back(
          {Path{}, "rule applies to objects, not " + std::string(to_string(n.kind))});
      return;
    }
    if (rule.message.empty()) n.problems.push_back({Path{}, "rule needs a message"});
    for (auto& problem : detail::dsl_rule_problems(rule, n, nullptr)) {
      n.problems.push_back({Path{}, std::move(problem)});
    }
    n.rules.push_back(std::move(rule));
  });
}

Schema Schema::min(double value) const {
  return with([&](SchemaNode& n) {
    if (n.kind == Kind::string) {
      add_check(n, {.op = Check::Op::min_length, .number = value}, "min", {.strings = true});
    } else if (n.kind == Kind::array) {
      add_check(n, {.op = Check::Op::min_items, .number = value}, "min", {.arrays = true});
    } else {
      add_check(n, {.op = Check::Op::gte, .number = value}, "min",
                {.strings = true, .numbers = true, .arrays = true});
    }
  });
}

Schema Schema::max(double value) const {
  return with([&](SchemaNode& n) {
    if (n.kind == Kind::string) {
      add_check(n, {.op = Check::Op::max_length, .number = value}, "max", {.strings = true});
    } else if (n.kind == Kind::array) {
      add_check(n, {.op = Check::Op::max_items, .number = value}, "max", {.arrays = true});
    } else {
      add_check(n, {.op = Check::Op::lte, .number = value}, "max",
                {.strings = true, .numbers = true, .arrays = true});
    }
  });
}

Schema Schema::length(std::size_t value) const {
  const auto count = static_cast<double>(value);
  return with([&](SchemaNode& n) {
    if (n.kind == Kind::array) {  // JSON Schema has no single keyword for an exact item count
      add_check(n, {.op = Check::Op::min_items, .number = count}, "length", {.arrays = true});
      add_check(n, {.op = Check::Op::max_items, .number = count}, "length", {.arrays = true});
    } else {
      add_check(n, {.op = Check::Op::length, .number = count}, "length",
                {.strings = true, .arrays = true});
    }
  });
}

Schema Schema::nonempty() const {
  return with([&](SchemaNode& n) {
    if (n.kind == Kind::array) {
      add_check(n, {.op = Check::Op::min_items, .number = 1}, "nonempty", {.arrays = true});
    } else {
      add_check(n, {.op = Check::Op::min_length, .number = 1}, "nonempty",
                {.strings = true, .arrays = true});
    }
  });
}

Schema Schema::regex(std::string pattern) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::regex, .text = std::move(pattern)}, "regex", {.strings = true});
  });
}

Schema Schema::starts_with(std::string prefix) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::starts_with, .text = std::move(prefix)}, "starts_with",
              {.strings = true});
  });
}

Schema Schema::ends_with(std::string suffix) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::ends_with, .text = std::move(suffix)}, "ends_with",
              {.strings = true});
  });
}

Schema Schema::includes(std::string part) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::includes, .text = std::move(part)}, "includes",
              {.strings = true});
  });
}

Schema Schema::format(StringFormat format) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::format, .format = format},
              "format " + std::string(to_string(format)), {.strings = true});
  });
}

Schema Schema::gt(double value) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::gt, .number = value}, "gt", {.numbers = true});
  });
}

Schema Schema::gte(double value) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::gte, .number = value}, "gte", {.numbers = true});
  });
}

Schema Schema::lt(double value) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::lt, .number = value}, "lt", {.numbers = true});
  });
}

Schema Schema::lte(double value) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::lte, .number = value}, "lte", {.numbers = true});
  });
}

Schema Schema::multiple_of(double value) const {
  return with([&](SchemaNode& n) {
    add_check(n, {.op = Check::Op::multiple_of, .number = value}, "multiple_of", {.numbers = true});
  });
}

Schema Schema::passthrough() const {
  return with([](SchemaNode& n) {
    if (n.kind != Kind::object) {
      add_problem(n, "passthrough applies to objects, not " + std::string(to_string(n.kind)));
      return;
    }
    n.closed = false;
  });
}

Schema object(std::vector<Field> fields) {
  SchemaNode node{.kind = Kind::object};
  std::set<std::string> seen;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& field = fields[i];
    if (field.name.empty()) {
      add_problem(node, "field " + std::to_string(i) + " has an empty name");
    } else if (!seen.insert(field.name).second) {
      add_problem(node, "duplicate field name " + detail::quoted(field.name), Path{field.name});
    }
    adopt_problems(node, field.schema, field.name);
  }
  node.fields = std::move(fields);
  return make_schema(std::move(node));
}

Schema string() {
  return of_kind(Kind::string);
}
Schema number() {
  return of_kind(Kind::number);
}
Schema integer() {
  return of_kind(Kind::integer);
}
Schema boolean() {
  return of_kind(Kind::boolean);
}
Schema null_() {
  return of_kind(Kind::null);
}
Schema any() {
  return of_kind(Kind::any);
}

Schema array(Schema items) {
  SchemaNode node{.kind = Kind::array};
  adopt_problems(node, items, std::string("[]"));  // detail::element_segment says the same
  node.elements.push_back(std::move(items));
  return make_schema(std::move(node));
}

Schema record(Schema values) {
  SchemaNode node{.kind = Kind::object, .closed = false};
  adopt_problems(node, values, std::string("{}"));
  node.elements.push_back(std::move(values));
  return make_schema(std::move(node));
}

Schema tuple(std::vector<Schema> positions) {
  SchemaNode node{.kind = Kind::tuple};
  for (std::size_t i = 0; i < positions.size(); ++i) adopt_problems(node, positions[i], i);
  node.elements = std::move(positions);
  return make_schema(std::move(node));
}

Schema enumeration(std::vector<std::string> options) {
  SchemaNode node{.kind = Kind::enumeration};
  if (options.empty()) add_problem(node, "enum needs at least one option");
  std::set<std::string> seen;
  for (const auto& option : options) {
    if (!seen.insert(option).second) {
      add_problem(node, "enum option " + detail::quoted(option) + " appears more than once");
    }
  }
  node.options = std::move(options);
  return make_schema(std::move(node));
}

Schema literal(nlohmann::json value) {
  SchemaNode node{.kind = Kind::literal};
  node.literal = std::move(value);
  return make_schema(std::move(node));
}

Schema union_(std::vector<Schema> options) {
  SchemaNode node{.kind = Kind::union_};
  if (options.size() < 2) {
    add_problem(node, "union needs at least 2 options, got " + std::to_string(options.size()));
  }
  for (std::size_t i = 0; i < options.size(); ++i) {
    adopt_problems(node, options[i], "|" + std::to_string(i));
  }
  node.elements = std::move(options);
  return make_schema(std::move(node));
}

Schema discriminated_union(std::string tag, std::vector<Schema> options) {
  Schema base = union_(std::move(options));
  SchemaNode node = base.node();
  if (tag.empty()) add_problem(node, "discriminated union needs a tag field name");
  std::vector<std::pair<nlohmann::json, std::size_t>> tags;  // tag value, option index
  for (std::size_t i = 0; i < node.elements.size(); ++i) {
    const Path at{"|" + std::to_string(i)};
    const auto& option = node.elements[i].node();
    if (option.kind != Kind::object) {
      add_problem(node,
                  "discriminated union option is " + std::string(to_string(option.kind)) +
                      ", not an object",
                  at);
      continue;
    }
    auto field = std::find_if(option.fields.begin(), option.fields.end(),
                              [&](const Field& f) { return f.name == tag; });
    if (field == option.fields.end() || field->schema.kind() != Kind::literal) {
      add_problem(node, "option has no literal " + detail::quoted(tag) + " field", at);
      continue;
    }
    const auto& value = field->schema.node().literal;
    auto earlier = std::find_if(tags.begin(), tags.end(),
                                [&](const auto& seen) { return seen.first == value; });
    if (earlier != tags.end()) {
      add_problem(node,
                  "tag " + value.dump() + " repeats option " + std::to_string(earlier->second), at);
    }
    tags.emplace_back(value, i);
  }
  node.discriminator = std::move(tag);
  return make_schema(std::move(node));
}

namespace detail {

bool fill_defaults(const SchemaNode* node, nlohmann::json& value,
                   const SchemaDefinitions& definitions, std::optional<WalkedValue> walked,
                   UndeclaredKeys undeclared) {
  const SchemaNode* n = definitions.resolve(node);
  if (n == nullptr) return false;
  // The walked value below this one (none when this one was not walked).
  const auto below = [&](std::optional<JsonView> part) -> std::optional<WalkedValue> {
    if (!walked || !part) return std::nullopt;
    return WalkedValue{*part, walked->accepted_option};
  };
  const auto member = [&](const std::string& key) {
    return below(walked ? walked->value.find(key) : std::nullopt);
  };
  bool filled = false;
  if (n->kind == Kind::object && value.is_object()) {
    if (undeclared == UndeclaredKeys::drop && n->closed) {
      filled =
          std::erase_if(value.get_ref<nlohmann::json::object_t&>(),
                        [&](const auto& key_value) { return !declares(*n, key_value.first); }) != 0;
    }
    for (const auto& field : n->fields) {
      const auto found = value.find(field.name);
      if (found != value.end()) {
        filled = fill_defaults(&field.schema.node(), *found, definitions, member(field.name),
                               undeclared) ||
                 filled;
      } else if (const auto& fallback = field.schema.node().default_value) {
        value[field.name] = *fallback;  // as given: Zod does not parse a default
        filled = true;
      }
    }
    if (!n->elements.empty()) {  // a record: every key is a value
      // The tree's keys and the walked value's members side by side (a find() per key scans a
      // large object whose keys came sorted): members() iterates in the order nlohmann's
      // std::map does, and a document's keys are unique, so both walks meet the same keys in
      // the same order.
      JsonView::Members::iterator walked_member;
      JsonView::Members::iterator walked_end;
      if (walked) {
        const auto members = walked->value.members();
        walked_member = members.begin();
        walked_end = members.end();
      }
      for (auto& [key, item] : value.items()) {
        std::optional<JsonView> part;
        if (walked) {
          // A guard: the walks keep step, so this skips nothing.
          while (walked_member != walked_end && (*walked_member).key < key) ++walked_member;
          if (walked_member != walked_end && (*walked_member).key == key) {
            part = (*walked_member).value;
          }
        }
        filled = fill_defaults(&n->elements.front().node(), item, definitions, below(part),
                               undeclared) ||
                 filled;
      }
    }
  } else if ((n->kind == Kind::array || n->kind == Kind::tuple) && value.is_array()) {
    // The tree is the walked value's copy: its items are the same, in the same order.
    JsonView::Items::iterator item;
    if (walked) item = walked->value.items().begin();
    const std::size_t count =
        n->kind == Kind::array ? value.size() : std::min(value.size(), n->elements.size());
    for (std::size_t i = 0; i < count; ++i) {
      const SchemaNode& element = n->elements[n->kind == Kind::array ? 0 : i].node();
      filled = fill_defaults(&element, value[i], definitions,
                             below(walked ? std::optional(*item) : std::nullopt), undeclared) ||
               filled;
      if (walked) ++item;
    }
  } else if (n->kind == Kind::union_ && walked) {
    const auto option = (*walked->accepted_option)(*n, walked->value);
    if (option && *option < n->elements.size()) {
      filled = fill_defaults(&n->elements[*option].node(), value, definitions, walked, undeclared);
    }
  }
  return filled;
}

}  // namespace detail

namespace {

bool valid_definition_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

std::string name_problem(const std::string& name) {
  return "definition name " + detail::quoted(name) +
         " must be letters, digits, '_', '-' or '.' (it becomes a $defs key)";
}

}  // namespace

nlohmann::json with_defaults(const Schema& schema, nlohmann::json value) {
  const auto definitions = detail::collect_definitions(schema.node());
  detail::fill_defaults(&schema.node(), value, definitions);
  return value;
}

Schema Schema::named(std::string name) const {
  SchemaNode node = *node_;
  if (!valid_definition_name(name)) add_problem(node, name_problem(name));
  node.definition = std::make_shared<const Definition>(Definition{std::move(name), *this});
  return make_schema(std::move(node));
}

Schema ref(std::string name) {
  SchemaNode node{.kind = Kind::ref};
  if (!valid_definition_name(name)) add_problem(node, name_problem(name));
  node.reference = std::move(name);
  return make_schema(std::move(node));
}

namespace typed_detail {

// Declared in typed_rules.hpp; here because it builds nodes directly (Schema::Access).
Schema with_part(const Schema& whole, const std::vector<PathSegment>& at, const Schema& part,
                 std::size_t depth) {
  SchemaNode node = whole.node();
  if (depth == at.size()) {
    // The part, with what the member's place says about it: absent or null allowed, described.
    SchemaNode placed = part.node();
    placed.optional = placed.optional || node.optional;
    placed.nullable = placed.nullable || node.nullable;
    if (!placed.default_value) placed.default_value = node.default_value;
    if (placed.description.empty()) placed.description = node.description;
    return make_schema(std::move(placed));
  }
  if (node.elements.empty()) {
    add_problem(node, "this member holds no items or values to put a typed schema in");
    return make_schema(std::move(node));
  }
  node.elements.front() = with_part(node.elements.front(), at, part, depth + 1);
  // The replaced child's problems give way to the new one's.
  std::erase_if(node.problems, [&](const SchemaProblem& problem) {
    return !problem.path.empty() && problem.path.segments().front() == at[depth];
  });
  adopt_problems(node, node.elements.front(), at[depth]);
  return make_schema(std::move(node));
}

// Declared in typed_value.hpp; here beside with_defaults, which follows refs the same way.
struct SchemaDefaults::Definitions {
  detail::SchemaDefinitions collected;
};

// A ref `root_` does not define is the validated schema's (definitions_in_scope.hpp).
const SchemaNode* SchemaDefaults::definition(const SchemaNode& ref) const {
  if (!definitions_) {
    definitions_ =
        std::make_shared<const Definitions>(Definitions{detail::collect_definitions(root_)});
  }
  if (const SchemaNode* found = definitions_->collected.resolve(&ref)) return found;
  const detail::SchemaDefinitions* in_scope = detail::definitions_in_scope();
  return in_scope != nullptr ? in_scope->resolve(&ref) : nullptr;
}

}  // namespace typed_detail

namespace detail {

constinit thread_local const SchemaDefinitions* definitions_in_scope_slot = nullptr;

PathSegment element_segment(const SchemaNode& node, std::size_t index) {
  switch (node.kind) {
    case Kind::array:
      return std::string("[]");
    case Kind::object:
      return std::string("{}");
    case Kind::union_:
      return "|" + std::to_string(index);
    default:
      return index;
  }
}

const SchemaNode* SchemaDefinitions::find(const std::string& reference) const {
  const auto found = by_name.find(reference);
  return found == by_name.end() ? nullptr : &found->second.node();
}

const SchemaNode* SchemaDefinitions::resolve(const SchemaNode* node) const {
  // A chain of refs longer than the number of definitions goes round.
  for (std::size_t hops = 0; node != nullptr && node->kind == Kind::ref; ++hops) {
    if (hops > by_name.size()) return nullptr;
    node = find(node->reference);
  }
  return node;
}

SchemaDefinitions collect_definitions(const SchemaNode& root) {
  SchemaDefinitions out;
  std::unordered_set<const SchemaNode*> seen;
  std::unordered_set<const Definition*> definitions;
  // Breadth first, so the outermost definition of a name is the one kept.
  std::vector<std::pair<Path, const SchemaNode*>> level{{Path{}, &root}};
  while (!level.empty()) {
    std::vector<std::pair<Path, const SchemaNode*>> next;
    for (const auto& [path, node] : level) {
      const SchemaNode& n = *node;
      if (!seen.insert(&n).second) continue;
      if (n.kind == Kind::ref) out.refs.emplace_back(path, n.reference);
      if (!n.rules.empty()) out.ruled.emplace_back(path, &n);
      if (n.definition && definitions.insert(n.definition.get()).second) {
        const auto& [name, body] = *n.definition;
        if (!out.by_name.emplace(name, body).second) out.repeated.push_back({path, name, body});
        next.emplace_back(path, &body.node());
      }
      for (const auto& field : n.fields) next.emplace_back(path / field.name, &field.schema.node());
      for (std::size_t i = 0; i < n.elements.size(); ++i) {
        next.emplace_back(path + Path{element_segment(n, i)}, &n.elements[i].node());
      }
    }
    level = std::move(next);
  }
  return out;
}

}  // namespace detail

}  // namespace accord
