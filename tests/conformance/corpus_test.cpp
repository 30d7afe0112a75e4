// The schemas of tests/corpus (real MCP tool schemas from npm and hand-written constructs) through
// import_json_schema and every provider's lowering, without node: none is refused, and each wire
// is itself a schema accord compiles. tests/sdk/corpus.mjs holds the same wires against the SDKs.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "accord/json_schema_file.hpp"
#include "accord/providers/provider.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

// Calls `check(label, imported)` on every schema of the corpus; returns how many there are.
template <class Check>
std::size_t for_each_corpus_schema(const Check& check) {
  const std::filesystem::path dir = std::filesystem::path(ACCORD_SOURCE_DIR) / "tests" / "corpus";
  std::size_t schemas = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    if (file.path().extension() != ".json") continue;
    std::ifstream in(file.path());
    const auto corpus = ojson::parse(in);
    for (const auto& entry : corpus.at("schemas")) {
      ++schemas;
      const std::string label = file.path().filename().string() + " " + entry.at("tool").dump();
      EmittedSchema imported;
      try {
        imported = import_json_schema(entry.at("schema"));
      } catch (const std::exception& e) {
        ADD_FAILURE() << label << ": " << e.what();
        continue;
      }
      check(label, imported);
    }
  }
  return schemas;
}

TEST(Corpus, EverySchemaLowersForEveryProviderIntoASchemaAccordCompiles) {
  const auto schemas = for_each_corpus_schema([](const std::string& label, const auto& imported) {
    for (const auto& name : provider_names()) {
      const auto wire = make_provider(name)->lower(imported.json, imported.report);
      EXPECT_NO_THROW((void)Validator::from_json_schema(wire.schema)) << label << " " << name;
    }
  });
  EXPECT_GE(schemas, 100u);
}

// Each provider's Report names every rule once, and every rule the import found is there under
// the same id.
TEST(Corpus, EveryRuleKeepsOneIdInEveryProvidersReport) {
  for_each_corpus_schema([](const std::string& label, const auto& imported) {
    for (const auto& name : provider_names()) {
      const auto report = make_provider(name)->lower(imported.json, imported.report).report;
      std::set<std::string> printed;
      for (const auto& e : report.entries()) {
        EXPECT_TRUE(printed.insert(e.id.to_string()).second)
            << label << " " << name << " " << e.id.to_string();
      }
      for (const auto& rule : imported.report.entries()) {
        const auto* found = report.find(rule.id);
        EXPECT_TRUE(found != nullptr && found->rule == rule.rule)
            << label << " " << name << " " << rule.id.to_string();
      }
    }
  });
}

}  // namespace
}  // namespace accord
