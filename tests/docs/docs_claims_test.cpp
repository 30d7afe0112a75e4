// What the docs claim about dependencies, maps and usable keywords, held to the code and the
// build files they describe (red-team run 2's newcomer traps).
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>

#include "accord/bounded_file.hpp"
#include "accord/json_schema.hpp"
#include "accord/json_schema_file.hpp"
#include "accord/providers/provider.hpp"

namespace accord {
namespace {

std::string source(const std::string& relative) {
  return read_bounded_file(std::string(ACCORD_SOURCE_DIR) + "/" + relative, {});
}

// The first line of `text` starting with `start` (after leading spaces), or empty.
std::string line_starting(const std::string& text, const std::string& start) {
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = std::min(text.find('\n', at), text.size());
    const auto line = text.substr(at, end - at);
    if (line.find_first_not_of(' ') != std::string::npos &&
        line.substr(line.find_first_not_of(' ')).starts_with(start))
      return line;
    at = end + 1;
  }
  return "";
}

std::set<std::string> words_of(const std::string& line) {
  std::set<std::string> words;
  std::size_t at = 0;
  while ((at = line.find_first_not_of(' ', at)) != std::string::npos) {
    const auto end = std::min(line.find(' ', at), line.size());
    words.insert(line.substr(at, end - at));
    at = end;
  }
  return words;
}

// The Debian package of each dependency accordConfig.cmake looks for with find_dependency (the
// pkg-config ones name theirs in their not-found message).
const std::map<std::string, std::string> kDebianPackageOf = {
    {"nlohmann_json", "nlohmann-json3-dev"},
    {"fmt", "libfmt-dev"},
    {"Boost", "libboost1.81-dev"},
    {"CURL", "libcurl4-openssl-dev"},
    {"PkgConfig", "pkg-config"}};

TEST(DocsClaims, GettingStartedInstallsEveryPackageTheCMakePackageNeeds) {
  const std::string config = source("cmake/accordConfig.cmake.in");
  std::set<std::string> needed;
  const std::regex found(R"(find_dependency\((\w+)|Debian: ([\w.+-]+)\))");
  for (auto it = std::sregex_iterator(config.begin(), config.end(), found);
       it != std::sregex_iterator(); ++it) {
    if ((*it)[2].matched) {
      needed.insert((*it)[2].str());
      continue;
    }
    const auto package = kDebianPackageOf.find((*it)[1].str());
    if (package == kDebianPackageOf.end()) {
      ADD_FAILURE() << "accordConfig.cmake.in needs " << (*it)[1].str()
                    << ": name its Debian package in kDebianPackageOf";
    } else {
      needed.insert(package->second);
    }
  }
  ASSERT_GE(needed.size(), 8u);
  const auto install =
      words_of(line_starting(source("docs/getting-started.md"), "sudo apt-get install "));
  const std::string deps = source("scripts/deps");
  for (const auto& package : needed) {
    EXPECT_EQ(install.count(package), 1u)
        << "docs/getting-started.md's apt-get line lacks " << package;
    EXPECT_NE(deps.find(" " + package), std::string::npos) << "scripts/deps lacks " << package;
  }
}

TEST(DocsClaims, SchemaDslRecordRowStatesTheFateTheReportGives) {
  const auto row = line_starting(source("docs/schema-dsl.md"), "| `record(values)`");
  ASSERT_FALSE(row.empty());
  const auto fate_at = row.find("fate `");
  ASSERT_NE(fate_at, std::string::npos) << row;
  const auto claimed = row.substr(fate_at + 6, row.find('`', fate_at + 6) - fate_at - 6);
  for (const std::string provider : {"openai-chat", "anthropic"}) {
    auto emitted = emit(object({{"prices", record(number())}}));
    const auto wire = make_provider(provider)->lower(emitted.json, std::move(emitted.report));
    bool seen = false;
    for (const auto& entry : wire.report.entries()) {
      if (entry.keyword != "additionalProperties" || entry.stage != provider) continue;
      seen = true;
      EXPECT_EQ(to_string(entry.fate), claimed) << provider << ": " << entry.why;
    }
    EXPECT_TRUE(seen) << provider << " has no additionalProperties entry of its own";
  }
}

TEST(DocsClaims, KeywordsCliMdCallsUsableAreUsable) {
  const std::string cli = source("docs/cli.md");
  const auto start = cli.find("Every\nkeyword of the two drafts is usable (");
  ASSERT_NE(start, std::string::npos);
  const auto claim = cli.substr(start, cli.find(')', start) - start);
  const std::map<std::string, nlohmann::ordered_json> samples = {
      {"patternProperties", {{"^x-", {{"type", "string"}}}}},
      {"dependentRequired", {{"iban", {"bic"}}}},
      {"unevaluatedProperties", false}};
  std::size_t checked = 0;
  for (std::size_t at = claim.find('`'); at != std::string::npos;
       at = claim.find('`', claim.find('`', at + 1) + 1)) {
    const auto keyword = claim.substr(at + 1, claim.find('`', at + 1) - at - 1);
    const auto sample = samples.find(keyword);
    ASSERT_NE(sample, samples.end()) << "give " << keyword << " a sample value here";
    nlohmann::ordered_json schema = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                                     {"type", "object"},
                                     {"properties", {{"iban", {{"type", "string"}}}}}};
    schema[keyword] = sample->second;
    EXPECT_NO_THROW((void)import_json_schema(schema)) << keyword;
    ++checked;
  }
  EXPECT_EQ(checked, samples.size());
}

}  // namespace
}  // namespace accord
