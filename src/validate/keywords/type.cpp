// The keywords any value is checked against first: `type`, `enum` and `const`. A failure ends
// the node (Zod checks the kind of value before anything else).

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/json_number.hpp"
#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {
namespace {

std::string stringify_primitive(const ojson& value) {
  if (value.is_string()) return "\"" + value.get<std::string>() + "\"";
  if (value.is_number()) return js_number(json::parse(value.dump()));
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_null()) return "null";
  return value.dump();
}

// Zod's words for a value outside the enum `options`.
std::string enum_message(const ojson& options) {
  if (options.size() == 1) return "Invalid input: expected " + stringify_primitive(options[0]);
  std::string message = "Invalid option: expected one of ";
  for (std::size_t i = 0; i < options.size(); ++i) {
    message += (i == 0 ? "" : "|") + stringify_primitive(options[i]);
  }
  return message;
}

// The first type that is not "null" (a nullable type names what it wants besides null).
std::string expected_type(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (name != "null") return name;
  }
  return names.front();
}

std::string type_message(const Node& n, const JsonView* v) {
  // Zod's name for what was expected; a fraction given to an integer is "int" (z.int()).
  std::string_view expected = n.type_expected;
  if (expected == "integer") expected = v != nullptr && v->is_number() ? "int" : "number";
  std::string message = "Invalid input: expected ";
  message.reserve(message.size() + expected.size() + 20);
  message += expected;
  message += ", received ";
  message += v == nullptr ? "undefined" : v->type_name();
  return message;
}

}  // namespace

void compile_type(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                  const Path& at) {
  bool ok = value.is_string() || value.is_array();
  std::vector<std::string> names;
  auto add = [&](const ojson& name) {
    const unsigned bit = name.is_string() ? type_named(name.get<std::string>()) : 0;
    if (bit == 0) {
      ok = false;
      return;
    }
    k.node().types |= bit;
    names.push_back(name.get<std::string>());
  };
  if (value.is_array()) {
    for (const auto& name : value) add(name);
  } else if (value.is_string()) {
    add(value);
  }
  if (!names.empty()) k.node().type_expected = expected_type(names);
  if (!ok) {
    k.problem(at,
              "type must be one of string, number, integer, boolean, null, array, object (or "
              "a list of them), not " +
                  value.dump());
  }
}

void compile_enum(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                  const Path& at) {
  if (!value.is_array()) {
    k.problem(at, "enum must be an array");
    return;
  }
  k.node().enum_source = &value;
  k.node().enum_message = enum_message(value);
  for (const auto& option : value) k.node().enum_values.push_back(json::parse(option.dump()));
  if (std::all_of(value.begin(), value.end(), [](const ojson& v) { return v.is_string(); })) {
    std::vector<std::string> strings;
    for (const auto& option : value) strings.push_back(option.get<std::string>());
    k.node().enum_strings.emplace(strings);
  }
}

void compile_const(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                   const Path& /*at*/) {
  k.node().const_source = &value;
  k.node().const_message = "Invalid input: expected " + stringify_primitive(value);
  k.node().const_value = json::parse(value.dump());
}

bool Run::value_kind_ok(const Node& n, const JsonView* v, const Link* at) {
  if (n.enum_source != nullptr) {
    bool found = false;
    if (v != nullptr && n.enum_strings) {
      found = v->is_string() && n.enum_strings->contains(v->get_string());
    } else if (v != nullptr) {
      found = std::any_of(n.enum_values.begin(), n.enum_values.end(),
                          [&](const json& e) { return json_equal(*v, e); });
    }
    if (!found) {
      return fail(IssueCode::invalid_value, at, true, [&] { return n.enum_message; });
    }
  }
  if (n.const_source != nullptr && (v == nullptr || !json_equal(*v, n.const_value))) {
    return fail(IssueCode::invalid_value, at, true, [&] { return n.const_message; });
  }
  if (n.types != 0 && (v == nullptr || !type_matches(n.types, *v))) {
    return fail(IssueCode::invalid_type, at, true, [&] { return type_message(n, v); });
  }
  return true;
}

}  // namespace accord::detail
