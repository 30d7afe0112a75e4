// `accord validate --repair`: what the extraction loop would repair in a file of replies, each
// repair printed, and the documents repairs leave invalid judged as before.
#include <gtest/gtest.h>

#include "fixtures/cli_run.hpp"

namespace accord {
namespace {

using CliRepair = cli_testing::CliTest;

constexpr const char* kAmountSchema = R"({
  "type": "object",
  "properties": {"amount": {"type": "number"}, "currency": {"enum": ["EUR", "USD"]}},
  "required": ["amount", "currency"]
})";

TEST_F(CliRepair, ValidateRepairPrintsEachRepairAndCountsRepairedDocuments) {
  const auto schema = write("schema.json", kAmountSchema);
  const auto replies = write("replies.jsonl",
                             "{\"amount\": \"42.50\", \"currency\": \"eur\"}\n"
                             "{\"amount\": 1, \"currency\": \"EUR\"}\n"
                             "{\"amount\": \"12 EUR\", \"currency\": \"EUR\"}\n");
  const auto outcome = run({"validate", schema, replies, "--repair", "lossless"});
  EXPECT_EQ(outcome.code, 1) << outcome.err;
  EXPECT_EQ(outcome.out,
            "line 1: repaired\n"
            "  number_from_string at amount: \"42.50\" -> 42.5\n"
            "  enum_letter_case at currency: \"eur\" -> \"EUR\"\n"
            "line 3: invalid\n"
            "  ✖ Invalid input: expected number, received string\n"
            "    → at amount\n"
            "issues by code and path:\n"
            "  1 invalid_type at amount\n"
            "3 documents: 2 valid, 1 invalid, 1 repaired\n");
}

TEST_F(CliRepair, ValidateWithoutRepairJudgesTheTextAsSent) {
  const auto schema = write("schema.json", kAmountSchema);
  const auto reply = write("reply.json", "```json\n{\"amount\": 1, \"currency\": \"EUR\"}\n```");
  EXPECT_EQ(run({"validate", schema, reply}).code, 1);
  const auto repaired = run({"validate", schema, reply, "--repair", "lossless"});
  EXPECT_EQ(repaired.code, 0) << repaired.out << repaired.err;
  EXPECT_NE(repaired.out.find("text_around_json"), std::string::npos) << repaired.out;
}

TEST_F(CliRepair, UnknownRepairPolicyIsAUsageError) {
  const auto schema = write("schema.json", kAmountSchema);
  const auto reply = write("reply.json", "{}");
  const auto outcome = run({"validate", schema, reply, "--repair", "always"});
  EXPECT_EQ(outcome.code, 2);
  EXPECT_NE(outcome.err.find("--repair"), std::string::npos) << outcome.err;
}

TEST_F(CliRepair, SchemaListsWhereThePolicyMayRepair) {
  const auto schema = write("schema.json", kAmountSchema);
  const auto outcome = run({"schema", schema, "--provider", "openai-chat", "--repair", "lossless"});
  EXPECT_EQ(outcome.code, 0) << outcome.err;
  EXPECT_NE(
      outcome.out.find("Repairs: lossless allows 7 repairs:\n  (anywhere)  text_around_json\n"),
      std::string::npos)
      << outcome.out;
  EXPECT_NE(outcome.out.find("  amount  number_from_string\n  currency  enum_letter_case\n"),
            std::string::npos)
      << outcome.out;
}

TEST_F(CliRepair, SchemaJsonCarriesTheRepairsAllowed) {
  const auto schema = write("schema.json", kAmountSchema);
  const auto outcome =
      run({"schema", schema, "--provider", "anthropic", "--repair", "lenient", "--json"});
  ASSERT_EQ(outcome.code, 0) << outcome.err;
  const auto allowed = nlohmann::json::parse(outcome.out)["repairs_allowed"];
  EXPECT_TRUE(allowed.is_array());
  EXPECT_NE(std::find(allowed.begin(), allowed.end(),
                      nlohmann::json({{"path", ""}, {"kind", "key_letter_case"}})),
            allowed.end())
      << allowed.dump();
}

}  // namespace
}  // namespace accord
