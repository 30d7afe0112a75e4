#include "explain.hpp"

#include <re2/re2.h>

#include <charconv>
#include <cmath>
#include <cstdio>

#include "ecma_regex.hpp"
#include "rules_detail.hpp"
#include "string_formats.hpp"

namespace accord::detail {
namespace {

using json = nlohmann::json;

// Zod 4.x marks unrecognized_keys `continue: true`: extra keys do not stop refinements.
constexpr bool kUnrecognizedKeysAbort = false;
// The pattern emit() adds beside format "date"; not reported again when the date check fails.
constexpr std::string_view kDatePattern = R"(^\d{4}-\d{2}-\d{2}$)";

std::string received(const json* value) {
  if (value == nullptr) return "undefined";
  switch (value->type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::string:
      return "string";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    default:
      return "number";
  }
}

template <class J>
std::string stringify_primitive(const J& value) {
  if (value.is_string()) return "\"" + value.template get<std::string>() + "\"";
  if (value.is_number()) return js_number(json(value));
  if (value.is_boolean()) return value.template get<bool>() ? "true" : "false";
  if (value.is_null()) return "null";
  return value.dump();
}

bool integral(const json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  const double number = value.get<double>();
  return std::isfinite(number) && std::trunc(number) == number;
}

// -1, 0, 1: value against bound, exact for integers, numeric otherwise.
int compare(const json& value, const ojson& bound) {
  if (value.is_number_unsigned() && bound.is_number_unsigned()) {
    const auto a = value.get<std::uint64_t>();
    const auto b = bound.get<std::uint64_t>();
    return a < b ? -1 : (a > b ? 1 : 0);
  }
  if (value.is_number_integer() && !value.is_number_unsigned() && bound.is_number_integer() &&
      !bound.is_number_unsigned()) {
    const auto a = value.get<std::int64_t>();
    const auto b = bound.get<std::int64_t>();
    return a < b ? -1 : (a > b ? 1 : 0);
  }
  const double a = value.get<double>();
  const double b = bound.get<double>();
  return a < b ? -1 : (a > b ? 1 : 0);
}

bool same(const ojson& expected, const json& value) {
  if (expected.is_number() && value.is_number()) return compare(value, expected) == 0;
  if (expected.is_string()) {
    return value.is_string() &&
           expected.get_ref<const std::string&>() == value.get_ref<const std::string&>();
  }
  if (expected.is_boolean()) return value.is_boolean() && expected.get<bool>() == value.get<bool>();
  if (expected.is_null()) return value.is_null();
  if (expected.type() != value.type()) return false;
  return json::parse(expected.dump()) == value;
}

bool type_matches(std::string_view type, const json& value) {
  if (type == "string") return value.is_string();
  if (type == "number") return value.is_number();
  if (type == "integer") return integral(value);
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "array") return value.is_array();
  if (type == "object") return value.is_object();
  return true;
}

// Zod's name for what was expected; a fraction given to an integer is "int" (z.int()).
std::string expected_name(const std::string& type, const json* value) {
  if (type == "integer") return value != nullptr && value->is_number() ? "int" : "number";
  return type;
}

// Unescaped '/' becomes "\/", as JavaScript's RegExp#toString shows the source.
std::string regex_display(const std::string& source) {
  std::string out = "/";
  bool in_class = false;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\' && i + 1 < source.size()) {
      out += c;
      out += source[++i];
      continue;
    }
    if (c == '[') in_class = true;
    if (c == ']') in_class = false;
    if (c == '/' && !in_class) out += '\\';
    out += c;
  }
  return out + "/";
}

// The text of a pattern made only of literal characters and escaped metacharacters (what
// starts_with/ends_with/includes emit); nullopt for a real regular expression.
std::optional<std::string> literal_of(std::string_view source) {
  constexpr std::string_view meta = "^$\\.*+?()[]{}|/";
  std::string out;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\') {
      if (i + 1 >= source.size() || meta.find(source[i + 1]) == std::string_view::npos) {
        return std::nullopt;
      }
      out += source[++i];
    } else if (meta.find(c) != std::string_view::npos) {
      return std::nullopt;
    } else {
      out += c;
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

bool ends_with_anchor(std::string_view source) {
  if (source.empty() || source.back() != '$') return false;
  std::size_t backslashes = 0;
  for (std::size_t i = source.size() - 1; i > 0 && source[i - 1] == '\\'; --i) ++backslashes;
  return backslashes % 2 == 0;
}

std::string pattern_message(const std::string& source) {
  const bool start = !source.empty() && source.front() == '^';
  const bool end = ends_with_anchor(source);
  if (start && !end) {
    if (auto text = literal_of(std::string_view(source).substr(1))) {
      return "Invalid string: must start with \"" + *text + "\"";
    }
  } else if (end && !start) {
    if (auto text = literal_of(std::string_view(source).substr(0, source.size() - 1))) {
      return "Invalid string: must end with \"" + *text + "\"";
    }
  } else if (!start && !end) {
    if (auto text = literal_of(source)) return "Invalid string: must include \"" + *text + "\"";
  }
  return "Invalid string: must match pattern " + regex_display(source);
}

// A keyword of a schema object. A plain scan with length-first comparisons: nlohmann's find()
// would build a std::string key (and allocate for the long ones) on every call.
const ojson* find(const ojson& schema, std::string_view key) {
  if (!schema.is_object()) return nullptr;
  for (const auto& [name, value] : schema.get_ref<const ojson::object_t&>()) {
    if (std::string_view(name) == key) return &value;
  }
  return nullptr;
}

// The non-null branch of emit()'s nullable wrapper: anyOf [X, {"type":"null"}] (either order).
const ojson* nullable_inner(const ojson& schema) {
  const ojson* any_of = find(schema, "anyOf");
  if (any_of == nullptr || !any_of->is_array() || any_of->size() != 2) return nullptr;
  const ojson null_only = {{"type", "null"}};
  if ((*any_of)[1] == null_only) return &(*any_of)[0];
  if ((*any_of)[0] == null_only) return &(*any_of)[1];
  return nullptr;
}

const SchemaNode* field_node(const SchemaNode* node, const std::string& name) {
  if (node == nullptr || node->kind != Kind::object) return nullptr;
  for (const auto& field : node->fields) {
    if (field.name == name) return &field.schema.node();
  }
  return nullptr;
}

const SchemaNode* element_node(const SchemaNode* node, Kind kind, std::size_t index) {
  if (node == nullptr || node->kind != kind || index >= node->elements.size()) return nullptr;
  return &node->elements[index].node();
}

class Explainer {
 public:
  Explainer(const CompiledSchema& compiled, std::vector<FoundIssue>& out)
      : compiled_(compiled), out_(out) {}

  void explain(const ojson& raw_schema, const json* value, const Path& path,
               const SchemaNode* node) {
    const ojson& schema = resolve(raw_schema);
    if (const ojson* inner = nullable_inner(schema)) {
      if (value != nullptr && value->is_null()) return;
      explain(*inner, value, path, node);
      return;
    }
    const std::size_t start = out_.size();
    check(schema, value, path, node);
    if (value != nullptr && value->is_object() && schema.is_object() &&
        schema.contains(kRulesKeyword) && !aborted_since(start)) {
      rules(schema, *value, path);
    }
    if (node != nullptr && value != nullptr && !node->refinements.empty() &&
        !(node->nullable && value->is_null()) && !aborted_since(start)) {
      refine(*node, *value, path);
    }
  }

 private:
  const ojson& resolve(const ojson& schema) {
    const ojson* at = &schema;
    for (int hops = 0; hops < 64 && at->is_object(); ++hops) {
      const ojson* ref = find(*at, "$ref");
      if (ref == nullptr || !ref->is_string()) break;
      auto target = compiled_.ref_targets.find(ref->get<std::string>());
      if (target == compiled_.ref_targets.end()) break;
      at = &compiled_.document.at(ojson::json_pointer(target->second));
    }
    return *at;
  }

  bool aborted_since(std::size_t start) const {
    for (std::size_t i = start; i < out_.size(); ++i) {
      if (out_[i].aborting) return true;
    }
    return false;
  }

  void add(IssueCode code, const Path& path, std::string message, bool aborting) {
    out_.push_back(FoundIssue{Issue{code, path, std::move(message)}, aborting, false});
  }

  void invalid_type(const Path& path, const std::string& expected, const json* value) {
    add(IssueCode::invalid_type, path,
        "Invalid input: expected " + expected + ", received " + received(value), true);
  }

  void check(const ojson& schema, const json* value, const Path& path, const SchemaNode* node) {
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) invalid_type(path, "never", value);
      return;
    }
    if (!schema.is_object()) return;

    if (const ojson* options = find(schema, "enum"); options != nullptr && options->is_array()) {
      bool found = false;
      for (const auto& option : *options)
        found = found || (value != nullptr && same(option, *value));
      if (!found) {
        std::string message;
        if (options->size() == 1) {
          message = "Invalid input: expected " + stringify_primitive((*options)[0]);
        } else {
          message = "Invalid option: expected one of ";
          for (std::size_t i = 0; i < options->size(); ++i) {
            message += (i == 0 ? "" : "|") + stringify_primitive((*options)[i]);
          }
        }
        add(IssueCode::invalid_value, path, message, true);
        return;
      }
    }
    if (const ojson* constant = find(schema, "const")) {
      if (value == nullptr || !same(*constant, *value)) {
        add(IssueCode::invalid_value, path,
            "Invalid input: expected " + stringify_primitive(*constant), true);
        return;
      }
    }
    if (const ojson* type = find(schema, "type")) {
      if (!type_ok(*type, value, path)) return;
    }

    if (value == nullptr) {
      const std::size_t start = out_.size();
      unions(schema, value, path, node);
      if (out_.size() == start) {
        add(IssueCode::invalid_type, path,
            "Invalid input: expected nonoptional, received undefined", true);
      }
      return;
    }

    unions(schema, value, path, node);
    if (value->is_array() && !tuple_length_ok(schema, *value, path)) return;

    const bool format_failed = value->is_string() && failed_format(schema, *value);
    bool object_done = false;
    for (const auto& [name, keyword] : schema.get_ref<const ojson::object_t&>()) {
      const std::string_view key = name;
      if (value->is_string()) {
        string_keyword(key, keyword, *value, path, format_failed);
      } else if (value->is_number()) {
        number_keyword(key, keyword, *value, path);
      } else if (value->is_array()) {
        array_keyword(schema, key, keyword, *value, path, node);
      } else if (value->is_object() && !object_done &&
                 (key == "properties" || key == "required" || key == "additionalProperties")) {
        object_done = true;
        object_keywords(schema, *value, path, node);
      }
      if (key == "allOf" && keyword.is_array()) {
        for (const auto& branch : keyword) explain(branch, value, path, nullptr);
      }
    }
  }

  bool type_ok(const ojson& type, const json* value, const Path& path) {
    // The common single type is checked without copying any name.
    if (type.is_string() && value != nullptr &&
        type_matches(type.get_ref<const std::string&>(), *value)) {
      return true;
    }
    std::vector<std::string> types;
    if (type.is_string()) types.push_back(type.get<std::string>());
    if (type.is_array()) {
      for (const auto& entry : type) {
        if (entry.is_string()) types.push_back(entry.get<std::string>());
      }
    }
    if (types.empty()) return true;
    if (value != nullptr) {
      for (const auto& name : types) {
        if (type_matches(name, *value)) return true;
      }
    }
    std::string expected = types.front();
    for (const auto& name : types) {
      if (name != "null") {
        expected = name;
        break;
      }
    }
    invalid_type(path, expected_name(expected, value), value);
    return false;
  }

  // anyOf (other than the nullable wrapper) and oneOf, as z.union and z.discriminatedUnion.
  void unions(const ojson& schema, const json* subject, const Path& path, const SchemaNode* node) {
    if (const ojson* any_of = find(schema, "anyOf"); any_of != nullptr && any_of->is_array()) {
      union_of(*any_of, subject, path, node, false);
    }
    if (const ojson* one_of = find(schema, "oneOf"); one_of != nullptr && one_of->is_array()) {
      if (auto tag = discriminator(*one_of)) {
        discriminated(*one_of, *tag, subject, path, node);
      } else {
        union_of(*one_of, subject, path, node, true);
      }
    }
  }

  void union_of(const ojson& options, const json* value, const Path& path, const SchemaNode* node,
                bool exclusive) {
    std::vector<std::vector<FoundIssue>> results;
    std::size_t matches = 0;
    for (std::size_t i = 0; i < options.size(); ++i) {
      std::vector<FoundIssue> found;
      Explainer(compiled_, found)
          .explain(options[i], value, path, element_node(node, Kind::union_, i));
      if (found.empty()) {
        if (!exclusive) return;
        ++matches;
      }
      results.push_back(std::move(found));
    }
    if (matches == 1) return;
    if (matches == 0) {
      const std::vector<FoundIssue>* only = nullptr;
      std::size_t not_aborted = 0;
      for (const auto& found : results) {
        bool aborted = false;
        for (const auto& issue : found) aborted = aborted || issue.aborting;
        if (!aborted) {
          ++not_aborted;
          only = &found;
        }
      }
      if (not_aborted == 1) {
        out_.insert(out_.end(), only->begin(), only->end());
        return;
      }
    }
    add(IssueCode::invalid_union, path, "Invalid input", true);
  }

  // A property every option fixes with a const: the tag of a discriminated union.
  std::optional<std::string> discriminator(const ojson& options) {
    if (options.empty()) return std::nullopt;
    const ojson& first = resolve(options[0]);
    const ojson* properties = first.is_object() ? find(first, "properties") : nullptr;
    if (properties == nullptr || !properties->is_object()) return std::nullopt;
    for (const auto& [name, property] : properties->items()) {
      bool tag = true;
      for (const auto& raw : options) {
        const ojson& option = resolve(raw);
        const ojson* props = option.is_object() ? find(option, "properties") : nullptr;
        const ojson* prop = props != nullptr && props->is_object() && props->contains(name)
                                ? &resolve((*props)[name])
                                : nullptr;
        if (prop == nullptr || !prop->is_object() || !prop->contains("const")) tag = false;
      }
      if (tag) return name;
    }
    return std::nullopt;
  }

  void discriminated(const ojson& options, const std::string& tag, const json* value,
                     const Path& path, const SchemaNode* node) {
    if (value == nullptr || !value->is_object()) {
      invalid_type(path, "object", value);
      return;
    }
    auto it = value->find(tag);
    if (it != value->end()) {
      for (std::size_t i = 0; i < options.size(); ++i) {
        const ojson& option = resolve(options[i]);
        const ojson& property = resolve(option["properties"][tag]);
        if (same(property["const"], *it)) {
          explain(options[i], value, path, element_node(node, Kind::union_, i));
          return;
        }
      }
    }
    // Zod points a tag that matches no option at the tag itself.
    add(IssueCode::invalid_union, path / tag, "Invalid input", true);
  }

  // z.tuple checks the length first and stops there.
  bool tuple_length_ok(const ojson& schema, const json& value, const Path& path) {
    const ojson* items = find(schema, "items");
    if (items == nullptr || !items->is_array()) return true;
    const ojson* additional = find(schema, "additionalItems");
    const bool closed =
        additional != nullptr && additional->is_boolean() && !additional->get<bool>();
    if (closed && value.size() > items->size()) {
      add(IssueCode::too_big, path,
          "Too big: expected array to have <=" + std::to_string(items->size()) + " items", true);
      return false;
    }
    const ojson* min_items = find(schema, "minItems");
    if (min_items != nullptr && min_items->is_number() &&
        compare(json(value.size()), *min_items) < 0) {
      add(IssueCode::too_small, path,
          "Too small: expected array to have >=" + js_number(json(*min_items)) + " items", true);
      return false;
    }
    return true;
  }

  bool failed_format(const ojson& schema, const json& value) {
    const ojson* format = find(schema, kFormatKey);
    if (format == nullptr || !format->is_string()) return false;
    return !check_format(format->get<std::string>(), value.get_ref<const std::string&>())
                .value_or(true);
  }

  void string_keyword(std::string_view key, const ojson& keyword, const json& value,
                      const Path& path, bool format_failed) {
    const auto& text = value.get_ref<const std::string&>();
    if (key == kMinLengthKey && keyword.is_number()) {
      if (compare(json(code_points(text)), keyword) < 0) {
        add(IssueCode::too_small, path,
            "Too small: expected string to have >=" + js_number(json(keyword)) + " characters",
            false);
      }
    } else if (key == kMaxLengthKey && keyword.is_number()) {
      if (compare(json(code_points(text)), keyword) > 0) {
        add(IssueCode::too_big, path,
            "Too big: expected string to have <=" + js_number(json(keyword)) + " characters",
            false);
      }
    } else if (key == kFormatKey && format_failed) {
      add(IssueCode::invalid_format, path, std::string(format_message(keyword.get<std::string>())),
          false);
    } else if (key == kPatternKey && keyword.is_string()) {
      const auto& source = keyword.get_ref<const std::string&>();
      auto regex = compiled_.regexes.find(source);
      if (regex == compiled_.regexes.end() || regex_search(*regex->second, text)) return;
      if (format_failed && source == kDatePattern) return;
      add(IssueCode::invalid_format, path, pattern_message(source), false);
    }
  }

  void number_keyword(std::string_view key, const ojson& keyword, const json& value,
                      const Path& path) {
    if (!keyword.is_number()) return;
    const std::string bound = js_number(json(keyword));
    if (key == "exclusiveMinimum" && compare(value, keyword) <= 0) {
      add(IssueCode::too_small, path, "Too small: expected number to be >" + bound, false);
    } else if (key == "minimum" && compare(value, keyword) < 0) {
      add(IssueCode::too_small, path, "Too small: expected number to be >=" + bound, false);
    } else if (key == "exclusiveMaximum" && compare(value, keyword) >= 0) {
      add(IssueCode::too_big, path, "Too big: expected number to be <" + bound, false);
    } else if (key == "maximum" && compare(value, keyword) > 0) {
      add(IssueCode::too_big, path, "Too big: expected number to be <=" + bound, false);
    } else if (key == kMultipleOfKey && !is_multiple_of(value, json(keyword))) {
      add(IssueCode::not_multiple_of, path, "Invalid number: must be a multiple of " + bound,
          false);
    }
  }

  void array_keyword(const ojson& schema, std::string_view key, const ojson& keyword,
                     const json& value, const Path& path, const SchemaNode* node) {
    if (key == "items" && keyword.is_array()) {
      const ojson* additional = find(schema, "additionalItems");
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (i < keyword.size()) {
          explain(keyword[i], &value[i], path / i, element_node(node, Kind::tuple, i));
        } else if (additional != nullptr) {
          explain(*additional, &value[i], path / i, nullptr);
        }
      }
    } else if (key == "items") {
      for (std::size_t i = 0; i < value.size(); ++i) {
        explain(keyword, &value[i], path / i, element_node(node, Kind::array, 0));
      }
    } else if (key == "minItems" && keyword.is_number() &&
               compare(json(value.size()), keyword) < 0) {
      add(IssueCode::too_small, path,
          "Too small: expected array to have >=" + js_number(json(keyword)) + " items", false);
    } else if (key == "maxItems" && keyword.is_number() &&
               compare(json(value.size()), keyword) > 0) {
      add(IssueCode::too_big, path,
          "Too big: expected array to have <=" + js_number(json(keyword)) + " items", false);
    } else if (key == "uniqueItems" && keyword.is_boolean() && keyword.get<bool>()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        for (std::size_t j = i + 1; j < value.size(); ++j) {
          if (value[i] == value[j]) {
            add(IssueCode::custom, path, "Invalid input: expected unique items", false);
            return;
          }
        }
      }
    }
  }

  void object_keywords(const ojson& schema, const json& value, const Path& path,
                       const SchemaNode* node) {
    const ojson* properties = find(schema, "properties");
    const ojson* required = find(schema, "required");
    auto is_required = [&](const std::string& name) {
      if (required == nullptr || !required->is_array()) return false;
      for (const auto& entry : *required) {
        if (entry.is_string() && entry.get_ref<const std::string&>() == name) return true;
      }
      return false;
    };
    auto declared = [&](const std::string& name) {
      return properties != nullptr && properties->is_object() && properties->contains(name);
    };
    if (properties != nullptr && properties->is_object()) {
      for (const auto& [name, property] : properties->items()) {
        auto it = value.find(name);
        if (it != value.end()) {
          explain(property, &*it, path / name, field_node(node, name));
        } else if (is_required(name)) {
          explain(property, nullptr, path / name, field_node(node, name));
        }
      }
    }
    if (required != nullptr && required->is_array()) {
      for (const auto& entry : *required) {
        if (!entry.is_string()) continue;
        const auto& name = entry.get_ref<const std::string&>();
        if (!declared(name) && !value.contains(name)) {
          add(IssueCode::invalid_type, path / name,
              "Invalid input: expected nonoptional, received undefined", true);
        }
      }
    }
    const ojson* additional = find(schema, "additionalProperties");
    if (additional == nullptr) return;
    std::vector<std::string> extra;
    for (const auto& [name, item] : value.items()) {
      if (declared(name)) continue;
      if (additional->is_boolean() && !additional->get<bool>()) {
        extra.push_back(name);
      } else if (additional->is_object()) {
        explain(*additional, &item, path / name, nullptr);
      }
    }
    if (!extra.empty()) {
      std::string message = extra.size() == 1 ? "Unrecognized key: " : "Unrecognized keys: ";
      for (std::size_t i = 0; i < extra.size(); ++i) {
        message += (i == 0 ? "\"" : ", \"") + extra[i] + "\"";
      }
      add(IssueCode::unrecognized_keys, path, message, kUnrecognizedKeysAbort);
    }
  }

  // Declarative rules run where an object refinement would, and see defaults filled in too. The
  // document was checked when it was compiled, so a rule that does not parse is skipped.
  void rules(const ojson& schema, const json& value, const Path& path) {
    const ojson& list = schema.at(kRulesKeyword);
    if (!list.is_array()) return;
    for (const auto& entry : list) {
      Rule rule;
      try {
        rule = parse_rule(entry);
      } catch (const std::exception&) {
        continue;
      }
      if (rule_holds(rule, value, &schema)) continue;
      out_.push_back(
          FoundIssue{Issue{IssueCode::custom, path + issue_path(rule), rule.message}, false, true});
    }
  }

  // Zod runs refinements after the node's own checks; the predicate sees defaults filled in.
  void refine(const SchemaNode& node, const json& value, const Path& path) {
    json with_defaults;
    const json& subject = refinement_subject(node, value, with_defaults);
    for (const auto& refinement : node.refinements) {
      std::string message;
      try {
        if (!refinement.predicate || refinement.predicate(subject)) continue;
        message = refinement.message.empty() ? "Invalid input" : refinement.message;
      } catch (const std::exception& e) {
        message = std::string("Refinement failed: ") + e.what();
      } catch (...) {
        message = "Refinement failed: unknown exception";
      }
      out_.push_back(FoundIssue{Issue{IssueCode::custom, path + refinement.options.path, message},
                                false, true});
    }
  }

  const CompiledSchema& compiled_;
  std::vector<FoundIssue>& out_;
};

}  // namespace

std::string js_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return "0";
  if (std::trunc(value) == value && std::fabs(value) < 1e21) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string text(buffer, result.ptr);
  // text is "-d.ddde+XX": shortest round-trip digits and a decimal exponent.
  std::string sign;
  std::size_t at = 0;
  if (text[0] == '-') {
    sign = "-";
    at = 1;
  }
  const auto e = text.find('e');
  std::string digits;
  for (std::size_t i = at; i < e; ++i) {
    if (text[i] != '.') digits += text[i];
  }
  const int exponent = std::stoi(text.substr(e + 1));
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;
  if (k <= n && n <= 21) return sign + digits + std::string(static_cast<std::size_t>(n - k), '0');
  if (0 < n && n <= 21) {
    return sign + digits.substr(0, static_cast<std::size_t>(n)) + "." +
           digits.substr(static_cast<std::size_t>(n));
  }
  if (-6 < n && n <= 0)
    return sign + "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  std::string mantissa = digits.substr(0, 1);
  if (k > 1) mantissa += "." + digits.substr(1);
  return sign + mantissa + "e" + (n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
}

std::string js_number(const nlohmann::json& number) {
  if (number.is_number_unsigned()) return std::to_string(number.get<std::uint64_t>());
  if (number.is_number_integer()) return std::to_string(number.get<std::int64_t>());
  if (number.is_number_float()) return js_number(number.get<double>());
  return number.dump();
}

const json& refinement_subject(const SchemaNode& node, const json& value, json& storage) {
  const json* subject = &value;
  if (node.kind == Kind::object && value.is_object()) {
    for (const auto& field : node.fields) {
      const auto& fallback = field.schema.node().default_value;
      if (!fallback || value.contains(field.name)) continue;
      if (subject == &value) storage = value;
      storage[field.name] = *fallback;
      subject = &storage;
    }
  }
  return *subject;
}

bool has_refinements(const SchemaNode& node) {
  if (!node.refinements.empty()) return true;
  for (const auto& field : node.fields) {
    if (has_refinements(field.schema.node())) return true;
  }
  for (const auto& element : node.elements) {
    if (has_refinements(element.node())) return true;
  }
  return false;
}

void explain(const CompiledSchema& compiled, const ojson& schema, const nlohmann::json* value,
             const Path& path, const SchemaNode* node, std::vector<FoundIssue>& out) {
  Explainer(compiled, out).explain(schema, value, path, node);
}

}  // namespace accord::detail
