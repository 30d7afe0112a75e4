// Recursive C++ types (#14): a struct that contains itself gets a named definition and refs
// (Schema::named, ref), converts both ways at any depth, and its typed rules hold at every depth.

#include <gtest/gtest.h>

#include "accord/json_schema.hpp"
#include "accord/typed_rules.hpp"
#include "accord/typed_schema.hpp"
#include "accord/typed_value.hpp"
#include "accord/validate.hpp"
#include "fixtures/typed_fixtures.hpp"

namespace accord {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace typed_fixtures;

static_assert(is_recursive_type<TreeNode> && contains_itself<TreeNode>);
static_assert(is_recursive_type<Forest> && !contains_itself<Forest>);
static_assert(contains_itself<Section> && contains_itself<Part>);
static_assert(!is_recursive_type<Everything>);

const json kTree = json::parse(R"({"label": "root", "children": [
  {"label": "a", "children": [{"label": "a1", "children": []}]},
  {"label": "b", "children": []}]})");

TEST(TypedRecursive, StructContainingItselfIsANamedDefinitionWithARef) {
  const auto emitted = emit(schema_of<TreeNode>()).json;
  EXPECT_EQ(emitted["type"], "object");
  EXPECT_EQ(emitted["properties"]["children"]["items"],
            ordered_json::parse(R"({"$ref": "#/$defs/TreeNode"})"));
  EXPECT_EQ(emitted["$defs"]["TreeNode"]["properties"]["label"],
            ordered_json::parse(R"({"type": "string"})"));
}

TEST(TypedRecursive, TreeConvertsBothWaysAtEveryDepth) {
  const auto tree = from_json_value<TreeNode>(kTree);
  ASSERT_TRUE(tree) << tree.error().message;
  ASSERT_EQ(tree.value().children.size(), 2u);
  EXPECT_EQ(tree.value().children[0].children[0].label, "a1");
  EXPECT_EQ(to_json_value(tree.value()), kTree);
}

TEST(TypedRecursive, ConversionFailureDeepInsideNamesThePath) {
  json bad = kTree;
  bad["children"][0]["children"][0]["label"] = 5;
  const auto tree = from_json_value<TreeNode>(bad);
  ASSERT_FALSE(tree);
  EXPECT_EQ(tree.error().path.to_string(), "children[0].children[0].label");
}

TEST(TypedRecursive, ValidatorChecksTheTypesSchemaAtEveryDepth) {
  const Validator validator(schema_of<TreeNode>());
  EXPECT_TRUE(validator.validate(kTree).empty());
  json bad = kTree;
  bad["children"][0]["children"][0].erase("children");
  const auto issues = validator.validate(bad);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].path.to_string(), "children[0].children[0].children");
}

TEST(TypedRecursive, OptionalListOfItselfMayBeAbsentAtAnyDepth) {
  const json thread = json::parse(
      R"({"text": "a", "replies": [{"text": "b"}, {"text": "c", "replies": [{"text": "d"}]}]})");
  EXPECT_TRUE(Validator(schema_of<Comment>()).validate(thread).empty());
  const auto comment = from_json_value<Comment>(thread);
  ASSERT_TRUE(comment);
  EXPECT_FALSE(comment.value().replies.value()[0].replies.has_value());
  EXPECT_EQ(comment.value().replies.value()[1].replies.value()[0].text, "d");
  EXPECT_EQ(to_json_value(comment.value()), thread);
}

TEST(TypedRecursive, StructHoldingARecursiveTypeSharesOneDefinition) {
  const auto emitted = emit(schema_of<Forest>()).json;
  EXPECT_FALSE(emitted.contains("$ref"));
  ASSERT_EQ(emitted["$defs"].size(), 1u);
  EXPECT_TRUE(emitted["$defs"].contains("TreeNode"));
  const Validator validator(schema_of<Forest>());
  EXPECT_TRUE(
      validator.validate(json{{"trees", json::array({kTree})}, {"tallest", kTree}}).empty());
}

TEST(TypedRecursive, MutuallyRecursiveStructsRefEachOther) {
  const auto emitted = emit(schema_of<Section>()).json;
  const auto& part = emitted["properties"]["parts"]["items"];
  EXPECT_EQ(part["properties"]["subsections"]["additionalProperties"]["$ref"], "#/$defs/Section");
  const json doc = json::parse(R"({"title": "t", "parts": [{"text": "p", "subsections": {
      "intro": {"title": "i", "parts": [{"text": "q", "subsections": {}}]}}}]})");
  EXPECT_TRUE(Validator(schema_of<Section>()).validate(doc).empty());
  json bad = doc;
  bad["parts"][0]["subsections"]["intro"]["parts"][0]["text"] = false;
  EXPECT_FALSE(Validator(schema_of<Section>()).validate(bad).empty());
}

TEST(TypedRecursive, MemberRuleOfARecursiveTypeHoldsAtEveryDepth) {
  const auto schema = typed<TreeNode>().field(&TreeNode::label, nonempty());
  const Validator validator(schema);
  json bad = kTree;
  bad["children"][0]["children"][0]["label"] = "";
  const auto issues = validator.validate(bad);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].path.to_string(), "children[0].children[0].label");
}

TEST(TypedRecursive, ObjectRefinementOfARecursiveTypeReceivesEachNode) {
  const auto schema = typed<TreeNode>().refine(
      [](const TreeNode& node) { return node.children.size() <= 2; }, "at most two children");
  json wide = kTree;
  wide["children"][1]["children"] = json::parse(
      R"([{"label": "x", "children": []}, {"label": "y", "children": []},
          {"label": "z", "children": []}])");
  const auto issues = Validator(schema).validate(wide);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "at most two children");
  EXPECT_EQ(issues[0].path.to_string(), "children[1]");
}

}  // namespace
}  // namespace accord
