// The schemas of tests/corpus (real MCP tool schemas from npm and hand-written constructs) through
// import_json_schema and every provider's lowering, without node: none is refused, and each wire
// is itself a schema accord compiles. tests/sdk/corpus.mjs holds the same wires against the SDKs.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "accord/json_schema_file.hpp"
#include "accord/providers/provider.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

TEST(Corpus, EverySchemaLowersForEveryProviderIntoASchemaAccordCompiles) {
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
      ASSERT_NO_THROW(imported = import_json_schema(entry.at("schema"))) << label;
      for (const auto& name : provider_names()) {
        const auto wire = make_provider(name)->lower(imported.json, imported.report);
        EXPECT_NO_THROW((void)Validator::from_json_schema(wire.schema)) << label << " " << name;
      }
    }
  }
  EXPECT_GE(schemas, 100u);
}

}  // namespace
}  // namespace accord
