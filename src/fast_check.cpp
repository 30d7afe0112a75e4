#include "fast_check.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include "ecma_regex.hpp"
#include "explain.hpp"
#include "rules_detail.hpp"
#include "string_formats.hpp"

namespace accord::detail {

using json = nlohmann::json;
using Verdict = FastCheck::Verdict;

namespace {

// validate()'s limit: deeper values are refused before anything else looks at them.
constexpr std::size_t kMaxValueDepth = 1000;

enum TypeBit : unsigned {
  kNull = 1U << 0U,
  kBoolean = 1U << 1U,
  kInteger = 1U << 2U,
  kNumber = 1U << 3U,
  kString = 1U << 4U,
  kArray = 1U << 5U,
  kObject = 1U << 6U,
};

// Keywords that change nothing about validity (valijson ignores them, or only $ref reads them).
const std::set<std::string>& annotations() {
  static const std::set<std::string> keys = {
      "$schema",          "$comment",    "title",     "description", "default",
      "examples",         "readOnly",    "writeOnly", "deprecated",  "contentEncoding",
      "contentMediaType", "definitions", "$defs"};
  return keys;
}

// validate() hands valijson numbers rewritten (see validate.cpp): integral doubles below 9.2e18
// become integers, unsigned integers above INT64_MAX become doubles. These read the value the
// way valijson then sees it.
bool valijson_integer(const json& number) {
  if (number.is_number_unsigned()) {
    return number.get<std::uint64_t>() <=
           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  }
  if (number.is_number_integer()) return true;
  const double d = number.get<double>();
  return std::trunc(d) == d && std::fabs(d) < 9.2e18;
}

json valijson_number(const json& number) {
  if (valijson_integer(number)) {
    return number.is_number_float() ? json(static_cast<std::int64_t>(number.get<double>()))
                                    : json(number.get<std::int64_t>());
  }
  return json(number.get<double>());
}

unsigned type_of(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return kNull;
    case json::value_t::boolean:
      return kBoolean;
    case json::value_t::string:
      return kString;
    case json::value_t::array:
      return kArray;
    case json::value_t::object:
      return kObject;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return valijson_integer(value) ? (kNumber | kInteger) : kNumber;
    default:
      return 0;
  }
}

// A bound or enum entry as valijson reads it from the schema: doubles, and integers through
// int64 (so an unsigned above INT64_MAX would wrap there; such schemas get no fast check).
std::optional<double> schema_number(const ojson& value) {
  if (!value.is_number()) return std::nullopt;
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return std::nullopt;
  }
  return value.get<double>();
}

bool within_depth(const json& value, std::size_t depth) {
  if (!value.is_structured()) return true;
  if (depth >= kMaxValueDepth) return false;
  for (const auto& child : value) {
    if (!within_depth(child, depth + 1)) return false;
  }
  return true;
}

// emit()'s nullable wrapper, recognised exactly as the explainer recognises it.
const ojson* nullable_inner(const ojson& schema) {
  auto any_of = schema.find("anyOf");
  if (any_of == schema.end() || !any_of->is_array() || any_of->size() != 2) return nullptr;
  const ojson null_only = {{"type", "null"}};
  if ((*any_of)[1] == null_only) return &(*any_of)[0];
  if ((*any_of)[0] == null_only) return &(*any_of)[1];
  return nullptr;
}

struct Unsupported {};

}  // namespace

struct FastCheck::Node {
  struct Property {
    std::string name;
    int node = -1;
    bool required = false;
  };
  enum class Extra { any, none, schema };

  bool never = false;                      // the schema `false`
  int nullable_inner = -1;                 // null passes; anything else must pass this node
  unsigned types = 0;                      // 0: any type
  std::vector<std::vector<json>> options;  // each enum (and const, as one entry) must match
  // strings
  std::vector<std::shared_ptr<const re2::RE2>> patterns;
  std::vector<std::string> pattern_sources;
  std::optional<std::string> format;
  std::optional<std::uint64_t> min_length;
  std::optional<std::uint64_t> max_length;
  // numbers
  std::optional<double> minimum;
  std::optional<double> maximum;
  std::optional<double> exclusive_minimum;
  std::optional<double> exclusive_maximum;
  std::optional<json> multiple_of;
  // arrays
  int items = -1;
  std::optional<std::uint64_t> min_items;
  std::optional<std::uint64_t> max_items;
  // objects
  std::vector<Property> properties;  // sorted by name, as nlohmann iterates an object
  std::size_t required_count = 0;    // of `properties`
  std::vector<std::string> required_undeclared;
  Extra extra = Extra::any;
  int extra_node = -1;
  std::optional<std::uint64_t> min_properties;
  std::optional<std::uint64_t> max_properties;
  // combinators
  std::vector<int> all_of;
  std::vector<int> any_of;
  std::vector<int> one_of;
  // its declarative rules and refinements, run here as the explainer runs them (after the node's
  // own checks, rules first); `rules_schema` gives the rules the properties' defaults
  std::vector<Rule> rules;
  std::shared_ptr<const ojson> rules_schema;
  const SchemaNode* dsl = nullptr;
};

FastCheck::FastCheck() = default;
FastCheck::~FastCheck() = default;

class FastCheckCompiler {
 public:
  FastCheckCompiler(const CompiledSchema& compiled, FastCheck& out)
      : compiled_(compiled), out_(out) {}

  int compile(const ojson& schema, const SchemaNode* dsl) {
    const int index = static_cast<int>(out_.nodes_.size());
    out_.nodes_.emplace_back();  // children are appended after it; filled in at the end
    FastCheck::Node node;
    if (schema.is_boolean()) {
      node.never = !schema.get<bool>();
      node.dsl = dsl != nullptr && !dsl->refinements.empty() ? dsl : nullptr;
    } else if (!schema.is_object()) {
      throw Unsupported{};
    } else if (const ojson* inner = nullable_inner(schema)) {
      // The explainer reads only the anyOf of this wrapper, valijson all of it: keep the two
      // the same by allowing nothing else that checks.
      for (const auto& [key, keyword] : schema.items()) {
        if (key != "anyOf" && annotations().count(key) == 0) throw Unsupported{};
      }
      node.nullable_inner = compile(*inner, dsl);
    } else {
      node.dsl = dsl != nullptr && !dsl->refinements.empty() ? dsl : nullptr;
      for (const auto& [key, keyword] : schema.items()) {
        if (key == kRulesKeyword) {
          rules_into(node, schema);
        } else if (annotations().count(key) == 0) {
          keyword_into(node, key, keyword, dsl);
        }
      }
      finish_string(node);
      finish_object(node);
    }
    out_.nodes_[static_cast<std::size_t>(index)] = std::move(node);
    return index;
  }

 private:
  static std::uint64_t count(const ojson& keyword) {
    if (!keyword.is_number_integer() || keyword.get<std::int64_t>() < 0) throw Unsupported{};
    return keyword.get<std::uint64_t>();
  }

  static double bound(const ojson& keyword) {
    auto number = schema_number(keyword);
    if (!number) throw Unsupported{};
    return *number;
  }

  // Entries compared as valijson's strict equality does: strings, booleans, null and numbers.
  static std::vector<json> options_of(const ojson& list) {
    std::vector<json> out;
    for (const auto& option : list) {
      if (option.is_number()) {
        out.emplace_back(bound(option));
      } else if (option.is_string() || option.is_boolean() || option.is_null()) {
        out.push_back(json::parse(option.dump()));
      } else {
        throw Unsupported{};
      }
    }
    return out;
  }

  void keyword_into(FastCheck::Node& node, const std::string& key, const ojson& keyword,
                    const SchemaNode* dsl) {
    if (key == "type") {
      node.types = types_of(keyword);
    } else if (key == "enum") {
      if (!keyword.is_array()) throw Unsupported{};
      node.options.push_back(options_of(keyword));
    } else if (key == "const") {
      node.options.push_back(options_of(ojson::array({keyword})));
    } else if (key == kPatternKey) {
      auto regex = compiled_.regexes.find(keyword.get<std::string>());
      if (regex == compiled_.regexes.end()) throw Unsupported{};
      node.patterns.push_back(regex->second);
      node.pattern_sources.push_back(regex->first);
    } else if (key == kFormatKey) {
      if (!keyword.is_string()) throw Unsupported{};
      node.format = keyword.get<std::string>();
    } else if (key == kMinLengthKey) {
      node.min_length = count(keyword);
    } else if (key == kMaxLengthKey) {
      node.max_length = count(keyword);
    } else if (key == "minimum") {
      node.minimum = bound(keyword);
    } else if (key == "maximum") {
      node.maximum = bound(keyword);
    } else if (key == "exclusiveMinimum") {
      node.exclusive_minimum = bound(keyword);
    } else if (key == "exclusiveMaximum") {
      node.exclusive_maximum = bound(keyword);
    } else if (key == kMultipleOfKey) {
      (void)bound(keyword);
      node.multiple_of = keyword.is_number_integer() ? json(keyword.get<std::int64_t>())
                                                     : json(keyword.get<double>());
    } else if (key == "items") {
      if (!keyword.is_object() && !keyword.is_boolean()) throw Unsupported{};  // tuples
      node.items = compile(keyword, element(dsl, Kind::array, 0));
    } else if (key == "minItems") {
      node.min_items = count(keyword);
    } else if (key == "maxItems") {
      node.max_items = count(keyword);
    } else if (key == "minProperties") {
      node.min_properties = count(keyword);
    } else if (key == "maxProperties") {
      node.max_properties = count(keyword);
    } else if (key == "properties") {
      if (!keyword.is_object()) throw Unsupported{};
      for (const auto& [name, property] : keyword.items()) {
        node.properties.push_back({name, compile(property, field(dsl, name)), false});
      }
    } else if (key == "required") {
      if (!keyword.is_array()) throw Unsupported{};
      for (const auto& entry : keyword) {
        if (!entry.is_string()) throw Unsupported{};
        node.required_undeclared.push_back(entry.get<std::string>());
      }
    } else if (key == "additionalProperties") {
      if (keyword.is_boolean()) {
        node.extra =
            keyword.get<bool>() ? FastCheck::Node::Extra::any : FastCheck::Node::Extra::none;
      } else {
        node.extra = FastCheck::Node::Extra::schema;
        node.extra_node = compile(keyword, nullptr);
      }
    } else if (key == "allOf") {
      for (const auto& branch : keyword) node.all_of.push_back(compile(branch, nullptr));
    } else if (key == "anyOf" || key == "oneOf") {
      // Refinements inside options decide which option the explainer picks: left to it.
      if (dsl != nullptr && dsl->kind == Kind::union_) {
        for (const auto& element : dsl->elements) {
          if (has_refinements(element.node())) throw Unsupported{};
        }
      }
      auto& into = key == "anyOf" ? node.any_of : node.one_of;
      for (const auto& branch : keyword) into.push_back(compile(branch, nullptr));
    } else {
      throw Unsupported{};  // $ref, not, if/then/else, uniqueItems, contains, dependencies, ...
    }
  }

  static void rules_into(FastCheck::Node& node, const ojson& schema) {
    const ojson& list = schema.at(kRulesKeyword);
    if (!list.is_array()) throw Unsupported{};
    try {
      for (const auto& entry : list) node.rules.push_back(parse_rule(entry));
    } catch (const std::exception&) {
      throw Unsupported{};  // the explainer skips it; simpler to leave the schema to it
    }
    node.rules_schema = std::make_shared<const ojson>(schema);
  }

  static unsigned types_of(const ojson& keyword) {
    std::vector<std::string> names;
    if (keyword.is_string()) {
      names.push_back(keyword.get<std::string>());
    } else if (keyword.is_array()) {
      for (const auto& name : keyword) {
        if (!name.is_string()) throw Unsupported{};
        names.push_back(name.get<std::string>());
      }
    } else {
      throw Unsupported{};
    }
    unsigned out = 0;
    for (const auto& name : names) {
      if (name == "null") {
        out |= kNull;
      } else if (name == "boolean") {
        out |= kBoolean;
      } else if (name == "integer") {
        out |= kInteger;
      } else if (name == "number") {
        out |= kNumber;
      } else if (name == "string") {
        out |= kString;
      } else if (name == "array") {
        out |= kArray;
      } else if (name == "object") {
        out |= kObject;
      } else {
        throw Unsupported{};  // "any" and other draft-3 names
      }
    }
    if (out == 0) throw Unsupported{};
    return out;
  }

  static const SchemaNode* element(const SchemaNode* dsl, Kind kind, std::size_t index) {
    if (dsl == nullptr || dsl->kind != kind || index >= dsl->elements.size()) return nullptr;
    return &dsl->elements[index].node();
  }

  static const SchemaNode* field(const SchemaNode* dsl, const std::string& name) {
    if (dsl == nullptr || dsl->kind != Kind::object) return nullptr;
    for (const auto& f : dsl->fields) {
      if (f.name == name) return &f.schema.node();
    }
    return nullptr;
  }

  // emit() writes the shape of a date beside `format: date` as a pattern; a string that passes
  // accord's date check has that shape, so the regex need not run as well.
  static void finish_string(FastCheck::Node& node) {
    constexpr std::string_view kDateShape = R"(^\d{4}-\d{2}-\d{2}$)";
    if (!node.format || *node.format != "date") return;
    for (std::size_t i = node.patterns.size(); i-- > 0;) {
      if (node.pattern_sources[i] != kDateShape) continue;
      node.patterns.erase(node.patterns.begin() + static_cast<std::ptrdiff_t>(i));
      node.pattern_sources.erase(node.pattern_sources.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

  // Sorts the properties by name (for the merge in FastCheckRun::object) and splits `required`
  // into the declared properties it marks and the names it asks for beyond them.
  static void finish_object(FastCheck::Node& node) {
    std::sort(node.properties.begin(), node.properties.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    std::set<std::string> names(node.required_undeclared.begin(), node.required_undeclared.end());
    node.required_undeclared.clear();
    for (const auto& name : names) {
      auto it = std::find_if(node.properties.begin(), node.properties.end(),
                             [&](const auto& p) { return p.name == name; });
      if (it != node.properties.end()) {
        it->required = true;
        ++node.required_count;
      } else {
        node.required_undeclared.push_back(name);
      }
    }
  }

  const CompiledSchema& compiled_;
  FastCheck& out_;
};

class FastCheckRun {
 public:
  explicit FastCheckRun(const FastCheck& check) : nodes_(check.nodes_) {}

  Verdict check(int index, const json& value, std::size_t depth) const {
    const FastCheck::Node& node = nodes_[static_cast<std::size_t>(index)];
    if (node.never) return Verdict::invalid;
    if (value.is_structured() && depth >= kMaxValueDepth) return Verdict::unsure;
    if (node.nullable_inner >= 0) {
      return value.is_null() ? Verdict::valid : check(node.nullable_inner, value, depth);
    }
    const Verdict verdict = own_keywords(node, value, depth);
    if (verdict != Verdict::valid) return verdict;
    if (value.is_object()) {
      for (const auto& rule : node.rules) {
        if (!rule_holds(rule, value, node.rules_schema.get())) return Verdict::unsure;
      }
    }
    if (node.dsl != nullptr && !(node.dsl->nullable && value.is_null()) &&
        !refined(*node.dsl, value)) {
      return Verdict::unsure;
    }
    return Verdict::valid;
  }

 private:
  static bool refined(const SchemaNode& dsl, const json& value) {
    json storage;
    const json& subject = refinement_subject(dsl, value, storage);
    for (const auto& refinement : dsl.refinements) {
      try {
        if (refinement.predicate && !refinement.predicate(subject)) return false;
      } catch (...) {
        return false;  // the reference path reports it
      }
    }
    return true;
  }

  static bool matches(const std::vector<json>& options, const json& value) {
    for (const auto& option : options) {
      if (option.is_number()) {
        if (value.is_number() && value.get<double>() == option.get<double>()) return true;
      } else if (option.type() == value.type() && option == value) {
        return true;
      }
    }
    return false;
  }

  Verdict own_keywords(const FastCheck::Node& node, const json& value, std::size_t depth) const {
    const unsigned type = type_of(value);
    if (node.types != 0 && (node.types & type) == 0) return Verdict::invalid;
    for (const auto& options : node.options) {
      if (!matches(options, value)) return Verdict::invalid;
    }
    if ((type & kString) != 0) {
      if (!string_ok(node, value.get_ref<const std::string&>())) return Verdict::invalid;
    } else if ((type & kNumber) != 0) {
      if (!number_ok(node, value)) return Verdict::invalid;
    }
    Verdict verdict = Verdict::valid;
    if ((type & kArray) != 0) {
      verdict = array(node, value, depth);
    } else if ((type & kObject) != 0) {
      verdict = object(node, value, depth);
    }
    if (verdict != Verdict::valid) return verdict;
    return combinators(node, value, depth);
  }

  static bool string_ok(const FastCheck::Node& node, const std::string& text) {
    if (node.min_length || node.max_length) {
      const auto length = code_points(text);
      if (node.min_length && length < *node.min_length) return false;
      if (node.max_length && length > *node.max_length) return false;
    }
    for (const auto& regex : node.patterns) {
      if (!regex_search(*regex, text)) return false;
    }
    return !node.format || check_format(*node.format, text).value_or(true);
  }

  // The comparisons valijson makes, on the number as valijson reads it.
  static bool number_ok(const FastCheck::Node& node, const json& value) {
    const double number = value.get<double>();
    if (node.exclusive_minimum && number <= *node.exclusive_minimum) return false;
    if (node.minimum && number < *node.minimum) return false;
    if (node.exclusive_maximum && number >= *node.exclusive_maximum) return false;
    if (node.maximum && number > *node.maximum) return false;
    return !node.multiple_of || is_multiple_of(valijson_number(value), *node.multiple_of);
  }

  Verdict array(const FastCheck::Node& node, const json& value, std::size_t depth) const {
    if (node.min_items && value.size() < *node.min_items) return Verdict::invalid;
    if (node.max_items && value.size() > *node.max_items) return Verdict::invalid;
    for (const auto& item : value) {
      const Verdict verdict = node.items >= 0                 ? check(node.items, item, depth + 1)
                              : within_depth(item, depth + 1) ? Verdict::valid
                                                              : Verdict::unsure;
      if (verdict != Verdict::valid) return verdict;
    }
    return Verdict::valid;
  }

  Verdict object(const FastCheck::Node& node, const json& value, std::size_t depth) const {
    if (node.min_properties && value.size() < *node.min_properties) return Verdict::invalid;
    if (node.max_properties && value.size() > *node.max_properties) return Verdict::invalid;
    for (const auto& name : node.required_undeclared) {
      if (value.find(name) == value.end()) return Verdict::invalid;
    }
    // Both sides are sorted by name: one merge pass pairs members with declared properties.
    const auto& members = value.get_ref<const json::object_t&>();
    auto property = node.properties.begin();
    const auto properties_end = node.properties.end();
    std::size_t required_seen = 0;
    for (const auto& [name, member] : members) {
      while (property != properties_end && property->name < name) ++property;
      Verdict verdict = Verdict::valid;
      if (property != properties_end && property->name == name) {
        if (property->required) ++required_seen;
        verdict = check(property->node, member, depth + 1);
      } else if (node.extra == FastCheck::Node::Extra::none) {
        verdict = Verdict::invalid;
      } else if (node.extra == FastCheck::Node::Extra::schema) {
        verdict = check(node.extra_node, member, depth + 1);
      } else if (!within_depth(member, depth + 1)) {
        verdict = Verdict::unsure;
      }
      if (verdict != Verdict::valid) return verdict;
    }
    return required_seen == node.required_count ? Verdict::valid : Verdict::invalid;
  }

  Verdict combinators(const FastCheck::Node& node, const json& value, std::size_t depth) const {
    for (int branch : node.all_of) {
      const Verdict verdict = check(branch, value, depth);
      if (verdict != Verdict::valid) return verdict;
    }
    if (!node.any_of.empty()) {
      bool unsure = false;
      bool matched = false;
      for (int branch : node.any_of) {
        const Verdict verdict = check(branch, value, depth);
        if (verdict == Verdict::valid) {
          matched = true;
          break;
        }
        unsure = unsure || verdict == Verdict::unsure;
      }
      if (!matched) return unsure ? Verdict::unsure : Verdict::invalid;
    }
    if (!node.one_of.empty()) {
      std::size_t matched = 0;
      for (int branch : node.one_of) {
        const Verdict verdict = check(branch, value, depth);
        if (verdict == Verdict::unsure) return Verdict::unsure;
        if (verdict == Verdict::valid) ++matched;
      }
      if (matched != 1) return Verdict::invalid;
    }
    return Verdict::valid;
  }

  const std::vector<FastCheck::Node>& nodes_;
};

std::shared_ptr<const FastCheck> FastCheck::compile(const CompiledSchema& compiled,
                                                    const SchemaNode* dsl) {
  auto check = std::make_shared<FastCheck>();
  try {
    FastCheckCompiler(compiled, *check).compile(compiled.document, dsl);
  } catch (const Unsupported&) {
    return nullptr;
  } catch (const std::exception&) {
    return nullptr;  // a schema shape not foreseen: the reference path copes
  }
  return check;
}

Verdict FastCheck::judge(const json& value) const {
  return FastCheckRun(*this).check(0, value, 0);
}

}  // namespace accord::detail
