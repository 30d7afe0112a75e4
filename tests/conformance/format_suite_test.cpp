// accord's format checks against the official suite's optional/format cases, draft7 and 2020-12.
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

#include "fixtures/suite_files.hpp"
#include "text/string_formats.hpp"

namespace accord::detail {
namespace {

using nlohmann::json;

// The format a suite schema asserts when it is exactly {"format": X} (plus `$schema`).
std::optional<std::string> bare_format(const json& schema) {
  if (!schema.is_object() || !schema.contains("format")) return std::nullopt;
  for (const auto& [key, value] : schema.items()) {
    if (key != "format" && key != "$schema") return std::nullopt;
  }
  return schema["format"].get<std::string>();
}

struct Case {
  std::string format;
  std::string text;
  bool valid;
};

std::vector<Case> string_cases() {
  std::vector<Case> cases;
  for (const auto& file : test::suite_files("optional/format")) {
    for (const auto& group : test::read_suite_file(file)) {
      const auto format = bare_format(group["schema"]);
      if (!format) continue;
      for (const auto& test : group["tests"]) {
        // Non-strings are valid against any format: nothing for check_format to decide.
        if (!test["data"].is_string()) {
          EXPECT_TRUE(test["valid"].get<bool>()) << *format << ": " << test["data"].dump();
          continue;
        }
        cases.push_back({*format, test["data"].get<std::string>(), test["valid"].get<bool>()});
      }
    }
  }
  return cases;
}

TEST(FormatSuite, JsonSchemaRulesPassEveryOptionalFormatCase) {
  if (!test::suite_present()) GTEST_SKIP() << "the JSON-Schema-Test-Suite is not present";
  int passed = 0;
  int failed = 0;
  for (const auto& c : string_cases()) {
    const bool ours = check_format(c.format, c.text, FormatRules::json_schema).value_or(true);
    if (ours == c.valid) {
      ++passed;
    } else {
      ++failed;
      ADD_FAILURE() << c.format << " " << json(c.text).dump() << ": accord says "
                    << (ours ? "valid" : "invalid");
    }
  }
  std::cout << "optional/format string cases (draft7 + 2020-12): " << passed << " pass, " << failed
            << " fail\n";
  EXPECT_GT(passed, 1000);
}

// Where the DSL's formats keep Zod's verdict and the suite reads the RFC differently. Each entry
// is a deliberate difference; a case that starts or stops differing fails this test.
const std::set<std::pair<std::string, std::string>>& zod_differences() {
  static const std::set<std::pair<std::string, std::string>> differences = {
      // Zod's z.iso.datetime()/time() know no leap second; seconds and offset are optional in
      // its time (the suite requires both).
      {"date-time", "1998-12-31T23:59:60Z"},
      {"date-time", "1998-12-31T15:59:60.123-08:00"},
      {"time", "23:59:60Z"},
      {"time", "23:59:60+00:00"},
      {"time", "01:29:60+01:30"},
      {"time", "23:29:60+23:30"},
      {"time", "15:59:60-08:00"},
      {"time", "00:29:60-23:30"},
      {"time", "12:00:00"},
      {"time", "12:00:00.52"},
      // Zod's email is a practical pattern: no quoted local parts, no address literals, no tilde.
      {"email", "te~st@example.com"},
      {"email", "~test@example.com"},
      {"email", "test~@example.com"},
      {"email", "\"joe bloggs\"@example.com"},
      {"email", "\"joe..bloggs\"@example.com"},
      {"email", "\"joe@bloggs\"@example.com"},
      {"email", "joe.bloggs@[127.0.0.1]"},
      {"email", "joe.bloggs@[IPv6:::1]"},
      // Zod's z.uuid() holds RFC 9562 versions 1-8 and the 10xx variant.
      {"uuid", "99c17cbb-656f-f64a-940f-1a4568f03487"},
      {"uuid", "2eb8aa08-aa98-11ea-f4aa-73b441d16380"},
      // Zod's z.url() (WHATWG URL) percent-encodes what RFC 3986 refuses.
      {"uri", "https://example.org/foobar\u00ae.txt"},
      {"uri", "https://[@example.org/test.txt"},
  };
  return differences;
}

TEST(FormatSuite, DslFormatsDifferFromTheSuiteOnlyWhereZodDoes) {
  if (!test::suite_present()) GTEST_SKIP() << "the JSON-Schema-Test-Suite is not present";
  std::set<std::pair<std::string, std::string>> differing;
  for (const auto& c : string_cases()) {
    if (check_format(c.format, c.text).value_or(true) != c.valid) {
      differing.insert({c.format, c.text});
    }
  }
  for (const auto& d : differing) {
    EXPECT_TRUE(zod_differences().contains(d)) << "unlisted: " << d.first << " " << json(d.second);
  }
  for (const auto& d : zod_differences()) {
    EXPECT_TRUE(differing.contains(d)) << "no longer differs: " << d.first << " " << json(d.second);
  }
}

}  // namespace
}  // namespace accord::detail
