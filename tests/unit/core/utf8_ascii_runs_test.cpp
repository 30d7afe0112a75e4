// is_valid_utf8 steps over ASCII eight bytes at a time: a bad or multi-byte sequence at any
// place around those steps is still read byte by byte, with the same verdict.
#include <gtest/gtest.h>

#include <string>

#include "core/utf8.hpp"

namespace accord::detail {
namespace {

TEST(Utf8AsciiRuns, ABadByteAtAnyPlaceInALongAsciiTextIsFound) {
  for (std::size_t at = 0; at < 40; ++at) {
    std::string text(40, 'a');
    text[at] = '\xFF';
    EXPECT_FALSE(is_valid_utf8(text)) << at;
  }
}

TEST(Utf8AsciiRuns, AMultiByteSequenceAtAnyPlaceInALongAsciiTextIsValid) {
  for (std::size_t at = 0; at + 3 <= 40; ++at) {
    std::string text(40, 'a');
    text.replace(at, 3, "\xE2\x82\xAC");  // U+20AC
    EXPECT_TRUE(is_valid_utf8(text)) << at;
  }
}

TEST(Utf8AsciiRuns, ASequenceCutAtTheEndOfALongAsciiTextIsInvalid) {
  EXPECT_FALSE(is_valid_utf8(std::string(16, 'a') + "\xE2\x82"));
  EXPECT_TRUE(is_valid_utf8(std::string(16, 'a')));
}

}  // namespace
}  // namespace accord::detail
