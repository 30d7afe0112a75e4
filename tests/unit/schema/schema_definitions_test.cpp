// Named definitions and references in the DSL (Schema::named, ref): a schema that contains itself
// is emitted as `$defs` + `$ref`, validated at every depth with its rules, lowered like a
// recursive file schema, and refused with the path when a name is missing or means two things.

#include <gtest/gtest.h>

#include "accord/json_schema.hpp"
#include "accord/providers/provider.hpp"
#include "accord/schema.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

bool no_shouting(const json& text) {
  const auto s = text.get<std::string>();
  return std::none_of(s.begin(), s.end(), [](char c) { return c == '!'; });
}

// A thread of comments: each comment holds its replies, which are comments.
Schema comment() {
  return object({{"author", string().min(1)},
                 {"text", string().refine(no_shouting, "text must not shout")},
                 {"replies", array(ref("Comment"))}})
      .named("Comment");
}

Schema thread() {
  return object({{"title", string()}, {"top", comment()}});
}

json reply(std::string author, std::string text, json replies = json::array()) {
  return json{{"author", std::move(author)}, {"text", std::move(text)}, {"replies", replies}};
}

TEST(SchemaDefinitions, RefEmitsDefsAndRef) {
  const auto emitted = emit(thread());
  const auto& top = emitted.json["properties"]["top"];
  EXPECT_EQ(top["type"], "object");
  EXPECT_EQ(top["properties"]["replies"]["items"], ojson::parse(R"({"$ref": "#/$defs/Comment"})"));
  const auto& definition = emitted.json["$defs"]["Comment"];
  EXPECT_EQ(definition["properties"]["replies"]["items"],
            ojson::parse(R"({"$ref": "#/$defs/Comment"})"));
  EXPECT_EQ(definition["properties"]["author"]["minLength"], 1);
}

TEST(SchemaDefinitions, DraftSevenPutsThemUnderDefinitions) {
  const auto emitted = emit(thread(), {.dialect = Dialect::draft07});
  EXPECT_TRUE(emitted.json.contains("definitions"));
  EXPECT_EQ(emitted.json["properties"]["top"]["properties"]["replies"]["items"]["$ref"],
            "#/definitions/Comment");
}

TEST(SchemaDefinitions, ReferenceGetsAReportRowAndTheDefinitionsRulesAreReportedOnce) {
  const auto emitted = emit(thread());
  int refs = 0;
  int min_lengths = 0;
  for (const auto& e : emitted.report.entries()) {
    if (e.keyword == "$ref") {
      ++refs;
      EXPECT_EQ(e.rule, "ref Comment");
      EXPECT_EQ(e.path, (Path{"top", "replies", "[]"}));
    }
    if (e.keyword == "minLength") ++min_lengths;
  }
  EXPECT_EQ(refs, 1);
  EXPECT_EQ(min_lengths, 1);
}

TEST(SchemaDefinitions, ValidatorChecksEveryDepthOfARecursiveValue) {
  const Validator validator(thread());
  const json deep =
      reply("a", "ok", json::array({reply("b", "fine", json::array({reply("c", "ok")}))}));
  EXPECT_TRUE(validator.validate(json{{"title", "t"}, {"top", deep}}).empty());

  json bad = deep;
  bad["replies"][0]["replies"][0]["author"] = 7;
  const auto issues = validator.validate(json{{"title", "t"}, {"top", bad}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].path.to_string(), "top.replies[0].replies[0].author");
}

TEST(SchemaDefinitions, RefinementInsideADefinitionRunsAtEveryDepth) {
  const Validator validator(thread());
  const json loud =
      reply("a", "ok", json::array({reply("b", "ok", json::array({reply("c", "hey!")}))}));
  const auto issues = validator.validate(json{{"title", "t"}, {"top", loud}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "text must not shout");
  EXPECT_EQ(issues[0].path.to_string(), "top.replies[0].replies[0].text");
}

TEST(SchemaDefinitions, RefinementOnAReferenceRunsWhereItIsUsed) {
  const auto tree =
      object(
          {{"name", string()},
           {"children", array(ref("Tree").refine([](const json& t) { return t.at("name") != "x"; },
                                                 "no child is named x"))}})
          .named("Tree");
  const Validator validator(tree);
  EXPECT_TRUE(
      validator
          .validate(json::parse(R"({"name": "x", "children": [{"name": "a", "children": []}]})"))
          .empty());
  const auto issues = validator.validate(json::parse(
      R"({"name": "r", "children": [{"name": "a", "children": [{"name": "x", "children": []}]}]})"));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "no child is named x");
  EXPECT_EQ(issues[0].path.to_string(), "children[0].children[0]");
}

TEST(SchemaDefinitions, NamedRootRefersToItself) {
  const auto section =
      object({{"heading", string()}, {"sections", array(ref("Section")).optional()}})
          .named("Section");
  const auto emitted = emit(section);
  EXPECT_EQ(emitted.json["type"], "object");
  EXPECT_EQ(emitted.json["$defs"]["Section"]["properties"]["sections"]["items"]["$ref"],
            "#/$defs/Section");
  const Validator validator(section);
  EXPECT_TRUE(
      validator
          .validate(json::parse(
              R"({"heading": "a", "sections": [{"heading": "b", "sections": [{"heading": "c"}]}]})"))
          .empty());
  EXPECT_FALSE(
      validator.validate(json::parse(R"({"heading": "a", "sections": [{"sections": []}]})"))
          .empty());
}

TEST(SchemaDefinitions, NullableOptionalReferenceAcceptsNullAndAbsence) {
  const auto list =
      object({{"value", integer()}, {"next", ref("Node").nullable().optional()}}).named("Node");
  const Validator validator(list);
  EXPECT_TRUE(validator.validate(json::parse(R"({"value": 1, "next": {"value": 2, "next": null}})"))
                  .empty());
  EXPECT_TRUE(validator.validate(json::parse(R"({"value": 1, "next": {"value": 2}})")).empty());
  EXPECT_FALSE(validator.validate(json::parse(R"({"value": 1, "next": {"value": "2"}})")).empty());
}

TEST(SchemaDefinitions, UnknownReferenceIsASchemaErrorWithItsPath) {
  try {
    (void)emit(object({{"items", array(ref("Missing"))}}));
    FAIL() << "expected SchemaError";
  } catch (const SchemaError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].path, (Path{"items", "[]"}));
    EXPECT_NE(e.problems()[0].message.find("names no definition"), std::string::npos);
  }
}

TEST(SchemaDefinitions, TwoDifferentSchemasWithOneNameAreASchemaError) {
  const auto a = object({{"x", string()}}).named("Part");
  const auto b = object({{"y", number()}}).named("Part");
  try {
    (void)emit(object({{"a", a}, {"b", b}, {"again", ref("Part")}}));
    FAIL() << "expected SchemaError";
  } catch (const SchemaError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_NE(e.problems()[0].message.find("two different schemas are named \"Part\""),
              std::string::npos);
  }
}

TEST(SchemaDefinitions, TheSameSchemaNamedTwiceIsOneDefinition) {
  const auto build = [] {
    return object({{"x", string()}, {"more", array(ref("Part"))}}).named("Part");
  };
  const auto emitted = emit(object({{"a", build()}, {"b", build().optional()}}));
  EXPECT_EQ(emitted.json["$defs"].size(), 1u);
}

TEST(SchemaDefinitions, BadDefinitionNameIsABuildMistake) {
  EXPECT_THROW(object({{"x", string()}}).named("a/b").check(), SchemaError);
  EXPECT_THROW(ref("").check(), SchemaError);
}

TEST(SchemaDefinitions, DefinitionMadeOnlyOfRefsIsRefused) {
  EXPECT_THROW((void)emit(object({{"loop", ref("Loop").named("Loop")}})), SchemaError);
}

TEST(SchemaDefinitions, WithDefaultsFillsDefaultsAtEveryDepth) {
  const auto tree =
      object(
          {{"name", string()}, {"kind", string().default_("leaf")}, {"children", array(ref("T"))}})
          .named("T");
  const auto filled = with_defaults(
      tree, json::parse(R"({"name": "a", "children": [{"name": "b", "children": []}]})"));
  EXPECT_EQ(filled["kind"], "leaf");
  EXPECT_EQ(filled["children"][0]["kind"], "leaf");
}

TEST(SchemaDefinitions, OpenAIKeepsTheDslRecursionAsReferences) {
  const auto emitted = emit(thread());
  const auto wire = make_provider("openai-chat")->lower(emitted.json, emitted.report);
  EXPECT_EQ(wire.schema["$defs"]["Comment"]["properties"]["replies"]["items"]["$ref"],
            "#/$defs/Comment");
  EXPECT_EQ(wire.schema["properties"]["top"]["properties"]["replies"]["items"]["$ref"],
            "#/$defs/Comment");
}

TEST(SchemaDefinitions, AnthropicUnrollsTheDslRecursion) {
  const auto emitted = emit(thread());
  const auto wire = make_provider("anthropic")->lower(emitted.json, emitted.report);
  EXPECT_FALSE(wire.schema.contains("$defs"));
  const ojson* level = &wire.schema["properties"]["top"];
  for (int depth = 0; depth < 4; ++depth) {
    ASSERT_EQ((*level)["type"], "object") << depth;
    level = &(*level)["properties"]["replies"]["items"];
  }
  EXPECT_EQ(*level, ojson::parse(R"({"type": "null"})"));
}

}  // namespace
}  // namespace accord
