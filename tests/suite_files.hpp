#pragma once
// Reading the official JSON-Schema-Test-Suite (../shared/json-schema-test-suite) in the tests
// that check accord's formats and regex front end against it.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace accord::test {

inline std::filesystem::path suite_tests_dir() {
  std::string shared = ACCORD_SHARED_DIR;
  if (const char* env = std::getenv("ACCORD_SHARED_DIR"); env != nullptr && *env != '\0') {
    shared = env;
  }
  return std::filesystem::path(shared) / "json-schema-test-suite" / "tests";
}

// True when the suite is present. When it is missing under CI=true the oracle must be there, so
// this records a failure; callers then skip: `if (!suite_present()) GTEST_SKIP() << ...;`.
inline bool suite_present() {
  if (std::filesystem::is_directory(suite_tests_dir())) return true;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::string_view(ci) == "true") {
    ADD_FAILURE() << "the JSON-Schema-Test-Suite is missing: " << suite_tests_dir();
  }
  return false;
}

inline nlohmann::json read_suite_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The suite files under `relative` (a directory or one file) of both drafts accord supports.
inline std::vector<std::filesystem::path> suite_files(std::string_view relative) {
  std::vector<std::filesystem::path> files;
  for (const char* draft : {"draft7", "draft2020-12"}) {
    const auto path = suite_tests_dir() / draft / relative;
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        if (entry.path().extension() == ".json") files.push_back(entry.path());
      }
    } else if (std::filesystem::exists(path)) {
      files.push_back(path);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace accord::test
