#include "accord/json_text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace accord {
namespace {

std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(ParseJson, ValidTextGivesTheValueAndNoIssues) {
  auto parsed = parse_json(R"({"a":[1,2.5,"x"]})");
  ASSERT_TRUE(parsed.value.has_value());
  EXPECT_TRUE(parsed.issues.empty());
  EXPECT_EQ((*parsed.value)["a"][2], "x");
}

TEST(ParseJson, SyntaxErrorIsOneInvalidJsonIssueWithTheByte) {
  auto parsed = parse_json("[1,]");
  EXPECT_FALSE(parsed.value.has_value());
  ASSERT_EQ(parsed.issues.size(), 1U);
  EXPECT_EQ(parsed.issues[0].code, IssueCode::invalid_json);
  EXPECT_TRUE(parsed.issues[0].path.empty());
  EXPECT_EQ(parsed.issues[0].message,
            "Invalid JSON: unexpected ']' at byte 3 (expected '[', '{', or a literal)");
}

TEST(ParseJson, MessageDoesNotEchoTheUnterminatedString) {
  auto parsed = parse_json("\"secret text that never ends");
  ASSERT_EQ(parsed.issues.size(), 1U);
  EXPECT_EQ(parsed.issues[0].message.find("secret"), std::string::npos);
}

TEST(ParseJson, EmptyTextIsAnIssue) {
  auto parsed = parse_json("  \n");
  ASSERT_EQ(parsed.issues.size(), 1U);
  EXPECT_EQ(parsed.issues[0].message, "Invalid JSON: empty input");
}

TEST(ParseJson, NumberTooLargeForADoubleIsAnIssueNotAnException) {
  ParsedJson parsed;
  EXPECT_NO_THROW(parsed = parse_json(R"({"a": 1e400})"));
  EXPECT_FALSE(parsed.value.has_value());
  ASSERT_EQ(parsed.issues.size(), 1U);
  EXPECT_EQ(parsed.issues[0].code, IssueCode::invalid_json);
  EXPECT_EQ(parsed.issues[0].message, "Invalid JSON: number 1e400 is out of range at byte 6");
}

TEST(ParseJson, HundredThousandDeepTextIsAnIssue) {
  auto parsed = parse_json(nested_arrays(100'000));
  EXPECT_FALSE(parsed.value.has_value());
  ASSERT_EQ(parsed.issues.size(), 1U);
  EXPECT_EQ(parsed.issues[0].message, "Invalid JSON: nested deeper than 256 levels at byte 256");
}

TEST(ParseJson, DepthLimitIsInclusive) {
  EXPECT_TRUE(parse_json(nested_arrays(256)).value.has_value());
  EXPECT_FALSE(parse_json(nested_arrays(257)).value.has_value());
}

TEST(ParseJson, BracketsInsideStringsDoNotCountAsDepth) {
  ParseLimits limits;
  limits.max_depth = 2;
  auto parsed = parse_json(R"({"a": ["[[[[{{{{\"[["]})", limits);
  EXPECT_TRUE(parsed.value.has_value());
}

TEST(ParseJson, TextOverTheSizeLimitIsAnIssue) {
  ParseLimits limits;
  limits.max_bytes = 4;
  auto parsed = parse_json("[1,2,3]", limits);
  EXPECT_FALSE(parsed.value.has_value());
  ASSERT_EQ(parsed.issues.size(), 1U);
  EXPECT_EQ(parsed.issues[0].message, "Invalid JSON: text is 7 bytes, more than the limit of 4");
}

}  // namespace
}  // namespace accord
