// Report entries' stable identities (rule_id.hpp): where the rule sits in the schema and what
// kind it is, the same for every provider and every order of unrelated properties, unique in a
// Report, and the way to find one rule in each provider's Report.

#include "accord/rule_id.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "accord/json_schema.hpp"
#include "accord/providers/provider.hpp"
#include "accord/schema.hpp"
#include "fixtures/schema_problems.hpp"

namespace accord {
namespace {

using testing_schemas::pass;

Schema order(bool reordered) {
  std::vector<Field> fields{
      {"code", string().regex("^ORD-").regex("[0-9]$").refine(pass, "no spaces")},
      {"amount", number().gt(0).lte(1000)},
      {"note", string().max(200).optional().nullable()},
      {"lines", array(object({{"sku", string().length(8)}, {"qty", integer().gte(1)}}))},
      {"tags", record(string().min(1))},
      {"choice", union_({string().email(), tuple({number(), boolean()})})},
  };
  if (reordered) std::reverse(fields.begin(), fields.end());
  return object(std::move(fields)).refine(pass, "code matches lines").refine(pass, "no dupes");
}

WireSchema lowered(const std::string& provider, const EmittedSchema& emitted) {
  return make_provider(provider)->lower(emitted.json, emitted.report);
}

TEST(RuleId, PrintsPointerHashKindAndALaterOrdinal) {
  EXPECT_EQ(RuleId("/properties/amount", "minimum").to_string(), "/properties/amount#minimum");
  EXPECT_EQ(RuleId("/properties/code", "pattern", 1).to_string(), "/properties/code#pattern[1]");
  EXPECT_EQ(RuleId("", "refine").to_string(), "#refine");
}

TEST(RuleId, SchemaPointerSpellsEachStepAsItsKeyword) {
  EXPECT_EQ(schema_pointer(Path{}), "");
  EXPECT_EQ(schema_pointer(Path{"lines", "[]", "sku"}), "/properties/lines/items/properties/sku");
  EXPECT_EQ(schema_pointer(Path{"tags", "{}"}), "/properties/tags/additionalProperties");
  EXPECT_EQ(schema_pointer(Path{"choice", "|1", std::size_t{0}}),
            "/properties/choice/anyOf/1/prefixItems/0");
  EXPECT_EQ(schema_pointer(Path{"a/b~c"}), "/properties/a~1b~0c");
  EXPECT_EQ(schema_pointer(Path{"$defs", "Node", "next"}), "/$defs/Node/properties/next");
}

TEST(RuleId, EqualIdsHashEqualAndOrderTotally) {
  const RuleId a("/properties/a", "pattern");
  const RuleId b("/properties/a", "pattern", 1);
  EXPECT_EQ(std::hash<RuleId>{}(a), std::hash<RuleId>{}(RuleId("/properties/a", "pattern")));
  EXPECT_NE(a, b);
  EXPECT_LT(a, b);
  EXPECT_EQ((std::unordered_set<RuleId>{a, b, a}.size()), 2u);
}

TEST(ReportIds, RepeatedRulesOnOneNodeAreNumberedInTheOrderWritten) {
  const auto report = emit(order(false)).report;
  const auto* second = report.find(RuleId("/properties/code", "pattern", 1));
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->rule, "regex /[0-9]$/");
  const auto* refine = report.find(RuleId("", "refine", 1));
  ASSERT_NE(refine, nullptr);
  EXPECT_EQ(refine->rule, "refine: no dupes");
  EXPECT_EQ(report.find(RuleId("", "refine", 2)), nullptr);
}

TEST(ReportIds, RulesNamedByNoOneKeywordGetTheirKind) {
  const auto report = emit(order(false)).report;
  for (const char* id : {"/properties/lines/items/properties/sku#length",
                         "/properties/choice/anyOf/1#tuple", "/properties/note#nullable",
                         "/properties/choice/anyOf/0#format", "/properties/note#required"}) {
    EXPECT_TRUE(std::any_of(report.entries().begin(), report.entries().end(),
                            [&](const ReportEntry& e) { return e.id.to_string() == id; }))
        << id;
  }
}

TEST(ReportIds, OneRuleHasOneIdForOpenAIAndAnthropic) {
  const auto emitted = emit(order(false));
  const auto openai = lowered("openai-chat", emitted);
  const auto anthropic = lowered("anthropic", emitted);
  for (const auto& rule : emitted.report.entries()) {
    const auto* there = openai.report.find(rule.id);
    const auto* here = anthropic.report.find(rule.id);
    ASSERT_NE(there, nullptr) << rule.id.to_string();
    ASSERT_NE(here, nullptr) << rule.id.to_string();
    EXPECT_EQ(there->rule, rule.rule);
    EXPECT_EQ(here->rule, rule.rule);
  }
  // The same rule, two fates: OpenAI enforces the bound, Anthropic states it in words.
  const RuleId bound("/properties/amount", "exclusiveMinimum");
  EXPECT_EQ(openai.report.find(bound)->fate, Fate::keyword);
  EXPECT_EQ(anthropic.report.find(bound)->fate, Fate::description);
}

TEST(ReportIds, AreUniqueWithinEveryProvidersReport) {
  const auto emitted = emit(order(false));
  for (const auto& name : provider_names()) {
    std::set<std::string> printed;
    const auto wire = lowered(name, emitted);
    for (const auto& e : wire.report.entries()) {
      EXPECT_TRUE(printed.insert(e.id.to_string()).second) << name << " " << e.id.to_string();
    }
  }
}

TEST(ReportIds, ReorderingUnrelatedPropertiesKeepsEveryId) {
  const auto ids = [](bool reordered) {
    std::map<std::string, std::string> out;
    const auto wire = lowered("openai-chat", emit(order(reordered)));
    for (const auto& e : wire.report.entries()) {
      out[e.id.to_string()] = e.rule;
    }
    return out;
  };
  EXPECT_EQ(ids(false), ids(true));
}

TEST(ReportIds, JsonOutputLeadsWithTheId) {
  const auto json = emit(object({{"amount", number().gte(1)}})).report.to_json();
  ASSERT_EQ(json.size(), 2u);  // and the object's "no unknown keys"
  EXPECT_EQ(json[1].begin().key(), "id");
  EXPECT_EQ(json[1]["id"], "/properties/amount#minimum");
}

}  // namespace
}  // namespace accord
