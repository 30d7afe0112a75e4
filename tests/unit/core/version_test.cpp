#include "accord/version.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Version, StringIsMajorMinorPatchFromTheNumericMacros) {
  const std::string expected = std::to_string(ACCORD_VERSION_MAJOR) + "." +
                               std::to_string(ACCORD_VERSION_MINOR) + "." +
                               std::to_string(ACCORD_VERSION_PATCH);
  EXPECT_EQ(accord::version(), expected);
  EXPECT_STREQ(ACCORD_VERSION_STRING, expected.c_str());
}

// The changelog must have a section for the version being built, so a release bump cannot forget
// it.
TEST(Version, ChangelogHasASectionForThisVersion) {
  const std::string changelog = read_file(std::string(ACCORD_SOURCE_DIR) + "/CHANGELOG.md");
  ASSERT_FALSE(changelog.empty()) << "CHANGELOG.md is missing or empty";
  EXPECT_NE(changelog.find(std::string("## [") + ACCORD_VERSION_STRING + "]"), std::string::npos);
}

}  // namespace
