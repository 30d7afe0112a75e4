// The local-server profiles (llama-cpp, vllm, ollama, generic): what each one's grammar cannot take
// is stated in words with a Report row saying why, and never sent where the server would fail
// the request or skip it silently.

#include <gtest/gtest.h>

#include "accord/json_schema_file.hpp"
#include "accord/providers/provider.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

ojson property_schema(const char* property) {
  return ojson::parse(std::string(R"({"type": "object", "properties": {"p": )") + property +
                      R"(}, "required": ["p"]})");
}

// The wire schema of property "p", and its Report.
struct Lowered {
  ojson p;
  Report report;
};

Lowered lowered(const char* provider, const char* property) {
  auto wire = make_provider(provider)->lower(property_schema(property), Report{});
  return {wire.schema["properties"]["p"], wire.report};
}

const ReportEntry* row(const Report& report, const std::string& keyword) {
  for (const auto& e : report.entries()) {
    if (e.path == Path{"p"} && e.keyword == keyword) return &e;
  }
  return nullptr;
}

std::string description(const ojson& node) {
  return node.value("description", std::string());
}

TEST(LlamaCppLowering, BoundsOnANumberAreStatedInWordsNotSent) {
  const auto l = lowered("llama-cpp", R"({"type": "number", "minimum": 0})");
  EXPECT_FALSE(l.p.contains("minimum")) << l.p;
  EXPECT_NE(description(l.p).find("Must be at least 0."), std::string::npos) << l.p;
  const auto* r = row(l.report, "minimum");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->fate, Fate::description);
  EXPECT_NE(r->why.find("skip minimum here without an error"), std::string::npos) << r->why;
}

TEST(LlamaCppLowering, BoundsOnAnIntegerAreSent) {
  const auto l = lowered("llama-cpp", R"({"type": "integer", "minimum": 1, "maximum": 9})");
  EXPECT_EQ(l.p["minimum"], 1);
  EXPECT_EQ(l.p["maximum"], 9);
  EXPECT_EQ(row(l.report, "minimum"), nullptr);
}

TEST(LlamaCppLowering, AnUnanchoredPatternIsNeverSent) {
  const auto l = lowered("llama-cpp", R"({"type": "string", "pattern": "[A-Z]{3}"})");
  EXPECT_FALSE(l.p.contains("pattern")) << l.p;
  EXPECT_NE(description(l.p).find("Must match /[A-Z]{3}/."), std::string::npos) << l.p;
  EXPECT_NE(row(l.report, "pattern")->why.find("the request would fail"), std::string::npos);
}

TEST(LlamaCppLowering, LengthsBesideAnAnchoredPatternAreStatedInWords) {
  const auto l =
      lowered("llama-cpp", R"({"type": "string", "pattern": "^[A-Z]+$", "maxLength": 5})");
  EXPECT_EQ(l.p["pattern"], "^[A-Z]+$");
  EXPECT_FALSE(l.p.contains("maxLength")) << l.p;
  EXPECT_NE(description(l.p).find("Must have at most 5 characters."), std::string::npos) << l.p;
}

TEST(LlamaCppLowering, LengthsBesideAPatternLeftOffTheWireAreSent) {
  const auto l = lowered("llama-cpp", R"({"type": "string", "pattern": "[A-Z]", "maxLength": 5})");
  EXPECT_EQ(l.p["maxLength"], 5) << l.p;
}

TEST(LlamaCppLowering, UniqueItemsAndUnknownFormatsAreStatedInWords) {
  const auto items = lowered("llama-cpp", R"({"type": "array", "items": {"type": "string"},
      "uniqueItems": true, "maxItems": 3})");
  EXPECT_FALSE(items.p.contains("uniqueItems")) << items.p;
  EXPECT_EQ(items.p["maxItems"], 3);
  EXPECT_NE(description(items.p).find("Items must be unique."), std::string::npos);
  const auto mail = lowered("llama-cpp", R"({"type": "string", "format": "email"})");
  EXPECT_FALSE(mail.p.contains("format")) << mail.p;
  const auto day = lowered("llama-cpp", R"({"type": "string", "format": "date"})");
  EXPECT_EQ(day.p["format"], "date");
}

TEST(LlamaCppLowering, RulesStayInWordsWithoutIfThen) {
  const auto schema = ojson::parse(R"({"type": "object",
      "properties": {"kind": {"type": "string", "enum": ["a", "b"]}, "n": {"type": "integer"}},
      "required": ["kind", "n"],
      "x-accord-rules": [{"if": "kind == \"a\"", "then": "n > 2"}]})");
  auto imported = import_json_schema(schema);
  const auto wire = make_provider("llama-cpp")->lower(imported.json, imported.report);
  EXPECT_FALSE(wire.schema.contains("if")) << wire.schema;
  EXPECT_FALSE(wire.schema.contains("x-accord-rules")) << wire.schema;
  for (const auto& e : wire.report.entries()) {
    if (e.keyword == "x-accord-rules") {
      EXPECT_EQ(e.fate, Fate::description) << e.rule;
    }
  }
  EXPECT_NE(wire.schema.value("description", "").find("Rule: when kind =="), std::string::npos)
      << wire.schema;
}

TEST(VllmLowering, WhatXgrammarRejectsIsNeverSent) {
  const auto number = lowered("vllm", R"({"type": "number", "minimum": 0, "multipleOf": 0.5})");
  EXPECT_EQ(number.p["minimum"], 0);
  EXPECT_FALSE(number.p.contains("multipleOf")) << number.p;
  EXPECT_NE(row(number.report, "multipleOf")->why.find("the request would fail"),
            std::string::npos);
  const auto items = lowered("vllm", R"({"type": "array", "items": {"type": "integer"},
      "uniqueItems": true})");
  EXPECT_FALSE(items.p.contains("uniqueItems")) << items.p;
  const auto iri = lowered("vllm", R"({"type": "string", "format": "iri"})");
  EXPECT_FALSE(iri.p.contains("format")) << iri.p;
  const auto mail = lowered("vllm", R"({"type": "string", "format": "email"})");
  EXPECT_EQ(mail.p["format"], "email");
}

TEST(VllmLowering, LengthsBesideAPatternOrFormatAreNeverSent) {
  const auto l = lowered("vllm", R"({"type": "string", "pattern": "[a-z]+", "minLength": 2})");
  EXPECT_EQ(l.p["pattern"], "[a-z]+");
  EXPECT_FALSE(l.p.contains("minLength")) << l.p;
  const auto alone = lowered("vllm", R"({"type": "string", "minLength": 2})");
  EXPECT_EQ(alone.p["minLength"], 2);
}

TEST(GenericLowering, EveryConstraintIsSentAndSaidNotKnownToBeEnforced) {
  const auto l = lowered("generic", R"({"type": "number", "minimum": 0, "multipleOf": 0.5})");
  EXPECT_EQ(l.p["minimum"], 0);
  EXPECT_EQ(l.p["multipleOf"], 0.5);
  EXPECT_NE(description(l.p).find("Must be at least 0 and a multiple of 0.5."), std::string::npos)
      << l.p;
  for (const char* keyword : {"minimum", "multipleOf"}) {
    const auto* r = row(l.report, keyword);
    ASSERT_NE(r, nullptr) << keyword;
    EXPECT_EQ(r->fate, Fate::description);
    EXPECT_NE(r->why.find("is not known"), std::string::npos) << r->why;
  }
  EXPECT_FALSE(l.report.not_keywords().empty());
}

TEST(OllamaLowering, FormatFollowsLlamaCppGrammarConversion) {
  const auto l = lowered("ollama", R"({"type": "number", "maximum": 5})");
  EXPECT_FALSE(l.p.contains("maximum")) << l.p;
  EXPECT_NE(row(l.report, "maximum")->why.find("Ollama servers skip maximum"), std::string::npos);
}

TEST(LocalServerCapabilities, ForcedToolIsKnownOnlyWhereTheServerEnforcesIt) {
  EXPECT_TRUE(make_provider("vllm")->schema_capabilities().forces_tool);
  for (const char* name : {"llama-cpp", "ollama", "generic"}) {
    EXPECT_FALSE(make_provider(name)->schema_capabilities().forces_tool) << name;
  }
  for (const char* name : {"openai-chat", "openai-responses", "anthropic"}) {
    EXPECT_TRUE(make_provider(name)->schema_capabilities().forces_tool) << name;
  }
}

TEST(LocalServerCapabilities, RowsNameWhatEachServerSkipsOrRejects) {
  const auto value = [](const char* provider, const std::string& name) {
    for (const auto& [row_name, row_value] :
         capability_rows(make_provider(provider)->schema_capabilities())) {
      if (row_name == name) return row_value;
    }
    return std::string();
  };
  EXPECT_NE(value("llama-cpp", "uniqueItems, contains, not, if/then/else").find("skips it"),
            std::string::npos);
  EXPECT_NE(value("vllm", "numeric bounds (minimum, maximum, exclusive*, multipleOf)")
                .find("multipleOf: no: the server rejects it"),
            std::string::npos);
  EXPECT_NE(value("generic", "pattern").find("not known to be enforced"), std::string::npos);
}

}  // namespace
}  // namespace accord
