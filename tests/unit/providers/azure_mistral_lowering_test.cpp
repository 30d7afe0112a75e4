// What azure-openai and mistral send of a JSON Schema (their capability tables through the one
// lowering walk), and that every rule kept off the wire is a Report row in words.

#include <gtest/gtest.h>

#include <algorithm>

#include "accord/json_schema_file.hpp"
#include "accord/providers/provider.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

const ojson kInvoiceFile = ojson::parse(R"({
  "type": "object",
  "properties": {
    "id": {"type": "string", "minLength": 3},
    "amount": {"type": "number", "exclusiveMinimum": 0},
    "issued": {"type": "string", "format": "date"},
    "note": {"type": "string"}
  },
  "required": ["id", "amount", "issued"],
  "additionalProperties": false
})");

WireSchema lowered(const char* provider) {
  auto emitted = import_json_schema(kInvoiceFile);
  return make_provider(provider)->lower(emitted.json, std::move(emitted.report));
}

// The Report row of `keyword` at `property`, or nullptr.
const ReportEntry* row(const WireSchema& wire, const std::string& property,
                       const std::string& keyword) {
  const auto& entries = wire.report.entries();
  const auto found = std::find_if(entries.begin(), entries.end(), [&](const ReportEntry& e) {
    return e.path == Path{property} && e.keyword.find(keyword) != std::string::npos;
  });
  return found == entries.end() ? nullptr : &*found;
}

void expect_in_words(const WireSchema& wire, const std::string& property,
                     const std::string& keyword) {
  const auto& node = wire.schema["properties"][property];
  EXPECT_FALSE(node.contains(keyword)) << node.dump();
  EXPECT_FALSE(node.value("description", "").empty()) << node.dump();
  const auto* entry = row(wire, property, keyword);
  ASSERT_NE(entry, nullptr) << keyword;
  EXPECT_EQ(entry->fate, Fate::description) << keyword;
}

TEST(AzureMistralLowering, BothStateBoundsLengthsAndFormatsInWords) {
  for (const char* provider : {"azure-openai", "mistral"}) {
    SCOPED_TRACE(provider);
    const auto wire = lowered(provider);
    expect_in_words(wire, "amount", "exclusiveMinimum");
    expect_in_words(wire, "id", "minLength");
    expect_in_words(wire, "issued", "format");
  }
}

TEST(AzureMistralLowering, AzureSendsEveryPropertyRequiredAndTheOptionalOneNullable) {
  const auto wire = lowered("azure-openai");
  EXPECT_EQ(wire.schema["required"].size(), 4u);
  EXPECT_EQ(wire.lowering.nulled_optionals, std::vector<Path>{Path{"note"}});
}

TEST(AzureMistralLowering, MistralKeepsTheOptionalPropertyOptional) {
  const auto wire = lowered("mistral");
  EXPECT_EQ(wire.schema["required"], ojson::parse(R"(["id", "amount", "issued"])"));
  EXPECT_TRUE(wire.lowering.nulled_optionals.empty());
  EXPECT_EQ(wire.schema["additionalProperties"], false);
}

}  // namespace
}  // namespace accord
