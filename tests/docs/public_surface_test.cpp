// The public headers are the API and nothing more: the library's own parts live in src/, and what
// a public class must name for the library (Client::Internals, Report::Writer, Schema::Access,
// Validator::Impl) is declared as an incomplete member, not as a `namespace detail` a user can
// reach into.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace accord {
namespace {

namespace fs = std::filesystem;

const fs::path kInclude = fs::path(ACCORD_SOURCE_DIR) / "include";

TEST(PublicSurface, NoPublicHeaderHoldsANamespaceDetail) {
  // `namespace detail`, `namespace accord::detail` or a use of `detail::`; a name that merely ends
  // in detail (typed_detail) is another matter.
  const std::regex detail(R"((^|[^A-Za-z0-9_])(namespace\s+([A-Za-z0-9_]+::)*detail\b|detail::))");
  int headers = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kInclude / "accord")) {
    if (entry.path().extension() != ".hpp") continue;
    ++headers;
    std::ifstream in(entry.path());
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      const std::string code = line.substr(0, line.find("//"));
      EXPECT_FALSE(std::regex_search(code, detail))
          << fs::relative(entry.path(), kInclude).string() << ":" << number << ": " << line;
    }
  }
  EXPECT_GT(headers, 20) << "the public headers were not found under " << kInclude;
}

}  // namespace
}  // namespace accord
