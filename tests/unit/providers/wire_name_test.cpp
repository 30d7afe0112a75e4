#include "accord/wire_name.hpp"

#include <gtest/gtest.h>

#include <string>

namespace accord {
namespace {

TEST(WireName, LettersDigitsUnderscoresAndHyphensAreAName) {
  EXPECT_TRUE(is_wire_name("transfer_v2-Final"));
  EXPECT_TRUE(is_wire_name("0"));
  EXPECT_TRUE(is_wire_name(std::string(kMaxWireNameLength, 'a')));
}

TEST(WireName, EmptyAndLongerThan64AreNotNames) {
  EXPECT_FALSE(is_wire_name(""));
  EXPECT_FALSE(is_wire_name(std::string(kMaxWireNameLength + 1, 'a')));
}

TEST(WireName, DotsSpacesAndOtherCharactersAreNotInAName) {
  for (const char* name : {"a.b", "a b", "a/b", "a$b", "a:b", "a\tb"}) {
    EXPECT_FALSE(is_wire_name(name)) << name;
  }
}

// The bytes of "é" in UTF-8, and 0xE9 alone (a letter in Latin-1 locales, where isalnum would
// take it): neither is an ASCII letter.
TEST(WireName, NonAsciiLettersAreNotInANameWhateverTheLocale) {
  EXPECT_FALSE(is_wire_name("caf\xC3\xA9"));
  EXPECT_FALSE(is_wire_name("caf\xE9"));
}

}  // namespace
}  // namespace accord
