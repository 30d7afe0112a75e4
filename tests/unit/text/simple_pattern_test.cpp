#include "text/simple_pattern.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "text/ecma_regex.hpp"

namespace accord::detail {
namespace {

TEST(SimplePattern, TakesAnchoredPatternsOfLiteralsAndClasses) {
  for (const char* pattern : {R"(^ORD-\d{6}$)", "^acct_[a-z0-9]+$", R"(^\d{4}-\d{2}-\d{2}$)",
                              R"(^[A-Z]{2,3}\.\w*$)", "^a?-b*$", "^x[-a]{1,}"}) {
    EXPECT_TRUE(SimplePattern::compile(pattern)) << pattern;
  }
}

TEST(SimplePattern, LeavesEverythingElseToRe2) {
  // Unanchored, alternation, groups, negated classes, `.`, lazy quantifiers, non-ASCII, Annex B
  // braces, and greedy runs that could need to give characters back.
  for (const char* pattern : {"abc", "^a|b$", "^(ab)+$", "^[^a]+$", "^.+$", "^a+?$", "^é$", "^a{$",
                              "^a+a$", R"(^\w+\d$)", "^a*b?c$", R"(^\s$)", "^a$b"}) {
    EXPECT_FALSE(SimplePattern::compile(pattern)) << pattern;
  }
}

// The matcher's verdict is RE2's (through the ECMA-262 front end) on every string tried.
TEST(SimplePattern, AgreesWithRe2OnGeneratedStrings) {
  const std::vector<std::string> patterns = {R"(^ORD-\d{6}$)",
                                             "^acct_[a-z0-9]+$",
                                             R"(^\d{4}-\d{2}-\d{2}$)",
                                             R"(^[A-Z]{2,3}\.\w*$)",
                                             "^a?-b*$",
                                             "^x[-a]{1,}",
                                             R"(^\d{0,2}-)",
                                             "^[a-c_]{2}[0-9]*$",
                                             R"(^\w+-[\d.]+$)",
                                             "^$",
                                             "^",
                                             R"(^\-\/\+{1,2}$)"};
  const std::string alphabet = "aAbcxZ_-./+09\xC3\xA9 ORD";
  std::mt19937 random(12);
  for (const auto& pattern : patterns) {
    const auto simple = SimplePattern::compile(pattern);
    ASSERT_TRUE(simple) << pattern;
    const auto re2 = compile_ecma_regex(pattern);
    ASSERT_TRUE(re2.regex) << pattern;
    for (int i = 0; i < 3000; ++i) {
      std::string text;
      const auto length = random() % 12;
      for (std::size_t j = 0; j < length; ++j) text += alphabet[random() % alphabet.size()];
      // Half of them start from a string the pattern accepts, so matches are tried too.
      if (i % 2 == 0 && pattern == R"(^ORD-\d{6}$)")
        text = "ORD-" + std::to_string(random() % 2000000);
      if (i % 2 == 0 && pattern == "^acct_[a-z0-9]+$") text = "acct_" + text;
      ASSERT_EQ(simple->search(text), regex_search(*re2.regex, text))
          << pattern << " on \"" << text << "\"";
    }
  }
}

}  // namespace
}  // namespace accord::detail
