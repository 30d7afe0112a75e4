#include "accord/path.hpp"

#include <gtest/gtest.h>

namespace accord {
namespace {

TEST(Path, PrintsKeysDottedAndIndexesInBrackets) {
  EXPECT_EQ((Path{"items", std::size_t{0}, "name"}).to_string(), "items[0].name");
}

TEST(Path, QuotesKeysThatAreNotIdentifiers) {
  EXPECT_EQ((Path{"a", "odd key"}).to_string(), R"(a["odd key"])");
}

TEST(Path, RootPrintsEmpty) {
  EXPECT_EQ(Path{}.to_string(), "");
}

TEST(Path, PointerEscapesTildeAndSlash) {
  EXPECT_EQ((Path{"a/b", "c~d", std::size_t{2}}).to_pointer(), "/a~1b/c~0d/2");
}

TEST(Path, SchemaPositionsPrintWithoutDots) {
  EXPECT_EQ((Path{"lines", "[]", "sku"}).to_string(), "lines[].sku");
}

}  // namespace
}  // namespace accord
