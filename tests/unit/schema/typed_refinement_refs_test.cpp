// A typed refinement whose value holds a ref'd definition (a recursive struct's children) reads it
// with the definition's defaults, as Zod's predicate sees the parsed value.
//
// The oracle is Zod 4.6.7, on these programs (`Leaf = z.object({leaf: z.string()})`):
//   TreeNode = z.object({label: z.string().default(""), children: z.array(z.lazy(() => TreeNode))
//       .refine(cs => cs.every(c => c.label !== ""), "every child is labelled")})
//     {"children":[{"children":[]}]}            fails: one custom issue at ["children"]
//     {"children":[{"label":"a","children":[]}]}  passes
//     {"children":[{"label":5,"children":[]}]}    fails: one invalid_type at ["children",0,"label"]
//   Deep: the same, refined with cs.every(c => c.children.every(g => g.label !== "")),
//       "every grandchild is labelled"
//     {"children":[{"label":"a","children":[{"children":[]}]}]}  fails: one custom at ["children"]
//     the same with the grandchild labelled "b"                  passes
//   Node = z.object({label: z.string().default(""), children: z.array(z.union([Leaf,
//       z.lazy(() => Node)])).refine(cs => cs.every(c => "leaf" in c || c.label !== ""),
//       "every node child is labelled")})
//     {"children":[{"leaf":"x"},{"children":[]}]}           fails: one custom at ["children"]
//     {"children":[{"leaf":"x"},{"label":"n","children":[]}]}  passes
//   Node without its refinement parses {"children":[{"leaf":"x"},{"children":[]}]} as
//     {"label":"","children":[{"leaf":"x"},{"label":"","children":[]}]}

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "accord/json_view.hpp"
#include "accord/typed_rules.hpp"
#include "accord/typed_validator.hpp"
#include "accord/typed_value.hpp"
#include "accord/validate.hpp"
#include "fixtures/typed_fixtures.hpp"
#include "schema/definitions_in_scope.hpp"

namespace typed_fixtures {

// Zod's Leaf and Node: a tree whose children are leaves or trees, a union option being the ref.
struct Bud {
  std::string leaf;
  friend bool operator==(const Bud&, const Bud&) = default;
};
BOOST_DESCRIBE_STRUCT(Bud, (), (leaf))

struct Shoot {
  std::string label;
  std::vector<std::variant<Bud, Shoot>> children;
  friend bool operator==(const Shoot&, const Shoot&) = default;
};
BOOST_DESCRIBE_STRUCT(Shoot, (), (label, children))

}  // namespace typed_fixtures

namespace accord {
namespace {

using nlohmann::json;
using namespace typed_fixtures;

constexpr const char* kEveryChildLabelled = "every child is labelled";

bool labelled(const TreeNode& node) {
  return !node.label.empty();
}

// Zod's TreeNode: `label` defaults to "" (TreeNode{}.label), the children are refined.
TypedSchema<TreeNode> labelled_children() {
  return typed<TreeNode>()
      .field(&TreeNode::label, defaulted())
      .field(&TreeNode::children, refine(
                                      [](const std::vector<TreeNode>& children) {
                                        return std::all_of(children.begin(), children.end(),
                                                           labelled);
                                      },
                                      kEveryChildLabelled));
}

void expect_one_issue(const Issues& issues, IssueCode code, const Path& path,
                      const std::string& message) {
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].code, code);
  EXPECT_EQ(issues[0].path, path);
  EXPECT_EQ(issues[0].message, message);
}

// The refinement `labelled_children()` puts on its `children` field.
const Refinement& children_refinement(const Schema& schema) {
  const auto& fields = schema.node().fields;
  const auto children = std::find_if(fields.begin(), fields.end(),
                                     [](const Field& field) { return field.name == "children"; });
  return children->schema.node().refinements.at(0);
}

TEST(TypedRefinementRefs, AMemberRefinementSeesTheDefaultOfARefdDefinition) {
  const Validator validator(labelled_children());
  expect_one_issue(validator.parse_and_validate(R"({"children":[{"children":[]}]})").issues,
                   IssueCode::custom, Path{"children"}, kEveryChildLabelled);
  EXPECT_TRUE(
      validator.parse_and_validate(R"({"children":[{"label":"a","children":[]}]})").issues.empty());
}

TEST(TypedRefinementRefs, TypedValidationReportsTheRefinementOnARefdDefinition) {
  const TypedValidator validator(labelled_children());
  const auto parsed = validator.parse(R"({"children":[{"children":[]}]})");
  ASSERT_FALSE(parsed);
  expect_one_issue(parsed.issues(), IssueCode::custom, Path{"children"}, kEveryChildLabelled);
}

// Both readings of the predicate, the tree's and the parsed document's, with the schema's
// definitions in scope as validation puts them.
TEST(TypedRefinementRefs, BothReadingsSeeTheDefaultWithTheSchemasDefinitionsInScope) {
  const Schema schema = labelled_children();
  const Refinement& refinement = children_refinement(schema);
  const json children = json::parse(R"([{"children":[]}])");
  const auto parsed = parse_document(children.dump());
  ASSERT_TRUE(parsed.document);
  const detail::SchemaDefinitions definitions = detail::collect_definitions(schema.node());
  const detail::DefinitionsInScope scope(definitions);
  EXPECT_FALSE(refinement.predicate(children));
  EXPECT_FALSE(refinement.view_predicate(parsed.document->root()));
}

// integer() takes 3000000000, which the int32_t the predicate reads cannot hold. The refinement
// does not judge a value it cannot read: the verdict is the schema's without it, and the reading
// reports the ConversionError.
TEST(TypedRefinementRefs, AValueThatDoesNotReadAsThePredicatesTypeIsLeftToTheReading) {
  const auto refined = typed<Counted>().field(
      &Counted::count, refine([](std::int32_t /*count*/) { return false; }, "never holds"));
  const auto plain = typed<Counted>();
  constexpr const char* kTooBig = R"({"count":3000000000})";
  EXPECT_EQ(prettify(Validator(refined).parse_and_validate(kTooBig).issues),
            prettify(Validator(plain).parse_and_validate(kTooBig).issues));
  const auto with = TypedValidator<Counted>(refined).parse(kTooBig);
  const auto without = TypedValidator<Counted>(plain).parse(kTooBig);
  ASSERT_TRUE(without.conversion());
  ASSERT_TRUE(with.conversion()) << prettify(with.issues());
  EXPECT_TRUE(with.issues().empty()) << prettify(with.issues());
  EXPECT_EQ(with.conversion()->path, without.conversion()->path);
  EXPECT_EQ(with.conversion()->message, without.conversion()->message);
}

TEST(TypedRefinementRefs, NoDefinitionsAreInScopeAfterAValidation) {
  (void)Validator(labelled_children()).parse_and_validate(R"({"children":[{"children":[]}]})");
  EXPECT_EQ(detail::definitions_in_scope(), nullptr);
}

TEST(TypedRefinementRefs, NoDefinitionsAreInScopeAfterARefinementThrows) {
  const auto throwing = labelled_children().refine(
      [](const TreeNode& /*node*/) -> bool { throw std::runtime_error("predicate gave up"); },
      "never judged");
  const Issues issues =
      Validator(throwing).parse_and_validate(R"({"label":"a","children":[]})").issues;
  ASSERT_EQ(issues.size(), 1U) << prettify(issues);
  EXPECT_EQ(issues[0].message, "Refinement failed: predicate gave up");
  EXPECT_EQ(detail::definitions_in_scope(), nullptr);
}

// A predicate that validates with another schema: the inner validation reads with its own
// definitions (the outer Shoot's are no TreeNode's), and the outer ones are back after it.
TEST(TypedRefinementRefs, AValidationInsideAPredicateReadsWithItsOwnDefinitions) {
  const Validator inner(labelled_children());
  const Issues alone = inner.parse_and_validate(R"({"children":[{"children":[]}]})").issues;
  Issues nested;
  const detail::SchemaDefinitions* before = nullptr;
  const detail::SchemaDefinitions* after = nullptr;
  const Validator outer(typed<Shoot>().field(
      &Shoot::label, refine(
                         [&](const std::string& /*label*/) {
                           before = detail::definitions_in_scope();
                           nested =
                               inner.parse_and_validate(R"({"children":[{"children":[]}]})").issues;
                           after = detail::definitions_in_scope();
                           return true;
                         },
                         "validates a tree")));
  EXPECT_TRUE(outer.parse_and_validate(R"({"label":"x","children":[]})").issues.empty());
  ASSERT_EQ(alone.size(), 1U) << prettify(alone);
  EXPECT_EQ(prettify(nested), prettify(alone));
  EXPECT_NE(before, nullptr);
  EXPECT_EQ(after, before);
  EXPECT_EQ(detail::definitions_in_scope(), nullptr);
}

TEST(TypedRefinementRefs, ADefaultTwoRefsDownIsFilledToo) {
  constexpr const char* kEveryGrandchildLabelled = "every grandchild is labelled";
  const Validator validator(
      typed<TreeNode>()
          .field(&TreeNode::label, defaulted())
          .field(
              &TreeNode::children,
              refine(
                  [](const std::vector<TreeNode>& children) {
                    return std::all_of(children.begin(), children.end(), [](const TreeNode& child) {
                      return std::all_of(child.children.begin(), child.children.end(), labelled);
                    });
                  },
                  kEveryGrandchildLabelled)));
  expect_one_issue(
      validator.parse_and_validate(R"({"children":[{"label":"a","children":[{"children":[]}]}]})")
          .issues,
      IssueCode::custom, Path{"children"}, kEveryGrandchildLabelled);
  EXPECT_TRUE(validator
                  .parse_and_validate(
                      R"({"children":[{"label":"a","children":[{"label":"b","children":[]}]}]})")
                  .issues.empty());
}

TEST(TypedRefinementRefs, AUnionOptionThatIsARefIsReadWithItsDefaults) {
  constexpr const char* kEveryNodeChildLabelled = "every node child is labelled";
  const Validator validator(
      typed<Shoot>()
          .field(&Shoot::label, defaulted())
          .field(&Shoot::children,
                 refine(
                     [](const std::vector<std::variant<Bud, Shoot>>& children) {
                       return std::all_of(children.begin(), children.end(), [](const auto& child) {
                         const auto* shoot = std::get_if<Shoot>(&child);
                         return shoot == nullptr || !shoot->label.empty();
                       });
                     },
                     kEveryNodeChildLabelled)));
  expect_one_issue(
      validator.parse_and_validate(R"({"children":[{"leaf":"x"},{"children":[]}]})").issues,
      IssueCode::custom, Path{"children"}, kEveryNodeChildLabelled);
  EXPECT_TRUE(
      validator.parse_and_validate(R"({"children":[{"leaf":"x"},{"label":"n","children":[]}]})")
          .issues.empty());
}

TEST(TypedRefinementRefs, AUnionOptionIsExtractedWithItsDefaults) {
  const auto schema = typed<Shoot>().field(&Shoot::label, defaulted());
  const auto read = from_json_value<Shoot>(
      schema.schema(), json::parse(R"({"children":[{"leaf":"x"},{"children":[]}]})"));
  ASSERT_TRUE(read) << read.error().path.to_string() << ": " << read.error().message;
  EXPECT_EQ(to_json_value(read.value()),
            json::parse(R"({"label":"","children":[{"leaf":"x"},{"label":"","children":[]}]})"));
}

}  // namespace
}  // namespace accord
