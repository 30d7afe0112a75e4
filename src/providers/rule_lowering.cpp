#include "providers/rule_lowering.hpp"

#include <optional>
#include <vector>

#include "accord/rules.hpp"
#include "providers/lowering.hpp"
#include "schema/rule_evaluation.hpp"
#include "schema/rule_fields.hpp"
#include "schema/rule_wording.hpp"

namespace accord::detail {
namespace {

// Conditionals multiply the branches by two each; past this the schema grows more than it helps.
constexpr std::size_t kMaxBranches = 8;

struct Outcome {
  Fate fate = Fate::description;
  std::string keyword = kRulesKeyword;
  std::string why;
};

// The rules of one node, each parsed (nullopt for an entry that does not parse: the loader
// rejects those, so only a hand-made document gets here with one).
std::vector<std::optional<Rule>> read_rules(const ojson& rules) {
  std::vector<std::optional<Rule>> out;
  if (!rules.is_array()) return out;
  for (const auto& entry : rules) {
    try {
      out.emplace_back(parse_rule(entry));
    } catch (const std::exception&) {
      out.emplace_back(std::nullopt);
    }
  }
  return out;
}

// Writes each rule's fate into its Report entry (emit's or the loader's, in order at `path`),
// adding entries for rules that have none.
void record(ReportWriter report, const Path& path, const std::vector<std::optional<Rule>>& rules,
            const ojson& raw, const std::vector<Outcome>& outcomes, const std::string& stage) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < report.entries().size(); ++i) {
    const auto& e = report.entries()[i];
    if (e.path == path && e.keyword == kRulesKeyword) found.push_back(i);
  }
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const auto& outcome = outcomes[i];
    if (i < found.size()) {
      auto& e = report.entries()[found[i]];
      e.fate = outcome.fate;
      e.keyword = outcome.keyword;
      e.why = outcome.why;
      e.stage = stage;
    } else {
      const std::string text = rules[i] ? rule_report_text(*rules[i]) : "rule " + raw[i].dump();
      report.add({path, text, outcome.keyword, outcome.fate, outcome.why, stage});
    }
  }
}

bool has_field_operand(const Rule& rule) {
  return rule.requirement.right.is_field() || (rule.condition && rule.condition->right.is_field());
}

// The fate of a rule no provider can turn into keywords (one that does not parse, or compares two
// fields), or nullopt for a rule the provider may compile.
std::optional<Outcome> words_only(const std::optional<Rule>& rule) {
  if (!rule) return Outcome{.why = "the rule does not parse; left out of the wire"};
  if (has_field_operand(*rule)) {
    return Outcome{.why =
                       "no JSON Schema keyword compares two fields; stated in the description, "
                       "enforced locally"};
  }
  return std::nullopt;
}

// ---- a schema sent whole: if/then ----

// {"maximum": 500}, {"const": "eur"}, {"not": {"const": "eur"}}; nullopt for a string ordering.
std::optional<ojson> constraint(Op op, const nlohmann::json& literal) {
  const ojson value = ojson::parse(literal.dump());
  switch (op) {
    case Op::eq:
      return ojson{{"const", value}};
    case Op::ne:
      return ojson{{"not", ojson{{"const", value}}}};
    default:
      break;
  }
  if (!literal.is_number()) return std::nullopt;
  const char* key = op == Op::lt    ? "exclusiveMaximum"
                    : op == Op::lte ? "maximum"
                    : op == Op::gt  ? "exclusiveMinimum"
                                    : "minimum";
  return ojson{{key, value}};
}

// The constraint placed at a field path: {"properties": {"a": {"properties": {"b": C}}}}, with
// each level required when `required` (an `if` must not match when the field is absent).
ojson at_field(const std::string& path, ojson inner, bool required) {
  const auto segments = field_segments(path);
  for (auto it = segments.rbegin(); it != segments.rend(); ++it) {
    ojson level = ojson::object();
    level["properties"] = ojson{{*it, std::move(inner)}};
    if (required) level["required"] = ojson::array({*it});
    inner = std::move(level);
  }
  return inner;
}

class ConditionalRules {
 public:
  ConditionalRules(ReportWriter report, std::string stage)
      : report_(report), stage_(std::move(stage)) {}

  void walk(ojson& node, const Path& path) {
    if (!node.is_object()) return;
    if (auto properties = node.find("properties");
        properties != node.end() && properties->is_object()) {
      for (auto& [name, child] : properties->items()) walk(child, path / name);
    }
    if (auto items = node.find("items"); items != node.end()) {
      if (items->is_array()) {
        for (std::size_t i = 0; i < items->size(); ++i) walk((*items)[i], path / i);
      } else {
        walk(*items, path / std::string("[]"));
      }
    }
    if (auto positions = node.find("prefixItems");
        positions != node.end() && positions->is_array()) {
      for (std::size_t i = 0; i < positions->size(); ++i) walk((*positions)[i], path / i);
    }
    for (const char* key : {"anyOf", "oneOf"}) {
      auto options = node.find(key);
      if (options == node.end() || !options->is_array()) continue;
      const bool nullable = options->size() == 2 && ((*options)[1] == ojson{{"type", "null"}} ||
                                                     (*options)[0] == ojson{{"type", "null"}});
      for (std::size_t i = 0; i < options->size(); ++i) {
        walk((*options)[i], nullable ? path : path / ("|" + std::to_string(i)));
      }
    }
    if (node.contains(kRulesKeyword)) compile(node, path);
  }

 private:
  void compile(ojson& node, const Path& path) {
    const ojson raw = node[kRulesKeyword];
    node.erase(kRulesKeyword);
    const auto rules = read_rules(raw);
    std::vector<Outcome> outcomes;
    std::vector<ojson> compiled;  // {"if","then"} pairs and plain constraints
    for (const auto& rule : rules) {
      Outcome outcome;
      if (auto fixed = words_only(rule)) {
        outcome = *fixed;
      } else {
        auto then = constraint(rule->requirement.op, rule->requirement.right.literal());
        std::optional<ojson> test;
        if (rule->condition) {
          test = constraint(rule->condition->op, rule->condition->right.literal());
        }
        if (!then || (rule->condition && !test)) {
          outcome.why =
              "JSON Schema has no keyword ordering strings; stated in the description, enforced "
              "locally";
        } else if (rule->condition) {
          compiled.push_back(ojson{{"if", at_field(rule->condition->left, *test, true)},
                                   {"then", at_field(rule->requirement.left, *then, false)}});
          outcome = {Fate::keyword, "if,then",
                     "sent as if/then (also stated in the description), enforced locally"};
        } else {
          compiled.push_back(at_field(rule->requirement.left, *then, false));
          outcome = {Fate::keyword, "properties",
                     "sent as a constraint on the field (also stated in the description), "
                     "enforced locally"};
        }
      }
      outcomes.push_back(std::move(outcome));
    }
    if (compiled.size() == 1 && compiled[0].contains("if") && !node.contains("if")) {
      node["if"] = compiled[0]["if"];
      node["then"] = compiled[0]["then"];
    } else if (!compiled.empty()) {
      for (auto& o : outcomes) {
        if (o.fate == Fate::keyword) o.keyword = "allOf," + o.keyword;
      }
      ojson& all = node["allOf"];
      if (!all.is_array()) all = ojson::array();
      for (auto& c : compiled) all.push_back(std::move(c));
    }
    record(report_, path, rules, raw, outcomes, stage_);
  }

  ReportWriter report_;
  std::string stage_;
};

// ---- rule branches (OpenAI strict): anyOf ----

enum class Narrowed { ok, impossible, inexpressible };

// Replaces `key` in place (keeping the key order), or appends it.
void set_keyword(ojson& node, const std::string& old_key, const std::string& key, ojson value) {
  ojson out = ojson::object();
  bool placed = false;
  for (auto& [k, v] : node.items()) {
    if (k == old_key) {
      out[key] = value;
      placed = true;
    } else if (k != key) {
      out[k] = std::move(v);
    }
  }
  if (!placed) out[key] = std::move(value);
  node = std::move(out);
}

// Narrows a non-null schema X to the values v with `v op literal`.
Narrowed narrow_value(ojson& node, Op op, const nlohmann::json& literal) {
  if (!node.is_object()) return Narrowed::inexpressible;
  const ojson lit = ojson::parse(literal.dump());
  if (auto c = node.find("const"); c != node.end()) {
    const auto holds = compare_values(nlohmann::json::parse(c->dump()), op, literal);
    if (!holds) return Narrowed::inexpressible;
    return *holds ? Narrowed::ok : Narrowed::impossible;
  }
  if (auto e = node.find("enum"); e != node.end() && e->is_array()) {
    ojson kept = ojson::array();
    for (const auto& v : *e) {
      const auto holds = compare_values(nlohmann::json::parse(v.dump()), op, literal);
      if (!holds) return Narrowed::inexpressible;
      if (*holds) kept.push_back(v);
    }
    if (kept.empty()) return Narrowed::impossible;
    if (op == Op::eq) {
      set_keyword(node, "enum", "const", lit);
    } else {
      set_keyword(node, "enum", "enum", std::move(kept));
    }
    return Narrowed::ok;
  }
  const auto type = node.find("type");
  if (type == node.end() || !type->is_string()) return Narrowed::inexpressible;
  const std::string t = *type;
  if ((t == "number" || t == "integer") && literal.is_number()) {
    if (op == Op::eq) {
      set_keyword(node, "const", "const", lit);
      return Narrowed::ok;
    }
    if (op == Op::ne) return Narrowed::inexpressible;
    const bool upper = op == Op::lt || op == Op::lte;
    const char* key = op == Op::lt    ? "exclusiveMaximum"
                      : op == Op::lte ? "maximum"
                      : op == Op::gt  ? "exclusiveMinimum"
                                      : "minimum";
    if (auto existing = node.find(key); existing != node.end() && existing->is_number()) {
      const bool stricter = upper ? lit < *existing : lit > *existing;
      if (!stricter) return Narrowed::ok;
    }
    set_keyword(node, key, key, lit);
    return Narrowed::ok;
  }
  if (t == "boolean" && literal.is_boolean() && (op == Op::eq || op == Op::ne)) {
    set_keyword(node, "const", "const", op == Op::eq ? literal.get<bool>() : !literal.get<bool>());
    return Narrowed::ok;
  }
  if (t == "string" && literal.is_string() && op == Op::eq) {
    set_keyword(node, "const", "const", lit);
    return Narrowed::ok;
  }
  return Narrowed::inexpressible;
}

// Narrows a property schema; with `allow_null`, null (the field left out) still passes.
Narrowed narrow(ojson& property, Op op, const nlohmann::json& literal, bool allow_null) {
  if (literal.is_null()) return Narrowed::inexpressible;
  if (const auto inner = nullable_inner(property)) {
    ojson value = property["anyOf"][*inner];
    const auto result = narrow_value(value, op, literal);
    if (result == Narrowed::inexpressible) return result;
    if (result == Narrowed::impossible) {
      if (!allow_null) return result;
      set_keyword(property, "anyOf", "type", "null");
      return Narrowed::ok;
    }
    if (allow_null) {
      property["anyOf"][*inner] = std::move(value);
    } else {
      // The field must hold a value here: the non-null branch alone, keeping the wrapper's words.
      for (const char* key : {"description", "default", "examples"}) {
        if (property.contains(key)) value[key] = property[key];
      }
      property = std::move(value);
    }
    return Narrowed::ok;
  }
  return narrow_value(property, op, literal);
}

ojson* property_of(ojson& branch, const std::string& name) {
  auto properties = branch.find("properties");
  if (properties == branch.end() || !properties->is_object() || !properties->contains(name)) {
    return nullptr;
  }
  return &(*properties)[name];
}

std::string narrowing_limit(const std::string& field_name) {
  return "OpenAI strict mode has no if/then or not, and " + field_name +
         " cannot be split into anyOf branches (only enum, const, boolean and numeric bounds "
         "can); stated in the description, enforced locally";
}

}  // namespace

void lower_rules_as_conditionals(ojson& schema, ReportWriter report, const std::string& stage) {
  ConditionalRules(report, stage).walk(schema, Path{});
}

ojson lower_rules_as_branches(const ojson& raw, ojson out, const Path& path, ReportWriter report,
                              const std::string& stage) {
  const auto rules = read_rules(raw);
  std::optional<ojson> description;
  if (auto it = out.find("description"); it != out.end()) {
    description = *it;
    out.erase(it);
  }
  std::vector<ojson> branches{out};
  std::vector<Outcome> outcomes;
  bool conditional = false;
  for (const auto& rule : rules) {
    Outcome outcome;
    if (auto fixed = words_only(rule)) {
      outcomes.push_back(*fixed);
      continue;
    }
    const auto& req = rule->requirement;
    const auto* cond = rule->condition ? &*rule->condition : nullptr;
    if (field_segments(req.left).size() > 1 ||
        (cond != nullptr && field_segments(cond->left).size() > 1)) {
      outcome.why =
          "OpenAI strict mode has no if/then; rules on nested fields stay in the description, "
          "enforced locally";
      outcomes.push_back(std::move(outcome));
      continue;
    }
    std::vector<ojson> next;
    std::string blocked;
    // Narrows a copy of `branch` by each step and keeps it unless a step makes it impossible;
    // false when a step cannot be written with the subset's keywords.
    struct Step {
      const Comparison* comparison;
      Op op;
      bool allow_null;
    };
    auto keep = [&](ojson candidate, std::initializer_list<Step> steps) {
      for (const auto& step : steps) {
        const auto& c = *step.comparison;
        ojson* property = property_of(candidate, c.left);
        const Narrowed result = property != nullptr
                                    ? narrow(*property, step.op, c.right.literal(), step.allow_null)
                                    : Narrowed::inexpressible;
        if (result == Narrowed::inexpressible) {
          blocked = c.left;
          return false;
        }
        if (result == Narrowed::impossible) return true;
      }
      next.push_back(std::move(candidate));
      return true;
    };
    for (const auto& branch : branches) {
      // A conditional: one branch where it applies (the requirement too), one where it does not
      // (an absent field, null here, leaves it unmet).
      const bool ok = cond != nullptr
                          ? keep(branch, {{cond, cond->op, false}, {&req, req.op, true}}) &&
                                keep(branch, {{cond, negated(cond->op), true}})
                          : keep(branch, {{&req, req.op, true}});
      if (!ok) break;
    }
    if (!blocked.empty()) {
      outcome.why = narrowing_limit(blocked);
    } else if (next.empty()) {
      outcome.why =
          "no value of the object can satisfy this rule; stated in the description, "
          "enforced locally";
    } else if (next.size() > kMaxBranches) {
      outcome.why = "compiling this rule would need more than " + std::to_string(kMaxBranches) +
                    " anyOf branches; stated in the description, enforced locally";
    } else {
      branches = std::move(next);
      conditional = conditional || cond != nullptr;
      outcome = {Fate::keyword, cond != nullptr ? "anyOf" : "properties",
                 cond != nullptr
                     ? "OpenAI strict mode has no if/then; sent as anyOf branches over the object "
                       "so the decoder enforces it (also stated in the description), enforced "
                       "locally"
                     : "sent as a constraint on the field (also stated in the description), "
                       "enforced locally"};
    }
    outcomes.push_back(std::move(outcome));
  }
  record(report, path, rules, raw, outcomes, stage);

  ojson result;
  if (branches.size() == 1 && !conditional) {
    if (!description) return std::move(branches.front());
    // Back after "type", where emit() puts it.
    result = ojson::object();
    for (auto& [k, v] : branches.front().items()) {
      result[k] = std::move(v);
      if (k == "type") result["description"] = *description;
    }
    if (!result.contains("description")) result["description"] = *description;
    return result;
  }
  result = ojson::object();
  result["anyOf"] = ojson(branches);
  if (description) result["description"] = *description;
  return result;
}

void lower_rules_described(const ojson& raw, const Path& path, ReportWriter report,
                           const std::string& stage, const std::string& family) {
  const auto rules = read_rules(raw);
  std::vector<Outcome> outcomes;
  for (const auto& rule : rules) {
    Outcome outcome;
    if (auto fixed = words_only(rule)) {
      outcome = *fixed;
    } else {
      outcome.why = family +
                    " have no if/then and no keywords relating fields; stated in the "
                    "description, enforced locally";
    }
    outcomes.push_back(std::move(outcome));
  }
  record(report, path, rules, raw, outcomes, stage);
}

}  // namespace accord::detail
