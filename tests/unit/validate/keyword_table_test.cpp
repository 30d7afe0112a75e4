// The keyword table (src/validate/keyword_table.hpp) is the one place a keyword's facts are
// written: the engine compiles through it, the import and provider lowering class keywords by it.
// These tests fail when a row is added without the facts the others need, or when what lowering
// tells the Report about a keyword the engine checks is not true.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "accord/json_schema_file.hpp"
#include "accord/providers/provider.hpp"
#include "validate/keyword_table.hpp"

namespace accord {
namespace {

using detail::Holds;
using detail::KeywordRow;
using detail::LoweringClass;
using ojson = nlohmann::ordered_json;

TEST(KeywordTable, EveryRowIsFoundByItsOwnNameAndOnlyOnce) {
  std::set<std::string_view> names;
  for (const auto& row : detail::keyword_rows()) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name << " has two rows";
    EXPECT_EQ(detail::keyword_row(row.name), &row) << row.name;
    EXPECT_NE(row.dialects, 0) << row.name << " belongs to no dialect";
  }
  EXPECT_EQ(detail::keyword_row("x-not-a-keyword"), nullptr);
}

// A keyword the engine checks that lowering leaves off the wire unworded would make the Report
// say "the local rules ignore it" of a rule they enforce. Only the definitions, which check
// nothing until referenced, may be left off.
TEST(KeywordTable, EveryKeywordTheEngineChecksIsSentWordedOrResolvedByLowering) {
  for (const auto& row : detail::keyword_rows()) {
    if (row.compile == nullptr || row.lowering != LoweringClass::not_sent) continue;
    EXPECT_TRUE(row.holds == Holds::schema_map && row.vocabulary == detail::Vocabulary::core)
        << row.name << " is checked by the engine but left off the wire without words";
  }
}

// The import's Report rows "keyword value" are rules a provider keeps, moves or rejects.
TEST(KeywordTable, EveryKeywordTheImportReportsIsKeptOrRejectedByLowering) {
  for (const auto& row : detail::keyword_rows()) {
    if (!row.reported && !row.count) continue;
    EXPECT_TRUE(row.lowering == LoweringClass::kept || row.lowering == LoweringClass::rejected)
        << row.name;
    if (row.count) {
      EXPECT_TRUE(row.reported) << row.name << " is bounded but not reported";
    }
  }
}

// The import walks into every keyword that holds schemas (inlining, depth); the engine must
// compile them too, or a subschema would be walked and never checked.
TEST(KeywordTable, EveryKeywordThatHoldsSchemasIsCompiled) {
  for (const auto& row : detail::keyword_rows()) {
    if (row.holds != Holds::value) {
      EXPECT_NE(row.compile, nullptr) << row.name;
    }
  }
}

// A small value of `row`'s kind, with the keywords it needs beside it to assert anything.
ojson schema_with(const KeywordRow& row) {
  const std::string key(row.name);
  ojson schema = {{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}}}};
  if (key == "then" || key == "else") schema["if"] = {{"required", {"a"}}};
  if (key == "if") schema["then"] = {{"required", {"a"}}};
  if (key == "minContains" || key == "maxContains") schema["contains"] = ojson::object();
  switch (row.holds) {
    case Holds::schema:
    case Holds::schema_or_schemas:
      schema[key] = {{"required", {"a"}}};
      break;
    case Holds::schemas:
      schema[key] = ojson::array({{{"required", {"a"}}}});
      break;
    case Holds::schema_map:
      schema[key] = {{"a", {{"maxLength", 3}}}};
      break;
    case Holds::value:
      schema[key] = key == "dependentRequired"                       ? ojson{{"a", {"b"}}}
                    : key == "$dynamicRef" || key == "$recursiveRef" ? ojson("#")
                    : key == "uniqueItems"                           ? ojson(true)
                                                                     : ojson(1);
      break;
  }
  return schema;
}

// What lowering tells the Report of a keyword no strict provider takes must hold: the engine
// checks every such keyword it compiles, so the rule is "enforced locally", never "ignored".
TEST(KeywordTable, RejectedKeywordsTheEngineChecksAreReportedAsEnforcedLocally) {
  for (const auto& row : detail::keyword_rows()) {
    if (row.compile == nullptr || row.lowering != LoweringClass::rejected) continue;
    const auto imported = import_json_schema(schema_with(row));
    for (const char* name : {"anthropic", "openai-chat"}) {
      const auto wire = make_provider(name)->lower(imported.json, imported.report);
      bool reported = false;
      for (const auto& entry : wire.report.entries()) {
        if (entry.keyword != row.name || entry.stage == "file") continue;
        reported = true;
        EXPECT_NE(entry.fate, Fate::dropped) << row.name << " for " << name << ": " << entry.why;
        EXPECT_NE(entry.why.find("enforced locally"), std::string::npos)
            << row.name << " for " << name << ": " << entry.why;
      }
      EXPECT_TRUE(reported) << row.name << " for " << name << " has no Report row";
    }
  }
}

// A keyword the engine does not check (2020-12's content annotations) is never reported as a
// rule "enforced locally"; a provider that leaves it off the wire says so in a Report row.
TEST(KeywordTable, AnnotationsTheEngineDoesNotCheckAreNeverReportedAsEnforced) {
  for (const auto& row : detail::keyword_rows()) {
    if (row.vocabulary != detail::Vocabulary::content) continue;
    ASSERT_EQ(row.compile, nullptr) << row.name;
    const auto imported = import_json_schema(schema_with(row));
    for (const auto& name : provider_names()) {
      const auto wire = make_provider(name)->lower(imported.json, imported.report);
      const bool sent = wire.schema.dump().find(std::string(row.name)) != std::string::npos;
      bool reported = false;
      for (const auto& entry : wire.report.entries()) {
        if (entry.keyword != row.name) continue;
        reported = true;
        EXPECT_EQ(entry.why.find("enforced"), std::string::npos) << row.name << ": " << entry.why;
      }
      EXPECT_TRUE(sent || reported) << row.name << " left off the wire for " << name << " unsaid";
    }
  }
}

}  // namespace
}  // namespace accord
