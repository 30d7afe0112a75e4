// One limit on schema nesting, in one set of words, whoever reads the schema: the engine
// (Validator::from_json_schema) and the import of a file (import_json_schema).

#include <gtest/gtest.h>

#include <string>

#include "accord/json_schema_file.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

// `levels` schemas inside one another through `not`, the innermost a plain string schema.
ojson nested(int levels) {
  ojson schema = {{"type", "string"}};
  for (int i = 0; i < levels; ++i) schema = ojson{{"not", std::move(schema)}};
  return schema;
}

template <class Read>
std::string problem_of(Read read) {
  try {
    read();
  } catch (const SchemaError& e) {
    return e.what();
  }
  return "";
}

TEST(SchemaDepth, TheEngineAndTheImportRefuseTheSameDepthInTheSameWords) {
  const ojson deep = nested(257);
  const auto engine = problem_of([&] { (void)Validator::from_json_schema(deep); });
  const auto import = problem_of([&] { (void)import_json_schema(deep); });
  EXPECT_NE(engine.find("the schema nests deeper than 256 levels"), std::string::npos) << engine;
  EXPECT_NE(import.find("the schema nests deeper than 256 levels"), std::string::npos) << import;
}

TEST(SchemaDepth, AtTheLimitBothReadTheSchema) {
  const ojson deepest = nested(256);
  EXPECT_NO_THROW((void)Validator::from_json_schema(deepest));
  EXPECT_NO_THROW((void)import_json_schema(deepest));
}

}  // namespace
}  // namespace accord
