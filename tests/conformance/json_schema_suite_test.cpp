// The official JSON-Schema-Test-Suite (../shared/json-schema-test-suite) run through the engine:
// every required case of draft-07 and draft 2020-12 must pass; the optional format cases are
// run with formats asserted. Remote references (http://localhost:1234/) resolve to the suite's
// remotes/ directory through the registry, never the network. One process, a few seconds.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "accord/validate.hpp"

namespace accord {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

fs::path suite_dir() {
  if (const char* env = std::getenv("ACCORD_SHARED_DIR"); env != nullptr && *env != '\0') {
    return fs::path(env) / "json-schema-test-suite";
  }
  return fs::path(ACCORD_SHARED_DIR) / "json-schema-test-suite";
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

struct Tally {
  std::size_t passed = 0;
  std::size_t total = 0;
  std::vector<std::string> failures;
};

ordered_json read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return ordered_json::parse(text.str());
}

void run_file(const fs::path& file, Dialect dialect, FormatMode formats, Tally& tally) {
  ValidatorOptions options;
  options.dialect = dialect;
  options.formats = formats;
  options.registry.directories["http://localhost:1234/"] = (suite_dir() / "remotes").string();
  for (const auto& group : read(file)) {
    std::optional<Validator> validator;
    std::string problem;
    try {
      validator = Validator::from_json_schema(group.at("schema"), options);
    } catch (const SchemaError& e) {
      problem = e.what();
    }
    const std::string group_name =
        file.filename().string() + ": " + group.at("description").get<std::string>();
    for (const auto& test : group.at("tests")) {
      ++tally.total;
      const bool expected = test.at("valid").get<bool>();
      const std::string name = group_name + " / " + test.at("description").get<std::string>();
      std::string failure;
      if (!validator) {
        failure = name + " (schema refused: " + problem + ")";
      } else {
        const auto issues = validator->validate(json::parse(test.at("data").dump()));
        if (issues.empty() != expected) {
          failure =
              name + (expected ? " (rejected: " + issues.front().message + ")" : " (accepted)");
        }
      }
      if (failure.empty()) {
        ++tally.passed;
      } else {
        tally.failures.push_back(failure);
      }
    }
  }
}

// Every .json file directly in `dir` (its files carry no `$schema`: the directory says the
// dialect); format.json of 2020-12 in annotation mode, as the specification has it by default.
Tally run_dir(const fs::path& dir, Dialect dialect, bool annotate_format_json) {
  Tally tally;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const bool annotation = annotate_format_json && file.filename() == "format.json";
    run_file(file, dialect, annotation ? FormatMode::annotation : FormatMode::assertion, tally);
  }
  return tally;
}

void report(const std::string& label, const Tally& tally) {
  std::cout << label << ": " << tally.passed << "/" << tally.total << " cases pass";
  std::cout << "\n";
  for (std::size_t i = 0; i < tally.failures.size() && i < 20; ++i) {
    std::cout << "  FAIL " << tally.failures[i] << "\n";
  }
}

void expect_all_required(const Tally& tally) {
  EXPECT_TRUE(tally.failures.empty()) << tally.failures.size() << " required cases fail";
  EXPECT_EQ(tally.passed, tally.total);
}

bool suite_present(const std::string& draft) {
  const auto dir = suite_dir() / "tests" / draft;
  if (fs::is_directory(dir)) return true;
  if (in_ci()) ADD_FAILURE() << "the JSON-Schema-Test-Suite is missing at " << dir;
  return false;
}

TEST(JsonSchemaSuite, EveryRequiredDraft7CasePasses) {
  if (!suite_present("draft7")) GTEST_SKIP() << "the JSON-Schema-Test-Suite is not present";
  const auto tally = run_dir(suite_dir() / "tests" / "draft7", Dialect::draft07, false);
  report("draft7 required", tally);
  EXPECT_GT(tally.total, 900U);
  expect_all_required(tally);
}

TEST(JsonSchemaSuite, EveryRequiredDraft2020_12CasePasses) {
  if (!suite_present("draft2020-12")) GTEST_SKIP() << "the JSON-Schema-Test-Suite is not present";
  const auto tally = run_dir(suite_dir() / "tests" / "draft2020-12", Dialect::draft2020_12, true);
  report("draft2020-12 required", tally);
  EXPECT_GT(tally.total, 1200U);
  expect_all_required(tally);
}

TEST(JsonSchemaSuite, EveryOptionalFormatCasePassesWithFormatsAsserted) {
  for (const char* draft : {"draft7", "draft2020-12"}) {
    const auto dir = suite_dir() / "tests" / draft / "optional" / "format";
    if (!fs::is_directory(dir)) {
      if (in_ci()) ADD_FAILURE() << "the suite's optional format cases are missing at " << dir;
      continue;
    }
    const auto tally = run_dir(
        dir, std::string(draft) == "draft7" ? Dialect::draft07 : Dialect::draft2020_12, false);
    report(std::string(draft) + " optional/format (asserted)", tally);
    EXPECT_GT(tally.total, 600U);
    expect_all_required(tally);
  }
}

}  // namespace
}  // namespace accord
