// A std::variant without a Tag is read as the alternative its value is valid for, never as an
// earlier one that merely converts; a variant whose alternatives cannot be told apart is a
// SchemaError when its schema is built.
#include <gtest/gtest.h>

#include <functional>

#include "accord/client.hpp"
#include "accord/typed_rules.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"

namespace variant_fixtures {

struct IbanAccount {
  std::string account;
};
BOOST_DESCRIBE_STRUCT(IbanAccount, (), (account))

struct DomesticAccount {
  std::string account;
  std::string sort_code;
};
BOOST_DESCRIBE_STRUCT(DomesticAccount, (), (account, sort_code))

struct Payee {
  std::string name;
  std::variant<IbanAccount, DomesticAccount> account;
};
BOOST_DESCRIBE_STRUCT(Payee, (), (name, account))

// Accepts every value DomesticAccount does (sort_code may be absent), and comes first.
struct AnyAccount {
  std::string account;
  std::optional<std::string> sort_code;
};
BOOST_DESCRIBE_STRUCT(AnyAccount, (), (account, sort_code))

struct SameAsIban {
  std::string account;
};
BOOST_DESCRIBE_STRUCT(SameAsIban, (), (account))

struct Ledger {
  std::vector<std::variant<AnyAccount, DomesticAccount>> accounts;
};
BOOST_DESCRIBE_STRUCT(Ledger, (), (accounts))

struct Twins {
  std::variant<IbanAccount, SameAsIban> account;
};
BOOST_DESCRIBE_STRUCT(Twins, (), (account))

struct Amounts {
  std::variant<double, std::int64_t> amount;
};
BOOST_DESCRIBE_STRUCT(Amounts, (), (amount))

struct Counts {
  std::variant<std::int64_t, double> count;
};
BOOST_DESCRIBE_STRUCT(Counts, (), (count))

// The union behind a nullable item and a record value.
struct Directory {
  std::vector<std::optional<std::variant<IbanAccount, DomesticAccount>>> history;
  std::map<std::string, std::variant<IbanAccount, DomesticAccount>> by_name;
};
BOOST_DESCRIBE_STRUCT(Directory, (), (history, by_name))

// A tree whose children are leaves or trees: the union sits inside a recursive definition.
struct Leaf {
  std::string label;
};
BOOST_DESCRIBE_STRUCT(Leaf, (), (label))

struct Branch {
  std::string label;
  std::vector<std::variant<Leaf, Branch>> kids;
};
BOOST_DESCRIBE_STRUCT(Branch, (), (label, kids))

}  // namespace variant_fixtures

namespace accord {
namespace {

using nlohmann::json;
using namespace variant_fixtures;

const json kDomesticPayee = {{"name", "Ada"},
                             {"account", {{"account", "31926819"}, {"sort_code", "40-47-84"}}}};

TEST(TypedVariant, ExtractReadsTheAlternativeTheReplyIsValidFor) {
  MockProcess mock(json{{"replies", {{{"json", kDomesticPayee}}}}}.dump());
  const Client client(testing_support::mock_client_options("openai-chat", mock.base_url()));
  const auto result = client.extract<Payee>({.schema = typed<Payee>(), .prompt = "Extract."});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto* domestic = std::get_if<DomesticAccount>(&result.value().account);
  ASSERT_NE(domestic, nullptr) << "read as IbanAccount, sort_code dropped";
  EXPECT_EQ(domestic->sort_code, "40-47-84");
}

TEST(TypedVariant, FromJsonValueReadsTheAlternativeTheDerivedSchemaTakes) {
  const auto payee = from_json_value<Payee>(kDomesticPayee);
  ASSERT_TRUE(payee);
  EXPECT_EQ(payee.value().account.index(), 1U);
  const json iban = {{"name", "Ada"}, {"account", {{"account", "GB33BUKB20201555555555"}}}};
  EXPECT_EQ(from_json_value<Payee>(iban).value().account.index(), 0U);
}

TEST(TypedVariant, AnAlternativeInsideARecursiveTypeIsReadAsTheOneItIsValidFor) {
  const json tree = {
      {"label", "root"},
      {"kids",
       {{{"label", "leaf"}},
        {{"label", "inner"}, {"kids", {{{"label", "deep"}, {"kids", json::array()}}}}}}}};
  const auto read = from_json_value<Branch>(schema_of<Branch>(), tree);
  ASSERT_TRUE(read) << read.error().message;
  const auto& kids = read.value().kids;
  ASSERT_EQ(kids.size(), 2U);
  EXPECT_EQ(kids[0].index(), 0U);
  ASSERT_EQ(kids[1].index(), 1U);
  const auto& inner = std::get<Branch>(kids[1]);
  ASSERT_EQ(inner.kids.size(), 1U);
  EXPECT_EQ(inner.kids[0].index(), 1U);
}

TEST(TypedVariant, ANullableItemAndARecordValueAreReadAsTheAlternativeTheyAreValidFor) {
  const json domestic = kDomesticPayee["account"];
  const json value = {{"history", {nullptr, domestic}}, {"by_name", {{"ada", domestic}}}};
  const auto read = from_json_value<Directory>(typed<Directory>(), value);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_FALSE(read.value().history[0].has_value());
  ASSERT_TRUE(read.value().history[1].has_value());
  EXPECT_EQ(read.value().history[1]->index(), 1U);
  EXPECT_EQ(read.value().by_name.at("ada").index(), 1U);
}

// The SchemaError's problems, as "path: message" lines.
std::string problems_of(const std::function<void()>& build) {
  try {
    build();
  } catch (const SchemaError& error) {
    std::string out;
    for (const auto& problem : error.problems()) {
      out += problem.path.to_string() + ": " + problem.message + "\n";
    }
    return out;
  }
  return "no SchemaError";
}

TEST(TypedVariant, AnAlternativeAnEarlierOneShadowsIsASchemaErrorAtItsPath) {
  const auto problems = problems_of([] { (void)schema_of<Ledger>(); });
  EXPECT_EQ(problems.rfind("accounts[]|1: std::variant alternative 1 can never be chosen", 0), 0U)
      << problems;
  EXPECT_NE(problems_of([] { (void)typed<Ledger>(); }), "no SchemaError");
}

TEST(TypedVariant, AlternativesWithOneSchemaAreASchemaError) {
  EXPECT_EQ(problems_of([] { (void)schema_of<Twins>(); }).rfind("account|1: ", 0), 0U);
}

TEST(TypedVariant, ANumberBeforeAnIntegerShadowsItButAnIntegerBeforeANumberDoesNot) {
  EXPECT_EQ(problems_of([] { (void)schema_of<Amounts>(); }).rfind("amount|1: ", 0), 0U);
  EXPECT_EQ(problems_of([] { (void)schema_of<Counts>(); }), "no SchemaError");
  EXPECT_EQ(from_json_value<Counts>(json{{"count", 3}}).value().count.index(), 0U);
  EXPECT_EQ(from_json_value<Counts>(json{{"count", 3.5}}).value().count.index(), 1U);
}

TEST(TypedVariant, AlternativesToldApartByAKeyTheFirstLacksAreAccepted) {
  EXPECT_EQ(problems_of([] { (void)schema_of<Payee>(); }), "no SchemaError");
  EXPECT_EQ(problems_of([] { (void)schema_of<Branch>(); }), "no SchemaError");
}

}  // namespace
}  // namespace accord
