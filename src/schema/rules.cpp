// The rule language: building rules, their text forms, and reading them back (parse_rule,
// parse_comparison). What a rule means for a schema is in rule_checks.cpp, rule_evaluation.cpp
// and rule_wording.cpp.

#include "accord/rules.hpp"

#include <cctype>

#include "accord/schema.hpp"
#include "schema/rule_fields.hpp"
#include "schema/rule_wording.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

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
    if (!detail::field_name_start(peek())) {
      fail("the left side must be a field name, not " + describe_here());
    }
    out.left = field_path();
    if (keyword(out.left)) fail("the left side must be a field name, not " + out.left);
    skip_space();
    out.op = op();
    skip_space();
    if (at_end())
      fail("expected a field or a JSON literal after " + std::string(to_string(out.op)));
    if (detail::field_name_start(peek())) {
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
      if (at_end() || !detail::field_name_start(peek()))
        fail("expected a field name at " + describe_here());
      while (!at_end() && detail::field_name_char(peek())) ++pos_;
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
    } else if (peek() == '-' || detail::ascii_digit(peek())) {
      while (!at_end() &&
             (detail::ascii_alnum(peek()) || peek() == '.' || peek() == '-' || peek() == '+')) {
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
         detail::operand_text(comparison.right);
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

}  // namespace accord
