// The ECMA-262 front end against the official suite: optional/ecmascript-regex.json and the
// required pattern.json and patternProperties.json of draft7 and 2020-12, run through
// compile_ecma_regex and regex_search.
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "fixtures/suite_files.hpp"
#include "text/ecma_regex.hpp"

namespace accord::detail {
namespace {

using nlohmann::json;

bool search(const std::string& pattern, const std::string& text) {
  const auto compiled = compile_ecma_regex(pattern);
  if (!compiled.regex) {
    ADD_FAILURE() << "/" << pattern << "/ does not compile: " << compiled.error;
    return false;
  }
  return regex_search(*compiled.regex, text);
}

bool has_type(const json& value, const std::string& type) {
  if (type == "integer") {
    return value.is_number_integer() ||
           (value.is_number_float() &&
            value.get<double>() == static_cast<long long>(value.get<double>()));
  }
  if (type == "number") return value.is_number();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "object") return value.is_object();
  return value.is_array();
}

// Just the keywords these suite files use around their patterns; anything else fails loudly,
// so the harness cannot silently pass a schema it does not understand.
bool valid(const json& schema, const json& value) {
  if (schema.is_boolean()) return schema.get<bool>();
  for (const auto& [key, rule] : schema.items()) {
    if (key == "$schema") continue;
    if (key == "type") {
      if (!has_type(value, rule.get<std::string>())) return false;
    } else if (key == "maximum") {
      if (value.is_number() && value.get<double>() > rule.get<double>()) return false;
    } else if (key == "pattern") {
      if (value.is_string() && !search(rule.get<std::string>(), value.get<std::string>())) {
        return false;
      }
    } else if (key == "patternProperties" || key == "additionalProperties") {
      if (!value.is_object()) continue;
      const json patterns = schema.value("patternProperties", json::object());
      for (const auto& [name, member] : value.items()) {
        bool matched = false;
        for (const auto& [pattern, subschema] : patterns.items()) {
          if (!search(pattern, name)) continue;
          matched = true;
          if (!valid(subschema, member)) return false;
        }
        if (!matched && schema.contains("additionalProperties") &&
            !valid(schema["additionalProperties"], member)) {
          return false;
        }
      }
    } else {
      ADD_FAILURE() << "the harness does not know keyword " << key;
      return false;
    }
  }
  return true;
}

void expect_suite_files(const std::vector<std::filesystem::path>& files) {
  int passed = 0;
  int failed = 0;
  for (const auto& file : files) {
    for (const auto& group : test::read_suite_file(file)) {
      for (const auto& test : group["tests"]) {
        if (valid(group["schema"], test["data"]) == test["valid"].get<bool>()) {
          ++passed;
        } else {
          ++failed;
          ADD_FAILURE() << file.filename() << ": " << group["description"] << " / "
                        << test["description"];
        }
      }
    }
  }
  std::cout << passed << " pass, " << failed << " fail\n";
  EXPECT_GT(passed, 0);
}

TEST(RegexSuite, EcmascriptRegexCasesPass) {
  if (!test::suite_present()) GTEST_SKIP() << "the JSON-Schema-Test-Suite is not present";
  expect_suite_files(test::suite_files("optional/ecmascript-regex.json"));
}

TEST(RegexSuite, PatternAndPatternPropertiesCasesPass) {
  if (!test::suite_present()) GTEST_SKIP() << "the JSON-Schema-Test-Suite is not present";
  auto files = test::suite_files("pattern.json");
  for (auto& file : test::suite_files("patternProperties.json")) files.push_back(file);
  expect_suite_files(files);
}

}  // namespace
}  // namespace accord::detail
