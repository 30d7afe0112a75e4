// The accord command as a table of commands: each row is a subcommand with its help line and its
// own options, listed in the table's order.

#include <gtest/gtest.h>

#include <string>

#include "fixtures/cli_run.hpp"

namespace {

using CliCommands = cli_testing::CliTest;

TEST_F(CliCommands, HelpListsEachCommandWithItsLineInTableOrder) {
  const auto r = run({"--help"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::size_t at = 0;
  for (const char* line :
       {"schema", "print the wire schema a provider gets and the Report of every change",
        "validate", "validate documents: one per line (.jsonl, .ndjson, - for stdin) or one file",
        "extract", "extract a value matching the schema from a text, with validation and retries",
        "batch", "extract from many documents as provider batch jobs"}) {
    const auto found = r.out.find(line, at);
    ASSERT_NE(found, std::string::npos) << line << " after offset " << at << " in\n" << r.out;
    at = found;
  }
}

TEST_F(CliCommands, EachCommandTakesItsOwnOptionsOnly) {
  const auto batch = run({"batch", "--help"});
  ASSERT_EQ(batch.code, 0) << batch.err;
  for (const char* option : {"FILE", "--provider", "--corrections", "--first-poll", "--resume"})
    EXPECT_NE(batch.out.find(option), std::string::npos) << option << " in\n" << batch.out;
  const auto schema = run({"schema", "--help"});
  ASSERT_EQ(schema.code, 0) << schema.err;
  EXPECT_NE(schema.out.find("--documents"), std::string::npos) << schema.out;
  for (const char* option : {"--first-poll", "--corrections", "--summary"})
    EXPECT_EQ(schema.out.find(option), std::string::npos) << option << " in\n" << schema.out;
}

TEST_F(CliCommands, ABatchOptionOutsideItsRangeIsAUsageErrorNamingTheRange) {
  const auto r = run({"batch", "schema.json", "--provider", "anthropic", "--input", "docs.jsonl",
                      "--max-poll", "-1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--max-poll"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not in range"), std::string::npos) << r.err;
}

}  // namespace
