// DSL misuse not already pinned by schema_test.cpp: each mistake names itself and its path, and
// every entry point (check, Validator, Client) refuses the schema before any request is sent.
// Also the regex guard: a catastrophic-backtracking pattern is linear time here.
#include <gtest/gtest.h>

#include <chrono>

#include "accord/client.hpp"
#include "accord/validate.hpp"
#include "fixtures/schema_problems.hpp"

namespace accord {
namespace {

using nlohmann::json;

using testing_schemas::only_message;
using testing_schemas::pass;

TEST(SchemaMisuse, RefineWithoutMessage) {
  EXPECT_EQ(only_message(string().refine(pass, "")), "refine needs a message");
}

TEST(SchemaMisuse, DiscriminatedUnionWithoutTagName) {
  const auto schema =
      discriminated_union("", {object({{"k", literal("a")}}), object({{"k", literal("b")}})});
  ASSERT_FALSE(schema.node().problems.empty());
  EXPECT_EQ(schema.node().problems.front().message, "discriminated union needs a tag field name");
}

TEST(SchemaMisuse, UnionWithNoOptions) {
  EXPECT_EQ(only_message(union_({})), "union needs at least 2 options, got 0");
}

TEST(SchemaMisuse, DefaultThatIsNotTheLiteral) {
  EXPECT_EQ(only_message(literal("a").default_("b")), R"(default "b" is not the literal "a")");
}

TEST(SchemaMisuse, DefaultOfTheWrongTypeNamesTheKind) {
  EXPECT_EQ(only_message(boolean().default_(1)), "default 1 is not a boolean");
  EXPECT_EQ(only_message(array(string()).default_("x")), R"(default "x" is not an array)");
  EXPECT_EQ(only_message(object({}).default_(2)), "default 2 is not an object");
}

TEST(SchemaMisuse, StringOnlyRulesOnANumber) {
  EXPECT_EQ(only_message(number().starts_with("a")), "starts_with applies to strings, not number");
  EXPECT_EQ(only_message(integer().ends_with("a")), "ends_with applies to strings, not integer");
}

TEST(SchemaMisuse, NumberOnlyRuleOnAString) {
  EXPECT_EQ(only_message(string().multiple_of(2)), "multiple_of applies to numbers, not string");
}

TEST(SchemaMisuse, NonemptyOnANumber) {
  EXPECT_EQ(only_message(number().nonempty()),
            "nonempty applies to strings and arrays, not number");
}

TEST(SchemaMisuse, ProblemInsideATuplePositionCarriesItsIndex) {
  const auto schema = object({{"pair", tuple({string(), string().min(3).max(1)})}});
  ASSERT_EQ(schema.node().problems.size(), 1u);
  EXPECT_EQ(schema.node().problems[0].path, (Path{"pair", std::size_t{1}}));
}

TEST(SchemaMisuse, ValidatorRefusesABadSchemaWithEveryPath) {
  const auto schema = object({{"id", string().regex("([")}, {"n", number().min(3).max(1)}});
  try {
    const Validator validator(schema);
    FAIL() << "Validator accepted a bad schema";
  } catch (const SchemaError& error) {
    ASSERT_EQ(error.problems().size(), 2u);
    EXPECT_EQ(error.problems()[0].path, Path{"id"});
    EXPECT_EQ(error.problems()[1].path, Path{"n"});
    EXPECT_NE(std::string(error.what()).find("at id: regex /([/ does not compile"),
              std::string::npos)
        << error.what();
  }
}

TEST(SchemaMisuse, ExtractWithABadSchemaThrowsBeforeAnyRequest) {
  // Nothing listens on port 9: a request would come back as a transport error, not a throw.
  const Client client({.provider = "openai-chat", .base_url = "http://127.0.0.1:9/v1"});
  EXPECT_THROW(
      (void)client.extract({.schema = object({{"id", string().regex("(")}}), .prompt = "x"}),
      SchemaError);
}

TEST(SchemaMisuse, FromJsonSchemaRefusesAnUncompilablePattern) {
  EXPECT_THROW((void)Validator::from_json_schema({{"type", "string"}, {"pattern", "a{2,1}"}}),
               SchemaError);
}

// ---- the regex guard: RE2 is linear time, so nested quantifiers cannot backtrack ---------------

constexpr auto kQuick = std::chrono::seconds(2);  // generous for sanitizer builds; RE2 takes ms

TEST(RegexGuard, NestedQuantifierAgainst100kCharactersIsQuickViaTheDsl) {
  const Validator validator(object({{"s", string().regex("^(a+)+$")}}));
  const std::string text = R"({"s":")" + std::string(100'000, 'a') + R"(!"})";
  const auto started = std::chrono::steady_clock::now();
  const auto result = validator.parse_and_validate(text);
  EXPECT_LT(std::chrono::steady_clock::now() - started, kQuick);
  ASSERT_EQ(result.issues.size(), 1u);
  EXPECT_EQ(result.issues[0].code, IssueCode::invalid_format);
  EXPECT_EQ(result.issues[0].path, Path{"s"});
}

TEST(RegexGuard, NestedQuantifierAgainst100kCharactersIsQuickViaFromJsonSchema) {
  const auto validator = Validator::from_json_schema(
      {{"type", "object"}, {"properties", {{"s", {{"type", "string"}, {"pattern", "^(a+)+$"}}}}}});
  const std::string matching(100'000, 'a');
  const auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(validator.validate({{"s", matching}}).empty());
  EXPECT_EQ(validator.validate({{"s", matching + "!"}}).size(), 1u);
  EXPECT_LT(std::chrono::steady_clock::now() - started, kQuick);
}

}  // namespace
}  // namespace accord
