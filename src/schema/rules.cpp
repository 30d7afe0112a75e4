#include "accord/rules.hpp"

#include <algorithm>
#include <cctype>

#include "accord/schema.hpp"
#include "schema/local_ref.hpp"
#include "schema/rules_detail.hpp"
#include "schema/schema_definitions.hpp"

namespace accord {
namespace {

using detail::ojson;

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}
bool ident_char(char c) {
  return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0;
}

SchemaError syntax_error(std::string_view text, std::string message) {
  return SchemaError(
      {SchemaProblem{Path{}, "\"" + std::string(text) + "\": " + std::move(message)}});
}

// A tokenizer for `left OP right`: just enough grammar for one comparison.
class ComparisonParser {
 public:
  explicit ComparisonParser(std::string_view text) : text_(text) {}

  Comparison parse() {
    Comparison out;
    skip_space();
    if (at_end()) fail("expected a comparison such as `refundDate >= orderDate`");
    if (!ident_start(peek())) {
      fail("the left side must be a field name, not " + describe_here());
    }
    out.left = field_path();
    if (keyword(out.left)) fail("the left side must be a field name, not " + out.left);
    skip_space();
    out.op = op();
    skip_space();
    if (at_end())
      fail("expected a field or a JSON literal after " + std::string(to_string(out.op)));
    if (ident_start(peek())) {
      auto name = field_path();
      if (keyword(name)) {
        out.right = nlohmann::json::parse(name);
      } else {
        out.right = FieldRef{std::move(name)};
      }
    } else {
      out.right = literal();
    }
    skip_space();
    if (!at_end()) fail("unexpected " + describe_here() + " after the comparison");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw syntax_error(text_, message); }

  [[nodiscard]] bool at_end() const { return pos_ >= text_.size(); }
  [[nodiscard]] char peek() const { return text_[pos_]; }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(peek())) != 0) ++pos_;
  }
  [[nodiscard]] std::string describe_here() const {
    return "`" + std::string(text_.substr(pos_, 12)) + "`";
  }
  static bool keyword(const std::string& name) {
    return name == "true" || name == "false" || name == "null";
  }

  std::string field_path() {
    const auto start = pos_;
    while (true) {
      if (at_end() || !ident_start(peek())) fail("expected a field name at " + describe_here());
      while (!at_end() && ident_char(peek())) ++pos_;
      if (at_end() || peek() != '.') break;
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  Op op() {
    static constexpr std::pair<std::string_view, Op> kOps[] = {{"==", Op::eq},  {"!=", Op::ne},
                                                               {"<=", Op::lte}, {">=", Op::gte},
                                                               {"<", Op::lt},   {">", Op::gt}};
    for (const auto& [symbol, value] : kOps) {
      if (text_.substr(pos_, symbol.size()) == symbol) {
        pos_ += symbol.size();
        return value;
      }
    }
    if (text_.substr(pos_, 1) == "=") fail("`=` is not an operator; use `==`");
    fail("expected an operator (== != < <= > >=) at " +
         (at_end() ? std::string("the end") : describe_here()));
  }

  nlohmann::json literal() {
    const auto start = pos_;
    if (peek() == '"') {
      ++pos_;
      while (!at_end() && peek() != '"') pos_ += peek() == '\\' ? 2 : 1;
      if (at_end()) fail("the string literal has no closing quote");
      ++pos_;
    } else if (peek() == '-' || std::isdigit(static_cast<unsigned char>(peek())) != 0) {
      while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) != 0 || peek() == '.' ||
                           peek() == '-' || peek() == '+')) {
        ++pos_;
      }
    } else {
      fail("expected a field or a JSON literal at " + describe_here());
    }
    const auto token = text_.substr(start, pos_ - start);
    auto value = nlohmann::json::parse(token, nullptr, false);
    if (value.is_discarded()) fail("`" + std::string(token) + "` is not a JSON literal");
    return value;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

std::string operand_text(const Operand& operand) {
  return operand.is_field() ? operand.field_path() : operand.literal().dump();
}

std::string type_of(const nlohmann::json& value) {
  if (value.is_number()) return "number";
  return value.type_name();
}

// Adds the kinds a DSL node can hold.
detail::ValueTypes dsl_types(const SchemaNode& node) {
  detail::ValueTypes out;
  switch (node.kind) {
    case Kind::string:
    case Kind::enumeration:
      out = {"string"};
      break;
    case Kind::number:
    case Kind::integer:
      out = {"number"};
      break;
    case Kind::boolean:
      out = {"boolean"};
      break;
    case Kind::null:
      out = {"null"};
      break;
    case Kind::object:
      out = {"object"};
      break;
    case Kind::array:
    case Kind::tuple:
      out = {"array"};
      break;
    case Kind::literal:
      out = {type_of(node.literal)};
      break;
    case Kind::union_:
      for (const auto& option : node.elements) {
        auto types = dsl_types(option.node());
        if (types.empty()) return {};
        out.insert(types.begin(), types.end());
      }
      break;
    case Kind::any:
    case Kind::ref:  // what the definition holds is not looked up here
      return {};
  }
  if (node.nullable) out.insert("null");
  return out;
}

detail::ValueTypes json_types(const ojson& schema, const ojson& root) {
  const ojson* at = detail::resolve_local_ref(&schema, root);
  if (at == nullptr || !at->is_object()) return {};
  detail::ValueTypes out;
  if (auto c = at->find("const"); c != at->end())
    return {type_of(nlohmann::json::parse(c->dump()))};
  if (auto e = at->find("enum"); e != at->end() && e->is_array()) {
    for (const auto& v : *e) out.insert(type_of(nlohmann::json::parse(v.dump())));
    return out;
  }
  if (auto t = at->find("type"); t != at->end()) {
    auto add = [&](const ojson& name) {
      if (!name.is_string()) return;
      const auto text = name.get<std::string>();
      out.insert(text == "integer" ? "number" : text);
    };
    if (t->is_array()) {
      for (const auto& name : *t) add(name);
    } else {
      add(*t);
    }
    return out;
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    if (auto options = at->find(key); options != at->end() && options->is_array()) {
      for (const auto& option : *options) {
        auto types = json_types(option, root);
        if (types.empty()) return {};
        out.insert(types.begin(), types.end());
      }
      return out;
    }
  }
  return {};
}

// The object schema a value of `schema` is when it is an object (inside a nullable wrapper too).
const ojson* object_branch(const ojson* schema, const ojson& root) {
  schema = detail::resolve_local_ref(schema, root);
  if (schema == nullptr || !schema->is_object()) return nullptr;
  if (schema->contains("properties")) return schema;
  if (auto options = schema->find("anyOf"); options != schema->end() && options->is_array()) {
    for (const auto& option : *options) {
      if (const ojson* found = object_branch(&option, root)) return found;
    }
  }
  return nullptr;
}

bool is_orderable(const detail::ValueTypes& types) {
  return types.empty() || types.count("number") != 0 || types.count("string") != 0;
}

bool overlap(const detail::ValueTypes& a, const detail::ValueTypes& b) {
  if (a.empty() || b.empty()) return true;
  return std::any_of(a.begin(), a.end(), [&](const std::string& t) { return b.count(t) != 0; });
}

std::string types_text(const detail::ValueTypes& types) {
  std::string out;
  for (const auto& t : types) out += (out.empty() ? "" : " or ") + t;
  return out;
}

void comparison_problems(const Comparison& c, const std::string& part,
                         const detail::FieldLookup& lookup, std::vector<detail::RuleProblem>& out) {
  auto field_types = [&](const std::string& path) -> std::optional<detail::ValueTypes> {
    if (!detail::valid_field_path(path)) {
      out.push_back({part, "\"" + path +
                               "\" is not a field path (identifiers joined with dots, such as "
                               "shipping.country)"});
      return std::nullopt;
    }
    auto types = lookup(detail::field_segments(path));
    if (!types) out.push_back({part, path + " is not a field of this object"});
    return types;
  };
  const auto left = field_types(c.left);
  std::optional<detail::ValueTypes> right;
  if (c.right.is_field()) {
    right = field_types(c.right.field_path());
  } else {
    const auto& literal = c.right.literal();
    if (literal.is_structured()) {
      out.push_back(
          {part, "the literal " + literal.dump() + " must be a string, number, boolean or null"});
      return;
    }
    right = detail::ValueTypes{type_of(literal)};
  }
  if (!left || !right) return;
  const bool ordering = c.op != Op::eq && c.op != Op::ne;
  const std::string shown = "`" + to_string(c) + "`";
  if (ordering &&
      (!is_orderable(*left) || !is_orderable(*right) ||
       (!right->empty() && right->count("number") == 0 && right->count("string") == 0))) {
    out.push_back(
        {part, shown + ": " + std::string(to_string(c.op)) + " orders numbers or strings only"});
    return;
  }
  if (!overlap(*left, *right)) {
    out.push_back({part, shown + " can never hold: " + c.left + " is " + types_text(*left) + ", " +
                             operand_text(c.right) + " is " + types_text(*right)});
  }
}

}  // namespace

std::string_view to_string(Op op) {
  switch (op) {
    case Op::eq:
      return "==";
    case Op::ne:
      return "!=";
    case Op::lt:
      return "<";
    case Op::lte:
      return "<=";
    case Op::gt:
      return ">";
    case Op::gte:
      return ">=";
  }
  return "?";
}

Comparison compare(std::string left, Op op, Operand right) {
  return Comparison{std::move(left), op, std::move(right)};
}

When when(std::string left, Op op, Operand right) {
  return When{compare(std::move(left), op, std::move(right))};
}

Conditional When::then(std::string left, Op op, Operand right) const {
  return Conditional{condition, compare(std::move(left), op, std::move(right))};
}

std::string to_string(const Comparison& comparison) {
  return comparison.left + " " + std::string(to_string(comparison.op)) + " " +
         operand_text(comparison.right);
}

std::string to_string(const Rule& rule) {
  if (rule.condition) {
    return "if " + to_string(*rule.condition) + " then " + to_string(rule.requirement);
  }
  return to_string(rule.requirement);
}

nlohmann::ordered_json to_json(const Rule& rule) {
  ojson out = ojson::object();
  if (rule.condition) {
    out["if"] = to_string(*rule.condition);
    out["then"] = to_string(rule.requirement);
  } else {
    out["rule"] = to_string(rule.requirement);
  }
  out["message"] = rule.message;
  if (!rule.text.empty()) out["text"] = rule.text;
  if (rule.path) {
    ojson path = ojson::array();
    for (const auto& segment : rule.path->segments()) {
      std::visit([&](const auto& s) { path.push_back(s); }, segment);
    }
    out["path"] = std::move(path);
  }
  return out;
}

Comparison parse_comparison(std::string_view text) {
  return ComparisonParser(text).parse();
}

Rule parse_rule(const nlohmann::ordered_json& entry) {
  std::vector<SchemaProblem> problems;
  Rule rule;
  if (!entry.is_object()) {
    throw SchemaError({SchemaProblem{
        Path{}, "a rule is an object: {\"rule\": \"a >= b\"} or {\"if\": ..., \"then\": ...}"}});
  }
  for (const auto& [key, value] : entry.items()) {
    if (key != "rule" && key != "if" && key != "then" && key != "message" && key != "text" &&
        key != "path") {
      problems.push_back({Path{key}, "unknown key (expected rule, if, then, message, text, path)"});
    }
  }
  auto comparison = [&](const char* key) -> std::optional<Comparison> {
    auto it = entry.find(key);
    if (it == entry.end()) return std::nullopt;
    if (!it->is_string()) {
      problems.push_back({Path{key}, std::string(key) + " must be a string such as \"a >= b\""});
      return std::nullopt;
    }
    try {
      return parse_comparison(it->get<std::string>());
    } catch (const SchemaError& e) {
      problems.push_back({Path{key}, e.problems().front().message});
      return std::nullopt;
    }
  };
  const bool has_rule = entry.contains("rule");
  const bool has_if = entry.contains("if");
  const bool has_then = entry.contains("then");
  if (has_rule && (has_if || has_then)) {
    problems.push_back({Path{}, "a rule has either \"rule\" or \"if\" and \"then\", not both"});
  } else if (!has_rule && !(has_if && has_then)) {
    problems.push_back({Path{}, has_if || has_then
                                    ? "a conditional needs both \"if\" and \"then\""
                                    : "a rule needs \"rule\", or \"if\" and \"then\""});
  }
  if (has_rule) {
    if (auto c = comparison("rule")) rule.requirement = *c;
  } else {
    rule.condition = comparison("if");
    if (auto c = comparison("then")) rule.requirement = *c;
  }
  if (auto message = entry.find("message"); message != entry.end()) {
    if (!message->is_string() || message->get<std::string>().empty()) {
      problems.push_back({Path{"message"}, "message must be a non-empty string"});
    } else {
      rule.message = message->get<std::string>();
    }
  }
  if (auto text = entry.find("text"); text != entry.end()) {
    if (!text->is_string() || text->get<std::string>().empty()) {
      problems.push_back({Path{"text"}, "text must be a non-empty string"});
    } else {
      rule.text = text->get<std::string>();
    }
  }
  if (auto path = entry.find("path"); path != entry.end()) {
    std::vector<PathSegment> segments;
    bool ok = path->is_array();
    if (ok) {
      for (const auto& segment : *path) {
        if (segment.is_string()) {
          segments.emplace_back(segment.get<std::string>());
        } else if (segment.is_number_unsigned()) {
          segments.emplace_back(segment.get<std::size_t>());
        } else {
          ok = false;
        }
      }
    }
    if (ok) {
      rule.path = Path(std::move(segments));
    } else {
      problems.push_back(
          {Path{"path"}, "path must be an array of keys and indexes, [] for the object itself"});
    }
  }
  if (!problems.empty()) throw SchemaError(std::move(problems));
  if (rule.message.empty()) rule.message = "Rule failed: " + to_string(rule);
  return rule;
}

namespace detail {

bool valid_field_path(std::string_view path) {
  if (path.empty()) return false;
  bool start = true;
  for (char c : path) {
    if (c == '.') {
      if (start) return false;
      start = true;
    } else if (start ? !ident_start(c) : !ident_char(c)) {
      return false;
    } else {
      start = false;
    }
  }
  return !start;
}

std::vector<std::string> field_segments(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    out.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return out;
    start = dot + 1;
  }
}

std::vector<RuleProblem> rule_problems(const Rule& rule, const FieldLookup& lookup) {
  std::vector<RuleProblem> out;
  if (rule.condition) {
    comparison_problems(*rule.condition, "if", lookup, out);
    comparison_problems(rule.requirement, "then", lookup, out);
  } else {
    comparison_problems(rule.requirement, "rule", lookup, out);
  }
  if (rule.path && !rule.path->empty()) {
    const auto* key = std::get_if<std::string>(&rule.path->segments().front());
    if (key != nullptr && !lookup({*key})) {
      out.push_back({"path", "path points at " + *key + ", which is not a field of this object"});
    }
  }
  return out;
}

FieldLookup dsl_lookup(const SchemaNode& object, const SchemaDefinitions* definitions) {
  return [&object,
          definitions](const std::vector<std::string>& segments) -> std::optional<ValueTypes> {
    // A ref stands for a definition known only once the whole schema is: until then a path
    // through it is taken on trust (emit() checks it again with the definitions).
    const auto through_ref = [definitions](const SchemaNode* node) -> const SchemaNode* {
      if (node->kind != Kind::ref || definitions == nullptr) return node;
      return definitions->resolve(node);  // an unknown name is a problem of its own
    };
    const SchemaNode* at = &object;
    for (const auto& name : segments) {
      at = through_ref(at);
      if (at == nullptr || at->kind == Kind::ref) return ValueTypes{};
      if (at->kind != Kind::object) return std::nullopt;
      auto field = std::find_if(at->fields.begin(), at->fields.end(),
                                [&](const Field& f) { return f.name == name; });
      if (field == at->fields.end()) return std::nullopt;
      at = &field->schema.node();
    }
    const SchemaNode* resolved = through_ref(at);
    if (resolved == nullptr || resolved == at) return dsl_types(*at);
    auto types = dsl_types(*resolved);
    if (at->nullable && !types.empty()) types.insert("null");
    return types;
  };
}

std::vector<std::string> dsl_rule_problems(const Rule& rule, const SchemaNode& object,
                                           const SchemaDefinitions* definitions) {
  std::vector<std::string> out;
  for (const auto& problem : rule_problems(rule, dsl_lookup(object, definitions))) {
    out.push_back("rule `" + to_string(rule) + "`: " + problem.message);
  }
  return out;
}

FieldLookup json_lookup(const ojson& object_schema, const ojson& root) {
  return [&object_schema,
          &root](const std::vector<std::string>& segments) -> std::optional<ValueTypes> {
    const ojson* at = &object_schema;
    for (const auto& name : segments) {
      const ojson* object = object_branch(at, root);
      if (object == nullptr) return std::nullopt;
      auto properties = object->find("properties");
      if (properties == object->end() || !properties->is_object() || !properties->contains(name)) {
        return std::nullopt;
      }
      at = &(*properties)[name];
    }
    return json_types(*at, root);
  };
}

std::vector<Rule> parse_rules(const ojson& rules, const ojson& object_schema, const ojson& root,
                              const Path& at, std::vector<SchemaProblem>& problems) {
  std::vector<Rule> out;
  if (!rules.is_array()) {
    problems.push_back({at, std::string(kRulesKeyword) + " must be an array of rules"});
    return out;
  }
  if (object_branch(&object_schema, root) == nullptr) {
    problems.push_back({at, std::string(kRulesKeyword) + " belongs on an object with properties"});
    return out;
  }
  const auto lookup = json_lookup(object_schema, root);
  for (std::size_t i = 0; i < rules.size(); ++i) {
    try {
      Rule rule = parse_rule(rules[i]);
      const auto found = rule_problems(rule, lookup);
      for (const auto& problem : found)
        problems.push_back({at / i / problem.part, problem.message});
      if (found.empty()) out.push_back(std::move(rule));
    } catch (const SchemaError& e) {
      for (const auto& problem : e.problems()) {
        problems.push_back({at / i + problem.path, problem.message});
      }
    }
  }
  return out;
}

std::optional<bool> compare_values(const nlohmann::json& left, Op op, const nlohmann::json& right) {
  if (op == Op::eq || op == Op::ne) {
    bool equal = false;
    if (left.is_number() && right.is_number()) {
      equal = !(left < right) && !(right < left);
    } else {
      equal = left == right;
    }
    return op == Op::eq ? equal : !equal;
  }
  const bool numbers = left.is_number() && right.is_number();
  const bool strings = left.is_string() && right.is_string();
  if (!numbers && !strings) return std::nullopt;
  // nlohmann orders numbers across integer/float kinds and strings by code unit, which for UTF-8
  // is code point order.
  switch (op) {
    case Op::lt:
      return left < right;
    case Op::lte:
      return !(right < left);
    case Op::gt:
      return right < left;
    case Op::gte:
      return !(left < right);
    default:
      return std::nullopt;
  }
}

Op negated(Op op) {
  switch (op) {
    case Op::eq:
      return Op::ne;
    case Op::ne:
      return Op::eq;
    case Op::lt:
      return Op::gte;
    case Op::lte:
      return Op::gt;
    case Op::gt:
      return Op::lte;
    case Op::gte:
      return Op::lt;
  }
  return op;
}

namespace {

// The value at `path` inside `object`, a declared default standing in for an absent field (the
// schema looked up through refs and nullable wrappers, as the field path goes).
std::optional<nlohmann::json> field_value(const nlohmann::json& object, const ojson* schema,
                                          const ojson& root, const std::string& path) {
  const nlohmann::json* at = &object;
  std::optional<nlohmann::json> fallback;
  for (const auto& name : field_segments(path)) {
    const ojson* property = nullptr;
    schema = schema != nullptr ? object_branch(schema, root) : nullptr;
    if (schema != nullptr) {
      auto properties = schema->find("properties");
      if (properties != schema->end() && properties->is_object() && properties->contains(name)) {
        property = &(*properties)[name];
      }
    }
    if (at == nullptr || !at->is_object()) return std::nullopt;
    auto it = at->find(name);
    if (it != at->end()) {
      at = &*it;
    } else if (const ojson* declared =
                   property != nullptr ? detail::resolve_local_ref(property, root) : nullptr;
               declared != nullptr && declared->is_object() && declared->contains("default")) {
      fallback = nlohmann::json::parse((*declared)["default"].dump());
      at = &*fallback;
    } else {
      return std::nullopt;
    }
    schema = property;
  }
  return *at;
}

std::optional<bool> judge(const Comparison& c, const nlohmann::json& object, const ojson* schema,
                          const ojson& root) {
  const auto left = field_value(object, schema, root, c.left);
  if (!left) return std::nullopt;
  std::optional<nlohmann::json> right;
  if (c.right.is_field()) {
    right = field_value(object, schema, root, c.right.field_path());
  } else {
    right = c.right.literal();
  }
  if (!right) return std::nullopt;
  return compare_values(*left, c.op, *right);
}

}  // namespace

bool rule_holds(const Rule& rule, const nlohmann::json& object, const ojson* object_schema,
                const ojson& root) {
  if (!object.is_object()) return true;
  if (rule.condition &&
      judge(*rule.condition, object, object_schema, root) != std::optional(true)) {
    return true;
  }
  return judge(rule.requirement, object, object_schema, root) != std::optional(false);
}

Path issue_path(const Rule& rule) {
  if (rule.path) return *rule.path;
  Path out;
  for (auto& name : field_segments(rule.requirement.left)) out = out / std::move(name);
  return out;
}

std::string rule_sentence(const Rule& rule) {
  std::string formal =
      rule.condition ? "when " + to_string(*rule.condition) + ", " + to_string(rule.requirement)
                     : to_string(rule.requirement);
  // The user's words first: they say what the rule means, the formula says exactly what holds.
  if (rule.text.empty()) return "Rule: " + formal + ".";
  return "Rule: " + rule.text + " (" + formal + ").";
}

std::string rule_report_text(const Rule& rule) {
  return "rule " + to_string(rule);
}

std::string rule_why(const Rule& rule) {
  if (rule.requirement.right.is_field() || (rule.condition && rule.condition->right.is_field())) {
    return "no JSON Schema keyword compares two fields; stated in the description, enforced "
           "locally";
  }
  return "stated in the description, enforced locally; providers that can enforce it get "
         "keywords when the schema is lowered";
}

bool has_rules(const ojson& document) {
  if (document.is_object()) {
    if (document.contains(kRulesKeyword)) return true;
    for (const auto& [key, value] : document.items()) {
      if (value.is_structured() && has_rules(value)) return true;
    }
  } else if (document.is_array()) {
    for (const auto& value : document) {
      if (has_rules(value)) return true;
    }
  }
  return false;
}

}  // namespace detail

// ---- the DSL side ----

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

}  // namespace accord
