#include "accord/json_schema.hpp"

#include <algorithm>

#include "schema/report_writer.hpp"
#include "schema/rule_checks.hpp"
#include "schema/rule_wording.hpp"
#include "schema/schema_definitions.hpp"
#include "schema/schema_text.hpp"
#include "text/string_formats.hpp"

namespace accord {
namespace {

using detail::json_number;
using detail::kDatePattern;
using detail::number_text;
using detail::quoted;
using detail::rule_text;
using Json = nlohmann::ordered_json;

bool is_pattern(Check::Op op) {
  return op == Check::Op::regex || op == Check::Op::starts_with || op == Check::Op::ends_with ||
         op == Check::Op::includes;
}

std::string pattern_of(const Check& check) {
  switch (check.op) {
    case Check::Op::regex:
      return check.text;
    case Check::Op::starts_with:
      return "^" + detail::escaped(check.text);
    case Check::Op::ends_with:
      return detail::escaped(check.text) + "$";
    case Check::Op::includes:
      return detail::escaped(check.text);
    default:
      return "";
  }
}

bool has_pattern(const SchemaNode& node) {
  return std::any_of(node.checks.begin(), node.checks.end(),
                     [](const Check& c) { return is_pattern(c.op); });
}

// Adds a sentence, giving it a final full stop when it has no closing punctuation.
void add_sentence(std::string& out, const std::string& sentence) {
  if (sentence.empty()) return;
  if (!out.empty()) out += ' ';
  out += sentence;
  const char last = sentence.back();
  if (last != '.' && last != '!' && last != '?') out += '.';
}

const char* keyword_of(const Check& check, const SchemaNode& node) {
  switch (check.op) {
    case Check::Op::min_length:
      return "minLength";
    case Check::Op::max_length:
      return "maxLength";
    case Check::Op::length:
      return "minLength,maxLength";
    case Check::Op::regex:
    case Check::Op::starts_with:
    case Check::Op::ends_with:
    case Check::Op::includes:
      return "pattern";
    case Check::Op::format:
      return check.format == StringFormat::date && !has_pattern(node) ? "format,pattern" : "format";
    case Check::Op::gt:
      return "exclusiveMinimum";
    case Check::Op::gte:
      return "minimum";
    case Check::Op::lt:
      return "exclusiveMaximum";
    case Check::Op::lte:
      return "maximum";
    case Check::Op::multiple_of:
      return "multipleOf";
    case Check::Op::min_items:
      return "minItems";
    case Check::Op::max_items:
      return "maxItems";
  }
  return "";
}

std::string refine_why(const Refinement& refinement, const Path& path) {
  std::string why;
  if (!refinement.options.describe) {
    why = "opted out of the description; enforced locally only";
  } else if (refinement.options.rule_text.empty()) {
    why = "no JSON Schema keyword can say this; stated in the description, enforced locally";
  } else {
    why = "no JSON Schema keyword can say this; stated in the description as " +
          quoted(refinement.options.rule_text) + ", enforced locally";
  }
  if (!refinement.options.path.empty()) {
    why += "; issues point at " + (path + refinement.options.path).to_string();
  }
  return why;
}

// The strictest of several bounds of one kind: the largest lower or the smallest upper.
std::optional<double> strictest(const SchemaNode& node, std::initializer_list<Check::Op> ops,
                                bool lower) {
  std::optional<double> out;
  for (const auto& check : node.checks) {
    if (std::find(ops.begin(), ops.end(), check.op) == ops.end()) continue;
    if (!out || (lower ? check.number > *out : check.number < *out)) out = check.number;
  }
  return out;
}

class Emitter {
 public:
  explicit Emitter(Dialect dialect) : dialect_(dialect) {}

  // Where definitions go: `$defs` in 2020-12, `definitions` in draft-07.
  [[nodiscard]] std::string definitions_key() const {
    return dialect_ == Dialect::draft07 ? "definitions" : "$defs";
  }

  // The definitions the refs emitted so far name, each emitted once (their own refs add more),
  // in the order first referenced. Their rules are reported where the named schema is used, so
  // these bodies add no Report entries.
  Json definitions(const detail::SchemaDefinitions& known) {
    Json out = Json::object();
    recording_ = false;
    for (std::size_t i = 0; i < referenced_.size(); ++i) {
      const auto& name = referenced_[i];
      out[name] = node(known.by_name.at(name), Path{definitions_key(), name});
    }
    recording_ = true;
    return out;
  }

  Json node(const Schema& schema, const Path& path) {
    const SchemaNode& n = schema.node();
    record(n, path);
    Json body = keywords(n, path);  // "type" and the kind's keywords, children included

    Json out = Json::object();
    const auto description = model_description(n);
    if (n.nullable) {
      out["anyOf"] = Json::array({std::move(body), Json{{"type", "null"}}});
      if (!description.empty()) out["description"] = description;
    } else {
      for (auto& [key, value] : body.items()) {
        out[key] = value;
        if (key == "type" && !description.empty()) out["description"] = description;
      }
      if (!description.empty() && !out.contains("description")) {
        // No "type" (unions, any): the description still leads the keywords.
        Json reordered{{"description", description}};
        for (auto& [key, value] : out.items()) reordered[key] = value;
        out = std::move(reordered);
      }
    }
    if (n.default_value) out["default"] = Json(*n.default_value);
    if (!n.examples.empty()) {
      Json examples = Json::array();
      for (const auto& example : n.examples) examples.push_back(Json(example));
      out["examples"] = std::move(examples);
    }
    return out;
  }

  Report report;

 private:
  // `kind` names the rule in its id where the keyword does not (see rule_id.hpp).
  void add(const Path& path, std::string rule, std::string keyword, Fate fate = Fate::keyword,
           std::string why = {}, std::string kind = {}) {
    if (!recording_) return;
    detail::ReportWriter{report}.add(
        {.path = path,
         .rule = std::move(rule),
         .keyword = std::move(keyword),
         .fate = fate,
         .why = std::move(why),
         .id = kind.empty() ? RuleId() : RuleId(schema_pointer(path), std::move(kind))});
  }

  // The node's own rules, before its children's (the Report lists parents first).
  void record(const SchemaNode& n, const Path& path) {
    if (!n.description.empty()) add(path, "describe " + quoted(n.description), "description");
    if (n.kind == Kind::integer) add(path, "integer", "type");
    for (const auto& check : n.checks) {
      add(path, rule_text(check), keyword_of(check, n), Fate::keyword, {},
          check.op == Check::Op::length ? "length" : "");
    }
    switch (n.kind) {
      case Kind::enumeration:
        add(path, "enum " + Json(n.options).dump(), "enum");
        break;
      case Kind::literal:
        add(path, "literal " + n.literal.dump(), "const");
        break;
      case Kind::ref:
        add(path, "ref " + n.reference, "$ref");
        break;
      case Kind::union_:
        if (n.discriminator.empty()) {
          add(path, "union", "anyOf");
        } else {
          add(path, "discriminated_union " + n.discriminator, "oneOf");
        }
        break;
      case Kind::tuple:
        add(path, "tuple of " + std::to_string(n.elements.size()),
            dialect_ == Dialect::draft07 ? "items,additionalItems,minItems,maxItems"
                                         : "prefixItems,items,minItems,maxItems",
            Fate::keyword, {}, "tuple");
        break;
      case Kind::object:
        if (n.closed) add(path, "no unknown keys", "additionalProperties");
        if (!n.elements.empty()) add(path, "record", "additionalProperties");
        break;
      default:
        break;
    }
    if (n.nullable) add(path, "nullable", "anyOf", Fate::keyword, {}, "nullable");
    if (n.optional && !n.default_value) add(path, "optional", "required");
    if (n.default_value) add(path, "default " + n.default_value->dump(), "default");
    if (!n.examples.empty()) add(path, "examples", "examples");
    for (const auto& refinement : n.refinements) {
      add(path, "refine: " + refinement.message, "",
          refinement.options.describe ? Fate::description : Fate::local_only,
          refine_why(refinement, path));
    }
    for (const auto& rule : n.rules) {
      add(path, detail::rule_report_text(rule), kRulesKeyword, Fate::description,
          detail::rule_why(rule));
    }
  }

  Json keywords(const SchemaNode& n, const Path& path) {
    Json out = Json::object();
    switch (n.kind) {
      case Kind::object:
        object(n, path, out);
        break;
      case Kind::string:
        string(n, out);
        break;
      case Kind::number:
      case Kind::integer:
        number(n, out);
        break;
      case Kind::boolean:
        out["type"] = "boolean";
        break;
      case Kind::null:
        out["type"] = "null";
        break;
      case Kind::array:
        array(n, path, out);
        break;
      case Kind::tuple:
        tuple(n, path, out);
        break;
      case Kind::enumeration:
        out["type"] = "string";
        out["enum"] = n.options;
        break;
      case Kind::literal:
        out["type"] = json_type(n.literal);
        out["const"] = Json(n.literal);
        break;
      case Kind::union_: {
        Json options = Json::array();
        for (std::size_t i = 0; i < n.elements.size(); ++i) {
          options.push_back(node(n.elements[i], path / ("|" + std::to_string(i))));
        }
        out[n.discriminator.empty() ? "anyOf" : "oneOf"] = std::move(options);
        break;
      }
      case Kind::any:
        break;
      case Kind::ref:
        out["$ref"] = "#/" + definitions_key() + "/" + n.reference;
        if (std::find(referenced_.begin(), referenced_.end(), n.reference) == referenced_.end()) {
          referenced_.push_back(n.reference);
        }
        break;
    }
    return out;
  }

  static std::string json_type(const nlohmann::json& value) {
    if (value.is_number_integer()) return "integer";
    if (value.is_number()) return "number";
    return value.type_name();
  }

  void object(const SchemaNode& n, const Path& path, Json& out) {
    out["type"] = "object";
    Json properties = Json::object();
    Json required = Json::array();
    for (const auto& field : n.fields) {
      properties[field.name] = node(field.schema, path / field.name);
      const auto& f = field.schema.node();
      if (!f.optional && !f.default_value) required.push_back(field.name);
    }
    out["properties"] = std::move(properties);
    if (!required.empty()) out["required"] = std::move(required);
    if (n.closed) out["additionalProperties"] = false;
    if (!n.elements.empty()) {
      out["additionalProperties"] = node(n.elements.front(), path / std::string("{}"));
    }
    if (!n.rules.empty()) {
      Json rules = Json::array();
      for (const auto& rule : n.rules) rules.push_back(to_json(rule));
      out[kRulesKeyword] = std::move(rules);
    }
  }

  static void string(const SchemaNode& n, Json& out) {
    out["type"] = "string";
    auto min = strictest(n, {Check::Op::min_length, Check::Op::length}, true);
    auto max = strictest(n, {Check::Op::max_length, Check::Op::length}, false);
    if (min) out["minLength"] = json_number(*min);
    if (max) out["maxLength"] = json_number(*max);
    std::vector<std::string> patterns;
    for (const auto& check : n.checks) {
      if (check.op == Check::Op::format && !out.contains("format")) {
        out["format"] = to_string(check.format);
      }
      if (is_pattern(check.op)) patterns.push_back(pattern_of(check));
    }
    const bool date = std::any_of(n.checks.begin(), n.checks.end(), [](const Check& c) {
      return c.op == Check::Op::format && c.format == StringFormat::date;
    });
    // The date's shape as a pattern (as Zod writes it); its calendar validity is the format's job.
    if (date && patterns.empty()) patterns.emplace_back(kDatePattern);
    if (!patterns.empty()) out["pattern"] = patterns.front();
    if (patterns.size() > 1) {
      Json all = Json::array();
      for (std::size_t i = 1; i < patterns.size(); ++i)
        all.push_back(Json{{"pattern", patterns[i]}});
      out["allOf"] = std::move(all);
    }
  }

  static void number(const SchemaNode& n, Json& out) {
    out["type"] = n.kind == Kind::integer ? "integer" : "number";
    if (auto v = strictest(n, {Check::Op::gt}, true)) out["exclusiveMinimum"] = json_number(*v);
    if (auto v = strictest(n, {Check::Op::gte}, true)) out["minimum"] = json_number(*v);
    if (auto v = strictest(n, {Check::Op::lt}, false)) out["exclusiveMaximum"] = json_number(*v);
    if (auto v = strictest(n, {Check::Op::lte}, false)) out["maximum"] = json_number(*v);
    std::vector<double> divisors;
    for (const auto& check : n.checks) {
      if (check.op == Check::Op::multiple_of) divisors.push_back(check.number);
    }
    if (!divisors.empty()) out["multipleOf"] = json_number(divisors.front());
    if (divisors.size() > 1) {  // one keyword per node: the rest go in allOf, as for patterns
      Json all = Json::array();
      for (std::size_t i = 1; i < divisors.size(); ++i) {
        all.push_back(Json{{"multipleOf", json_number(divisors[i])}});
      }
      out["allOf"] = std::move(all);
    }
  }

  void array(const SchemaNode& n, const Path& path, Json& out) {
    out["type"] = "array";
    out["items"] = node(n.elements.front(), path / std::string("[]"));
    if (auto v = strictest(n, {Check::Op::min_items}, true)) out["minItems"] = json_number(*v);
    if (auto v = strictest(n, {Check::Op::max_items}, false)) out["maxItems"] = json_number(*v);
  }

  void tuple(const SchemaNode& n, const Path& path, Json& out) {
    out["type"] = "array";
    Json positions = Json::array();
    for (std::size_t i = 0; i < n.elements.size(); ++i)
      positions.push_back(node(n.elements[i], path / i));
    if (dialect_ == Dialect::draft07) {
      out["items"] = std::move(positions);
      out["additionalItems"] = false;
    } else {
      out["prefixItems"] = std::move(positions);
      out["items"] = false;
    }
    out["minItems"] = n.elements.size();
    out["maxItems"] = n.elements.size();
  }

  Dialect dialect_;
  bool recording_ = true;
  std::vector<std::string> referenced_;
};

// Refs that name no definition, rules whose field paths lead nowhere through a ref, definitions
// made only of refs that lead back to themselves, and two different schemas given one name.
void check_definitions(const detail::SchemaDefinitions& definitions, Dialect dialect) {
  std::vector<SchemaProblem> problems;
  for (const auto& [path, name] : definitions.refs) {
    if (definitions.find(name) == nullptr) {
      problems.push_back({path, "ref " + quoted(name) +
                                    " names no definition; give the schema it "
                                    "stands for .named(" +
                                    quoted(name) + ")"});
    }
  }
  for (const auto& [path, object] : definitions.ruled) {
    for (const auto& rule : object->rules) {
      for (auto& problem : detail::dsl_rule_problems(rule, *object, &definitions)) {
        problems.push_back({path, std::move(problem)});
      }
    }
  }
  for (const auto& [name, body] : definitions.by_name) {
    const auto& node = body.node();
    if (node.kind == Kind::ref && definitions.find(node.reference) != nullptr &&
        definitions.resolve(&node) == nullptr) {
      problems.push_back({Path{}, "definition " + quoted(name) +
                                      " is only refs that lead back to it; it describes no value"});
    }
  }
  // The same type reached twice by the typed layer is two objects saying one thing: what they
  // emit and report is compared.
  const auto said = [dialect](const Schema& body) {
    Emitter emitter(dialect);
    Json json = emitter.node(body, Path{});
    return std::make_pair(std::move(json), emitter.report.entries());
  };
  for (const auto& repeat : definitions.repeated) {
    if (said(repeat.body) != said(definitions.by_name.at(repeat.name))) {
      problems.push_back({repeat.path, "two different schemas are named " + quoted(repeat.name) +
                                           "; give one of them another name"});
    }
  }
  if (!problems.empty()) throw SchemaError(std::move(problems));
}

}  // namespace

std::string model_description(const SchemaNode& node) {
  std::string out;
  add_sentence(out, node.description);
  for (const auto& refinement : node.refinements) {
    if (!refinement.options.describe) continue;
    const auto& rule =
        refinement.options.rule_text.empty() ? refinement.message : refinement.options.rule_text;
    if (!rule.empty()) add_sentence(out, "Rule: " + rule);
  }
  for (const auto& rule : node.rules) add_sentence(out, detail::rule_sentence(rule));
  return out;
}

EmittedSchema emit(const Schema& schema, EmitOptions options) {
  // The older and 2019-09 dialects are ones the validator reads; emit() writes the two below.
  if (options.dialect != Dialect::draft07 && options.dialect != Dialect::draft2020_12) {
    throw SchemaError({SchemaProblem{Path{}, "emit() writes draft-07 or 2020-12"}});
  }
  schema.check();
  const auto definitions = detail::collect_definitions(schema.node());
  check_definitions(definitions, options.dialect);
  Emitter emitter(options.dialect);
  Json body = emitter.node(schema, Path{});
  Json defs = emitter.definitions(definitions);

  if (options.strict) {
    std::vector<SchemaProblem> hidden;
    for (const auto& entry : emitter.report.entries()) {
      if (entry.fate == Fate::local_only || entry.fate == Fate::dropped) {
        hidden.push_back({entry.path, "strict: " + entry.rule + " is " +
                                          std::string(to_string(entry.fate)) + " (" + entry.why +
                                          ")"});
      }
    }
    if (!hidden.empty()) throw SchemaError(std::move(hidden));
  }

  Json root{{"$schema", options.dialect == Dialect::draft07
                            ? "http://json-schema.org/draft-07/schema#"
                            : "https://json-schema.org/draft/2020-12/schema"}};
  for (auto& [key, value] : body.items()) root[key] = std::move(value);
  if (!defs.empty()) root[emitter.definitions_key()] = std::move(defs);
  return {std::move(root), std::move(emitter.report)};
}

}  // namespace accord
