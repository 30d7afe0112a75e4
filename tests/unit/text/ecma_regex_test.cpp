#include "text/ecma_regex.hpp"

#include <gtest/gtest.h>

#include <string>

namespace accord::detail {
namespace {

bool matches(const std::string& pattern, const std::string& text) {
  auto compiled = compile_ecma_regex(pattern);
  EXPECT_TRUE(compiled.regex) << pattern << ": " << compiled.error;
  return compiled.regex && regex_search(*compiled.regex, text);
}

std::string error_of(const std::string& pattern) {
  return compile_ecma_regex(pattern).error;
}

TEST(EcmaRegex, DollarMatchesOnlyAtTheEndNotBeforeAFinalNewline) {
  EXPECT_TRUE(matches(R"(^ORD-\d{6}$)", "ORD-123456"));
  EXPECT_FALSE(matches(R"(^ORD-\d{6}$)", "ORD-123456\n"));
}

TEST(EcmaRegex, SearchIsUnanchored) {
  EXPECT_TRUE(matches("b+", "abbbc"));
}

TEST(EcmaRegex, DigitClassIsAsciiOnly) {
  EXPECT_FALSE(matches(R"(^\d$)", "\u0663"));  // ARABIC-INDIC DIGIT THREE
  EXPECT_TRUE(matches(R"(^\d$)", "3"));
}

TEST(EcmaRegex, UnicodeEscapesBecomeCodePoints) {
  EXPECT_TRUE(matches(R"(^\u00e9$)", "é"));
  EXPECT_TRUE(matches(R"(^\uD83D\uDE00$)", "😀"));
  EXPECT_TRUE(matches(R"(^\u{1F600}$)", "😀"));
}

TEST(EcmaRegex, DotExcludesEveryLineTerminator) {
  EXPECT_FALSE(matches("^.$", "\r"));
  EXPECT_FALSE(matches("^.$", "\u2028"));
  EXPECT_TRUE(matches("^.$", "é"));
}

TEST(EcmaRegex, SpaceClassIncludesVerticalTabAndNoBreakSpace) {
  EXPECT_TRUE(matches(R"(^\s$)", "\v"));
  EXPECT_TRUE(matches(R"(^\s$)", "\u00a0"));
  EXPECT_TRUE(matches(R"(^[\s]$)", "\u00a0"));
  EXPECT_FALSE(matches(R"(^\S$)", "\u00a0"));
}

TEST(EcmaRegex, NonSpaceClassInsideBracketsExcludesEcmaWhitespace) {
  EXPECT_FALSE(matches(R"(^[\S]$)", "\v"));
  EXPECT_FALSE(matches(R"(^[\S]$)", "\u00a0"));
  EXPECT_FALSE(matches(R"(^[\S]$)", "\ufeff"));
  EXPECT_TRUE(matches(R"(^[\S]$)", "x"));
  EXPECT_TRUE(matches(R"(^[^\S]$)", "\u3000"));
}

TEST(EcmaRegex, EmptyClassesMeanNothingAndAnything) {
  EXPECT_FALSE(matches("^[]$", "a"));
  EXPECT_TRUE(matches("^[^]$", "\n"));
}

TEST(EcmaRegex, LoneBracesAreLiterals) {
  EXPECT_TRUE(matches("^a{$", "a{"));
  EXPECT_TRUE(matches("^a{2}$", "aa"));
  EXPECT_TRUE(matches("^}$", "}"));
}

TEST(EcmaRegex, EscapedSlashAndNamedGroupsWork) {
  EXPECT_TRUE(matches(R"(^https?:\/\/)", "http://x"));
  EXPECT_TRUE(matches(R"(^(?<year>\d{4})$)", "2026"));
}

TEST(EcmaRegex, ControlAndNulEscapes) {
  EXPECT_TRUE(matches(R"(^\cJ$)", "\n"));
  EXPECT_TRUE(matches(R"(^a\0b$)", std::string("a\0b", 3)));
}

TEST(EcmaRegex, ClassBackspaceIsBackspace) {
  EXPECT_TRUE(matches(R"(^[\b]$)", "\b"));
  EXPECT_FALSE(matches(R"(^[\b]$)", "b"));
}

TEST(EcmaRegex, LegacyOctalEscapesAreCharacters) {
  EXPECT_TRUE(matches(R"(^\01$)", "\x01"));
  EXPECT_TRUE(matches(R"(^\101$)", "A"));  // no group 1: octal 101
  EXPECT_TRUE(matches(R"(^\08$)", std::string("\0"
                                              "8",
                                              2)));  // NUL, then 8
  EXPECT_TRUE(matches(R"(^\8$)", "8"));
}

TEST(EcmaRegex, InlineFlagsAreSyntaxErrors) {
  EXPECT_FALSE(error_of("(?i)a").empty());
  EXPECT_FALSE(compile_ecma_regex("(?i)a").needs_backtracking);
}

TEST(EcmaRegex, LongUnicodePropertyNamesWork) {
  EXPECT_TRUE(matches(R"(^\p{Letter}+$)", "\u00e9cole"));
  EXPECT_TRUE(matches(R"(^\p{digit}+$)", "\u09ea\u09e8"));
  EXPECT_FALSE(matches(R"(^\p{Lu}$)", "a"));
}

TEST(EcmaRegex, RegexFormatAcceptsBacktrackingSyntaxAndRejectsForeignSyntax) {
  EXPECT_TRUE(is_ecma_regex("(?<=a+)b"));
  EXPECT_TRUE(is_ecma_regex(R"((?<n>a)\k<n>)"));
  EXPECT_TRUE(is_ecma_regex(R"((a)(?!b)\1)"));
  EXPECT_FALSE(is_ecma_regex("(?i)abc"));
  EXPECT_FALSE(is_ecma_regex("(?P<name>x)"));
  EXPECT_FALSE(is_ecma_regex(R"(\a)"));
  EXPECT_FALSE(is_ecma_regex("^(abc]"));
  EXPECT_FALSE(is_ecma_regex("(?=a"));
}

TEST(EcmaRegex, LookaheadRunsOnTheBacktrackingEngine) {
  const char* password = R"(^(?=.*[A-Z])(?=.*\d).{8,}$)";
  EXPECT_TRUE(compile_ecma_regex(password).needs_backtracking);
  EXPECT_TRUE(matches(password, "abcdefG1"));
  EXPECT_FALSE(matches(password, "abcdefg1"));
  EXPECT_FALSE(matches(password, "abcdefgH"));
  EXPECT_TRUE(matches("^(?!.*\\.\\.).+$", "a.b.c"));
  EXPECT_FALSE(matches("^(?!.*\\.\\.).+$", "a..b"));
}

TEST(EcmaRegex, LookbehindRunsOnTheBacktrackingEngine) {
  EXPECT_TRUE(matches("(?<!a)b", "cb"));
  EXPECT_FALSE(matches("(?<!a)b", "ab"));
  EXPECT_TRUE(matches("(?<=\\$)\\d+", "$42"));
}

TEST(EcmaRegex, BackreferencesRunOnTheBacktrackingEngine) {
  EXPECT_TRUE(matches(R"(^(a+)-\1$)", "aa-aa"));
  EXPECT_FALSE(matches(R"(^(a+)-\1$)", "aa-a"));
  EXPECT_TRUE(matches(R"(^(?<q>['"]).*\k<q>$)", "'x'"));
  EXPECT_FALSE(matches(R"(^(?<q>['"]).*\k<q>$)", "'x\""));
  // Group 1 then a literal digit: \g{1} in PCRE2's syntax keeps the digit out of the number.
  EXPECT_TRUE(matches(R"(^(a)\1[0]$)", "aa0"));
}

TEST(EcmaRegex, BacktrackingKeepsEcmaMeaning) {
  // `$` is the very end (not before a final newline), `.` stops at line terminators, and a
  // backreference to a group that did not take part matches the empty string.
  EXPECT_FALSE(matches("^(?=a)a$", "a\n"));
  EXPECT_FALSE(matches("^(?=a).$", "\n"));
  EXPECT_TRUE(matches(R"(^(?:(a)|b)\1$)", "b"));
  EXPECT_TRUE(matches(R"(^(?=\p{Lu})\w+$)", "Abc"));
}

TEST(EcmaRegex, CatastrophicBacktrackingStopsAtTheBudgetAndDoesNotMatch) {
  // Exponential in PCRE2 without a limit; the budget ends it in milliseconds, as no match.
  const std::string text = std::string(40, 'a') + "!";
  EXPECT_FALSE(matches("^(?=(a+)+$)", text));
  EXPECT_FALSE(matches("^(?=(a|aa)+$)", text));
}

TEST(EcmaRegex, SyntaxErrorsAreReported) {
  EXPECT_FALSE(error_of("(a").empty());
  EXPECT_FALSE(error_of("[a").empty());
}

TEST(EcmaRegex, HundredThousandCharactersFinish) {
  const std::string long_text(100'000, 'a');
  EXPECT_TRUE(matches("^[a-z0-9]+$", long_text));
  EXPECT_FALSE(matches("^(a+)+$", long_text + "!"));
}

}  // namespace
}  // namespace accord::detail
