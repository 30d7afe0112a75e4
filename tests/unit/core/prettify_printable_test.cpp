#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "accord/printable.hpp"

namespace accord {
namespace {

TEST(PrettifyPrintable, EveryLineStartsWithTheIndent) {
  const Issues issues = {{IssueCode::custom, Path{}, "first"},
                         {IssueCode::too_small, Path{"qty"}, "Too small"}};
  EXPECT_EQ(prettify_printable(issues, "  "), "  ✖ first\n  ✖ Too small\n    → at qty");
}

TEST(PrettifyPrintable, ALineBreakInAMessageOrKeyCannotStartALineOfItsOwn) {
  const Issues issues = {{IssueCode::custom, Path{"a\nb"}, "bad\nattempt 2: ok"}};
  const std::string block = prettify_printable(issues, "    ");
  EXPECT_NE(block.find("bad\\nattempt 2: ok"), std::string::npos) << block;
  std::istringstream lines(block);
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_TRUE(line.starts_with("    ")) << line;
  }
  EXPECT_EQ(count, 2);  // the message's line and the path's
}

}  // namespace
}  // namespace accord
