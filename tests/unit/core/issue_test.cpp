#include "accord/issue.hpp"

#include <gtest/gtest.h>

#include "accord/issue_json.hpp"

namespace accord {
namespace {

TEST(IssueCode, PrintsItsZodName) {
  EXPECT_EQ(to_string(IssueCode::invalid_type), "invalid_type");
  EXPECT_EQ(to_string(IssueCode::too_small), "too_small");
  EXPECT_EQ(to_string(IssueCode::too_big), "too_big");
  EXPECT_EQ(to_string(IssueCode::invalid_format), "invalid_format");
  EXPECT_EQ(to_string(IssueCode::not_multiple_of), "not_multiple_of");
  EXPECT_EQ(to_string(IssueCode::invalid_value), "invalid_value");
  EXPECT_EQ(to_string(IssueCode::unrecognized_keys), "unrecognized_keys");
  EXPECT_EQ(to_string(IssueCode::invalid_union), "invalid_union");
  EXPECT_EQ(to_string(IssueCode::custom), "custom");
  EXPECT_EQ(to_string(IssueCode::invalid_json), "invalid_json");
}

TEST(Prettify, RootIssueHasNoPathLine) {
  EXPECT_EQ(prettify({{IssueCode::custom, Path{}, "eur transfers are capped at 500"}}),
            "✖ eur transfers are capped at 500");
}

TEST(Prettify, PathGoesOnAnIndentedArrowLine) {
  EXPECT_EQ(prettify({{IssueCode::too_small, Path{"items", std::size_t{0}, "qty"}, "Too small"}}),
            "✖ Too small\n  → at items[0].qty");
}

TEST(Prettify, ShorterPathsComeFirstAndEqualLengthsKeepTheirOrder) {
  const Issues issues = {
      {IssueCode::invalid_type, Path{"b"}, "second"},
      {IssueCode::custom, Path{"a", "x"}, "deep"},
      {IssueCode::invalid_type, Path{"a"}, "third"},
      {IssueCode::unrecognized_keys, Path{}, "first"},
  };
  EXPECT_EQ(prettify(issues), "✖ first\n✖ second\n  → at b\n✖ third\n  → at a\n✖ deep\n  → at a.x");
}

TEST(Prettify, NoIssuesIsEmptyText) {
  EXPECT_EQ(prettify({}), "");
}

TEST(PrettifyOneLine, JoinsIssuesWithSemicolons) {
  const Issues issues = {
      {IssueCode::invalid_type, Path{"sku"}, "Invalid input: expected string, received number"},
      {IssueCode::unrecognized_keys, Path{}, "Unrecognized key: \"extra\""},
  };
  EXPECT_EQ(prettify_one_line(issues),
            "✖ Unrecognized key: \"extra\"; ✖ Invalid input: expected string, received number → at "
            "sku");
}

TEST(IssuesToJson, ListsCodePathSegmentsAndMessage) {
  const Issues issues = {{IssueCode::too_big, Path{"lines", std::size_t{2}}, "Too big"}};
  EXPECT_EQ(to_json(issues).dump(),
            R"([{"code":"too_big","path":["lines",2],"message":"Too big"}])");
}

std::string tree_dump(const Issues& issues) {
  return to_json(issues).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string appended(const Issues& issues) {
  std::string out = "kept";
  append_json(issues, out);
  return out;
}

TEST(IssuesAppendJson, WritesWhatTheTreesDumpWritesEscapesIncluded) {
  const Issues issues = {
      {IssueCode::too_big, Path{"lines", std::size_t{18446744073709551615ULL}, "q\"t"}, "Too big"},
      {IssueCode::custom, Path{}, std::string("tab\t nl\n cr\r bs\\ ff\f bell\a nul") + '\0'},
      {IssueCode::invalid_value, Path{"caf\xC3\xA9", "\x7F"}, "\xE2\x9C\x96 \"quoted\""},
  };
  EXPECT_EQ(appended(issues), "kept" + tree_dump(issues));
}

TEST(IssuesAppendJson, ReplacesBytesThatAreNotUtf8AsTheTreesDumpDoes) {
  const Issues issues = {
      {IssueCode::invalid_type, Path{"\xFF", std::size_t{0}}, "cut \xE2\x9C then \xC3"},
      {IssueCode::invalid_json, Path{"ok"}, "\xED\xA0\x80 surrogate, \xC0\xAF overlong"},
  };
  EXPECT_EQ(appended(issues), "kept" + tree_dump(issues));
}

TEST(IssuesAppendJson, NoIssuesIsAnEmptyArray) {
  EXPECT_EQ(appended({}), "kept" + tree_dump({}));
}

}  // namespace
}  // namespace accord
