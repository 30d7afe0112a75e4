#include "compiled_schema.hpp"

// valijson's headers instantiate std::regex (for keywords accord never hands it); with
// sanitizers on, GCC 12 reports a false maybe-uninitialized inside libstdc++'s regex code.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "accord/schema.hpp"
#include "ecma_regex.hpp"
#include "rules_detail.hpp"
#include "string_formats.hpp"

namespace accord::detail {
namespace {

using valijson::ValidationResults;
using valijson::adapters::Adapter;
using valijson::constraints::Constraint;
using valijson::constraints::PolyConstraint;

// ---- custom constraints: what valijson runs instead of its std::regex-based keywords ----

template <class Derived>
class Poly : public PolyConstraint {
 private:
  Constraint* cloneInto(void* memory) const override {
    return new (memory) Derived(static_cast<const Derived&>(*this));
  }
  size_t sizeOf() const override { return sizeof(Derived); }
};

bool fail(const std::vector<std::string>& context, ValidationResults* results, const char* what) {
  if (results != nullptr) results->pushError(context, what);
  return false;
}

class PatternConstraint final : public Poly<PatternConstraint> {
 public:
  explicit PatternConstraint(std::shared_ptr<const re2::RE2> regex) : regex_(std::move(regex)) {}
  bool validate(const Adapter& target, const std::vector<std::string>& context,
                ValidationResults* results) const override {
    std::string text;
    if (!target.isString() || !target.getString(text)) return true;
    return regex_search(*regex_, text) || fail(context, results, "pattern");
  }

 private:
  std::shared_ptr<const re2::RE2> regex_;
};

class FormatConstraint final : public Poly<FormatConstraint> {
 public:
  explicit FormatConstraint(std::string format) : format_(std::move(format)) {}
  bool validate(const Adapter& target, const std::vector<std::string>& context,
                ValidationResults* results) const override {
    std::string text;
    if (!target.isString() || !target.getString(text)) return true;
    return check_format(format_, text).value_or(true) || fail(context, results, "format");
  }

 private:
  std::string format_;
};

class LengthConstraint final : public Poly<LengthConstraint> {
 public:
  LengthConstraint(std::uint64_t bound, bool minimum) : bound_(bound), minimum_(minimum) {}
  bool validate(const Adapter& target, const std::vector<std::string>& context,
                ValidationResults* results) const override {
    std::string text;
    if (!target.isString() || !target.getString(text)) return true;
    const auto length = code_points(text);
    const bool ok = minimum_ ? length >= bound_ : length <= bound_;
    return ok || fail(context, results, minimum_ ? "minLength" : "maxLength");
  }

 private:
  std::uint64_t bound_;
  bool minimum_;
};

class MultipleOfConstraint final : public Poly<MultipleOfConstraint> {
 public:
  explicit MultipleOfConstraint(nlohmann::json divisor) : divisor_(std::move(divisor)) {}
  bool validate(const Adapter& target, const std::vector<std::string>& context,
                ValidationResults* results) const override {
    nlohmann::json value;
    if (target.isInteger()) {
      value = target.getInteger();
    } else if (target.isDouble()) {
      value = target.getDouble();
    } else {
      return true;
    }
    return is_multiple_of(value, divisor_) || fail(context, results, "multipleOf");
  }

 private:
  nlohmann::json divisor_;
};

using RegexMap = std::unordered_map<std::string, std::shared_ptr<const re2::RE2>>;

class PatternBuilder final : public valijson::ConstraintBuilder {
 public:
  explicit PatternBuilder(const RegexMap* regexes) : regexes_(regexes) {}
  Constraint* make(const Adapter& value) const override {
    return new PatternConstraint(regexes_->at(value.asString()));
  }

 private:
  const RegexMap* regexes_;
};

class FormatBuilder final : public valijson::ConstraintBuilder {
 public:
  Constraint* make(const Adapter& value) const override {
    return new FormatConstraint(value.asString());
  }
};

class MultipleOfBuilder final : public valijson::ConstraintBuilder {
 public:
  Constraint* make(const Adapter& value) const override {
    if (value.isInteger()) return new MultipleOfConstraint(value.getInteger());
    return new MultipleOfConstraint(value.getNumber());
  }
};

class LengthBuilder final : public valijson::ConstraintBuilder {
 public:
  explicit LengthBuilder(bool minimum) : minimum_(minimum) {}
  Constraint* make(const Adapter& value) const override {
    return new LengthConstraint(static_cast<std::uint64_t>(value.asInteger()), minimum_);
  }

 private:
  bool minimum_;
};

// ---- the rewrite ----

std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string percent_decoded(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Later-draft keywords valijson 1.0 does not know: it would skip them and accept anything.
const std::set<std::string>& ignored_keywords() {
  static const std::set<std::string> keywords = {
      "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
      "$dynamicRef",       "$recursiveRef",    "minContains",           "maxContains"};
  return keywords;
}

const std::set<std::string>& single_schema_keywords() {
  static const std::set<std::string> keywords = {"additionalItems",
                                                 "additionalProperties",
                                                 "contains",
                                                 "propertyNames",
                                                 "not",
                                                 "if",
                                                 "then",
                                                 "else"};
  return keywords;
}

const std::set<std::string>& schema_map_keywords() {
  static const std::set<std::string> keywords = {"properties", "definitions", "$defs",
                                                 "dependencies"};
  return keywords;
}

class Rewriter {
 public:
  Rewriter(RegexMap& regexes, std::unordered_map<std::string, std::string>& ref_targets)
      : regexes_(regexes), ref_targets_(ref_targets) {}

  ojson run(const ojson& root) {
    root_ = &root;
    ojson out = rewrite(root, "", Path{});
    resolve_refs();
    if (problems_.empty()) find_cycles();
    if (!problems_.empty()) throw SchemaError(problems_);
    return out;
  }

 private:
  struct Edge {
    std::string to;
    bool ref = false;
    Path path;  // where the $ref is written (for ref edges)
  };

  void problem(const Path& path, std::string message) {
    problems_.push_back(SchemaProblem{path, std::move(message)});
  }

  ojson rewrite(const ojson& node, const std::string& pointer, const Path& path) {
    positions_.insert(pointer);
    if (node.is_boolean()) return node;
    if (!node.is_object()) {
      problem(path, "a schema must be an object or a boolean");
      return node;
    }
    const bool has_prefix_items = node.contains("prefixItems");
    ojson out = ojson::object();
    for (const auto& [key, value] : node.items()) {
      const Path at = path / key;
      if (ignored_keywords().count(key) != 0) {
        problem(at, key + " is not supported (the draft-07 engine would ignore it)");
      } else if (key == "patternProperties") {
        problem(at, "patternProperties is not supported (it would need std::regex per key)");
      } else if (key == "$id" || key == "id") {
        // Dropped: only local "#..." references are supported, so a base URI changes nothing.
      } else if (key == "prefixItems") {
        out["items"] = schema_array(value, pointer, "items", at);
      } else if (key == "items" && has_prefix_items) {
        out["additionalItems"] = child(value, pointer, "additionalItems", at);
      } else if (key == "items") {
        out["items"] = value.is_array() ? schema_array(value, pointer, "items", at)
                                        : child(value, pointer, "items", at);
      } else if (key == "pattern") {
        pattern(value, at);
        out[kPatternKey] = value;
      } else if (key == "format") {
        if (!value.is_string()) problem(at, "format must be a string");
        out[kFormatKey] = value;
      } else if (key == "minLength" || key == "maxLength") {
        out[key == "minLength" ? kMinLengthKey : kMaxLengthKey] = count(value, at, key);
      } else if (key == "multipleOf") {
        if (!value.is_number() || value.get<double>() <= 0)
          problem(at, "multipleOf must be a number above 0");
        out[kMultipleOfKey] = value;
      } else if (key == "minItems" || key == "maxItems" || key == "minProperties" ||
                 key == "maxProperties") {
        out[key] = count(value, at, key);
      } else if (single_schema_keywords().count(key) != 0) {
        out[key] = child(value, pointer, key, at);
      } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
        if (!value.is_array() || value.empty()) problem(at, key + " must be a non-empty array");
        out[key] = schema_array(value, pointer, key, at);
      } else if (schema_map_keywords().count(key) != 0) {
        out[key] = schema_map(value, pointer, key, at);
      } else if (key == "minimum" || key == "maximum" || key == "exclusiveMinimum" ||
                 key == "exclusiveMaximum") {
        // Checked here so the problem names its path (valijson's message does not).
        if (!value.is_number()) problem(at, key + " must be a number");
        out[key] = value;
      } else if (key == "required" || key == "enum") {
        if (!value.is_array() ||
            (key == "required" && std::any_of(value.begin(), value.end(),
                                              [](const ojson& v) { return !v.is_string(); }))) {
          problem(at, key == "required" ? "required must be an array of property names"
                                        : "enum must be an array");
        }
        out[key] = value;
      } else if (key == "type") {
        type_keyword(value, at);
        out[key] = value;
      } else if (key == kRulesKeyword) {
        // Checked now so a bad rule fails at load with its path; the explainer applies them.
        (void)parse_rules(value, node, *root_, at, problems_);
        out[key] = value;
      } else if (key == "$ref") {
        if (!value.is_string()) {
          problem(at, "$ref must be a string");
        } else {
          refs_.push_back({pointer, value.get<std::string>(), at});
        }
        out[key] = value;
      } else {
        out[key] = value;
      }
    }
    return out;
  }

  ojson child(const ojson& value, const std::string& pointer, const std::string& key,
              const Path& path) {
    const std::string to = pointer + "/" + pointer_token(key);
    edges_[pointer].push_back({to});
    return rewrite(value, to, path);
  }

  ojson schema_array(const ojson& value, const std::string& pointer, const std::string& key,
                     const Path& path) {
    if (!value.is_array()) {
      problem(path, key + " must be an array of schemas");
      return value;
    }
    ojson out = ojson::array();
    const std::string base = pointer + "/" + pointer_token(key);
    edges_[pointer].push_back({base});
    positions_.insert(base);
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string to = base + "/" + std::to_string(i);
      edges_[base].push_back({to});
      out.push_back(rewrite(value[i], to, path / i));
    }
    return out;
  }

  ojson schema_map(const ojson& value, const std::string& pointer, const std::string& key,
                   const Path& path) {
    if (!value.is_object()) {
      problem(path, key + " must be an object");
      return value;
    }
    ojson out = ojson::object();
    const std::string base = pointer + "/" + pointer_token(key);
    edges_[pointer].push_back({base});
    positions_.insert(base);
    for (const auto& [name, sub] : value.items()) {
      if (key == "dependencies" && sub.is_array()) {
        out[name] = sub;  // property dependencies: a list of names, not a schema
        continue;
      }
      const std::string to = base + "/" + pointer_token(name);
      edges_[base].push_back({to});
      out[name] = rewrite(sub, to, path / name);
    }
    return out;
  }

  void type_keyword(const ojson& value, const Path& path) {
    static const std::set<std::string> kTypes = {"string", "number", "integer", "boolean",
                                                 "null",   "array",  "object"};
    auto known = [](const ojson& name) {
      return name.is_string() && kTypes.count(name.get<std::string>()) != 0;
    };
    const bool ok =
        value.is_array() ? std::all_of(value.begin(), value.end(), known) : known(value);
    if (!ok) {
      problem(path,
              "type must be one of string, number, integer, boolean, null, array, "
              "object (or a list of them), not " +
                  value.dump());
    }
  }

  void pattern(const ojson& value, const Path& path) {
    if (!value.is_string()) {
      problem(path, "pattern must be a string");
      return;
    }
    const auto source = value.get<std::string>();
    if (regexes_.count(source) != 0) return;
    auto compiled = compile_ecma_regex(source);
    if (!compiled.regex) {
      problem(path, "pattern /" + source + "/ cannot be used: " + compiled.error);
      return;
    }
    regexes_.emplace(source, std::move(compiled.regex));
  }

  // A count keyword as an integer; 2.0 is accepted as 2 (valijson would reject it).
  ojson count(const ojson& value, const Path& path, const std::string& key) {
    if (value.is_number_unsigned() ||
        (value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
      return value;
    }
    if (value.is_number_float()) {
      const double number = value.get<double>();
      if (number >= 0 && std::trunc(number) == number && number < 9.2e18) {
        return static_cast<std::int64_t>(number);
      }
    }
    problem(path, key + " must be a non-negative integer");
    return 0;
  }

  void resolve_refs() {
    for (const auto& ref : refs_) {
      if (ref.target.empty() || ref.target[0] != '#') {
        problem(ref.path,
                "$ref \"" + ref.target + "\": only local references (#/...) are supported");
        continue;
      }
      const std::string fragment = percent_decoded(ref.target.substr(1));
      if (!fragment.empty() && fragment[0] != '/') {
        problem(ref.path,
                "$ref \"" + ref.target + "\": anchors are not supported, use a JSON pointer");
        continue;
      }
      if (positions_.count(fragment) == 0) {
        problem(ref.path,
                "$ref \"" + ref.target + "\" does not point at a schema in this document");
        continue;
      }
      edges_[ref.from].push_back({fragment, true, ref.path});
      ref_targets_[ref.target] = fragment;
    }
  }

  // valijson crashes on $ref cycles and recurses without bound on recursive schemas: reject both.
  void find_cycles() {
    std::map<std::string, int> state;  // 1: on the current path, 2: done
    std::vector<const Edge*> stack;
    std::function<bool(const std::string&)> visit = [&](const std::string& node) {
      state[node] = 1;
      auto it = edges_.find(node);
      if (it != edges_.end()) {
        for (const auto& edge : it->second) {
          const int seen = state[edge.to];
          if (seen == 1) {
            const Edge* blame = edge.ref ? &edge : nullptr;
            for (auto e = stack.rbegin(); blame == nullptr && e != stack.rend(); ++e) {
              if ((*e)->ref) blame = *e;
            }
            problem(blame != nullptr ? blame->path : Path{},
                    "recursive $ref: recursive schemas are not supported");
            return true;
          }
          if (seen == 0) {
            stack.push_back(&edge);
            const bool found = visit(edge.to);
            stack.pop_back();
            if (found) return true;
          }
        }
      }
      state[node] = 2;
      return false;
    };
    visit("");
  }

  struct RefUse {
    std::string from;
    std::string target;
    Path path;
  };

  const ojson* root_ = nullptr;
  RegexMap& regexes_;
  std::unordered_map<std::string, std::string>& ref_targets_;
  std::vector<SchemaProblem> problems_;
  std::set<std::string> positions_;
  std::vector<RefUse> refs_;
  std::map<std::string, std::vector<Edge>> edges_;
};

}  // namespace

namespace {

// Digits after the decimal point in the shortest form that reads back as `value`.
int decimals(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string text(buffer, result.ptr);
  const auto e = text.find('e');
  const auto dot = text.find('.');
  const int fraction = dot == std::string::npos ? 0 : static_cast<int>(e - dot - 1);
  return std::max(0, fraction - std::stoi(text.substr(e + 1)));
}

}  // namespace

bool is_multiple_of(const nlohmann::json& value, const nlohmann::json& divisor) {
  if (value.is_number_integer() && divisor.is_number_integer() && !value.is_number_unsigned() &&
      !divisor.is_number_unsigned()) {
    const auto d = divisor.get<std::int64_t>();
    return d == 0 || value.get<std::int64_t>() % d == 0;
  }
  const double v = value.get<double>();
  const double d = divisor.get<double>();
  if (d == 0 || !std::isfinite(v) || !std::isfinite(d)) return true;
  const int places = std::max(decimals(v), decimals(d));
  if (places <= 15) {
    const double scale = std::pow(10.0, places);
    const double a = std::round(v * scale);
    const double b = std::round(d * scale);
    if (std::fabs(a) < 9e15 && std::fabs(b) < 9e15 && b != 0) return std::fmod(a, b) == 0;
  }
  const double quotient = v / d;
  return std::fabs(quotient - std::round(quotient)) <= 1e-9 * std::max(1.0, std::fabs(quotient));
}

std::size_t code_points(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  }
  return count;
}

CompiledSchema compile_schema(const ojson& json_schema) {
  CompiledSchema out;
  RegexMap regexes;
  out.document = Rewriter(regexes, out.ref_targets).run(json_schema);
  out.regexes = std::move(regexes);

  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  parser.addConstraintBuilder(kPatternKey, new PatternBuilder(&out.regexes));
  parser.addConstraintBuilder(kFormatKey, new FormatBuilder());
  parser.addConstraintBuilder(kMultipleOfKey, new MultipleOfBuilder());
  parser.addConstraintBuilder(kMinLengthKey, new LengthBuilder(true));
  parser.addConstraintBuilder(kMaxLengthKey, new LengthBuilder(false));
  auto schema = std::make_shared<valijson::Schema>();
  try {
    const nlohmann::json plain = nlohmann::json::parse(out.document.dump());
    valijson::adapters::NlohmannJsonAdapter adapter(plain);
    parser.populateSchema(adapter, *schema);
  } catch (const SchemaError&) {
    throw;
  } catch (const std::exception& e) {
    throw SchemaError(
        {SchemaProblem{Path{}, std::string("not a usable JSON Schema: ") + e.what()}});
  }
  out.valijson = std::move(schema);
  return out;
}

bool valijson_accepts(const CompiledSchema& compiled, const nlohmann::json& value,
                      std::vector<std::string>* deepest) {
  valijson::Validator validator;  // per call: valijson's validate() is not const
  valijson::adapters::NlohmannJsonAdapter target(value);
  try {
    if (deepest == nullptr) return validator.validate(*compiled.valijson, target, nullptr);
    ValidationResults results;
    const bool ok = validator.validate(*compiled.valijson, target, &results);
    ValidationResults::Error error;
    std::size_t best = 0;
    while (results.popError(error)) {
      if (error.context.size() > best) {
        best = error.context.size();
        deepest->clear();
        // context[0] is "<root>"; the others are "[key]" or "[index]".
        for (std::size_t i = 1; i < error.context.size(); ++i) {
          const auto& segment = error.context[i];
          deepest->push_back(segment.size() >= 2 ? segment.substr(1, segment.size() - 2) : segment);
        }
      }
    }
    return ok;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace accord::detail
