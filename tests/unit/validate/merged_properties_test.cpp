// An object's members are matched with its declared properties in one pass (both in key order,
// each member compared with the property it names by length and word loads), and a node that
// checks only its own value (a leaf) is judged without the steps of a node with sub-nodes. The
// issues must come out as before: in the order the schema declares its properties (Zod's), each
// member found whatever its key's length, bytes or neighbours.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "accord/json_schema.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using ordered = nlohmann::ordered_json;

// `{"type":"object","properties":{name:{"type":"string"},...},"required":[names...]}`, the
// properties in the order given.
ordered merged_strings_schema(const std::vector<std::string>& names) {
  ordered schema = {{"type", "object"}, {"properties", ordered::object()}};
  for (const auto& name : names) schema["properties"][name] = {{"type", "string"}};
  schema["required"] = names;
  return schema;
}

// Each issue as "pointer: message", in the order reported.
std::vector<std::string> merged_lines(const Issues& issues) {
  std::vector<std::string> lines;
  for (const auto& issue : issues) lines.push_back(issue.path.to_pointer() + ": " + issue.message);
  return lines;
}

// The issues of `text` read as text (a tape whose keys the reader sorted) and of the same value
// as a tree (a tape made by from_json): both must be `expected`.
void expect_merged_issues(const ordered& schema, const std::string& text,
                          const std::vector<std::string>& expected) {
  const Validator validator = Validator::from_json_schema(schema);
  EXPECT_EQ(merged_lines(validator.parse_and_validate(text).issues), expected) << text;
  EXPECT_EQ(merged_lines(validator.validate(nlohmann::json::parse(text))), expected) << text;
}

constexpr const char* kMergedNotString = "Invalid input: expected string, received number";
constexpr const char* kMergedAbsent = "Invalid input: expected string, received undefined";

TEST(MergedProperties, MembersOutOfSchemaOrderAreReportedInSchemaOrder) {
  expect_merged_issues(
      merged_strings_schema({"zeta", "alpha", "mid"}), R"({"mid":1,"alpha":2,"zeta":3})",
      {std::string("/zeta: ") + kMergedNotString, std::string("/alpha: ") + kMergedNotString,
       std::string("/mid: ") + kMergedNotString});
}

TEST(MergedProperties, MissingRequiredBetweenPresentOnesKeepSchemaOrder) {
  expect_merged_issues(merged_strings_schema({"d", "b", "c", "a"}), R"({"c":1,"a":"x"})",
                       {std::string("/d: ") + kMergedAbsent, std::string("/b: ") + kMergedAbsent,
                        std::string("/c: ") + kMergedNotString});
}

TEST(MergedProperties, UnknownMembersAmongDeclaredOnesAreSkippedAndReportedOnce) {
  ordered schema = merged_strings_schema({"m", "b"});
  schema["additionalProperties"] = false;
  expect_merged_issues(schema, R"({"zz":0,"m":"x","a":0,"b":"y","":0,"c":0})",
                       {R"(: Unrecognized keys: "", "a", "c", "zz")"});
  expect_merged_issues(schema, R"({"m":"x","b":"y"})", {});
}

// Keys alike in their first eight bytes (the tape's sort prefix), of each length the word
// compares treat apart (1-3, 4-7, 8-16 and past 16 bytes), and repeated prefixes.
TEST(MergedProperties, KeysSharingPrefixesAreEachFound) {
  const std::vector<std::string> names = {"a",
                                          "aa",
                                          "aaa",
                                          "ab",
                                          "abcd",
                                          "abce",
                                          "abcdefg",
                                          "abcdefgh",
                                          "abcdefghX",
                                          "abcdefghY",
                                          "abcdefghXY",
                                          "abcdefghijklmnop",
                                          "abcdefghijklmnoq",
                                          "abcdefghijklmnopq",
                                          "abcdefghijklmnopr",
                                          "abcdefghijklmnopqrstuvwxyz"};
  ordered schema = merged_strings_schema(names);
  schema["additionalProperties"] = false;
  // Every other name has a number, the rest a string: each issue at its own name only.
  std::string text = "{";
  std::vector<std::string> expected;
  for (std::size_t i = names.size(); i-- > 0;) {  // written in reverse: the reader sorts them
    text += "\"" + names[i] + "\":" + (i % 2 == 0 ? "1" : "\"s\"") + (i == 0 ? "}" : ",");
  }
  for (std::size_t i = 0; i < names.size(); i += 2) {
    expected.push_back("/" + names[i] + ": " + kMergedNotString);
  }
  expect_merged_issues(schema, text, expected);
}

TEST(MergedProperties, AnEmptyKeyIsAProperty) {
  ordered schema = merged_strings_schema({"x", ""});
  schema["additionalProperties"] = false;
  expect_merged_issues(schema, R"({"x":"s","":5})", {std::string("/: ") + kMergedNotString});
  expect_merged_issues(schema, R"({"x":"s"})", {std::string("/: ") + kMergedAbsent});
}

// A byte of 0x80 or more sorts after every ASCII byte (keys order as unsigned bytes).
TEST(MergedProperties, KeysPastAsciiOrderAfterAsciiOnes) {
  ordered schema = merged_strings_schema({"\xC3\xA9t\xC3\xA9", "z", "\xC3\xA9"});
  schema["additionalProperties"] = false;
  expect_merged_issues(
      schema, "{\"z\":1,\"\xC3\xA9\":2,\"\xC3\xA9t\xC3\xA9\":3}",
      {"/\xC3\xA9t\xC3\xA9: " + std::string(kMergedNotString),
       std::string("/z: ") + kMergedNotString, "/\xC3\xA9: " + std::string(kMergedNotString)});
}

// More properties than the one-pass buffer holds: each is looked up, the order the same.
TEST(MergedProperties, ManyPropertiesKeepSchemaOrder) {
  std::vector<std::string> names;
  for (int i = 20; i-- > 0;) names.push_back("p" + std::to_string(i));
  std::string text = "{";
  std::vector<std::string> expected;
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "\"" : ",\"") + names[i] + "\":" + std::to_string(i);
    expected.push_back("/" + names[i] + ": " + kMergedNotString);
  }
  expect_merged_issues(merged_strings_schema(names), text + "}", expected);
}

// A leaf: a string enum compared option by option, each option's length and bytes.
TEST(MergedProperties, StringEnumMatchesWholeOptionsOnly) {
  const ordered schema = ordered::parse(
      R"({"type":"object","properties":{"c":{"type":"string","enum":["EUR","USD","EURO"]}}})");
  const char* wrong = R"(/c: Invalid option: expected one of "EUR"|"USD"|"EURO")";
  for (const char* good : {R"({"c":"EUR"})", R"({"c":"USD"})", R"({"c":"EURO"})"}) {
    expect_merged_issues(schema, good, {});
  }
  for (const char* bad : {R"({"c":"EU"})", R"({"c":"EURX"})", R"({"c":"eur"})", R"({"c":""})"}) {
    expect_merged_issues(schema, bad, {wrong});
  }
  expect_merged_issues(schema, R"({"c":5})", {wrong});
}

// A leaf's units run in order and all report (a worded pass goes on after a failed unit).
TEST(MergedProperties, LeafUnitsAllReportInOrder) {
  const ordered schema = ordered::parse(
      R"({"type":"object","properties":{"n":{"type":"number","minimum":5,"multipleOf":2},)"
      R"("s":{"type":"string","minLength":3,"pattern":"^a"}}})");
  expect_merged_issues(
      schema, R"({"n":3,"s":"b"})",
      {"/n: Too small: expected number to be >=5", "/n: Invalid number: must be a multiple of 2",
       "/s: Too small: expected string to have >=3 characters",
       R"(/s: Invalid string: must start with "a")"});
}

// A leaf judged without a sink (a property of an object under `not`, whose subschema records
// nothing): the leaf's verdict alone decides the `not`.
TEST(MergedProperties, LeafUnderNotDecidesQuietly) {
  const ordered schema = ordered::parse(
      R"({"not":{"type":"object","properties":{"n":{"type":"number","minimum":5}}}})");
  expect_merged_issues(schema, R"({"n":3})", {});
  EXPECT_EQ(Validator::from_json_schema(schema).parse_and_validate(R"({"n":7})").issues.size(), 1U);
}

}  // namespace
}  // namespace accord
