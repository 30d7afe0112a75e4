// `accord validate --jobs N` folds each batch's issues into tally rows on the judging threads and
// merges them in input order on the printing one (#26): whatever the threads, the output is the
// same bytes, --max-errors stops at the same document (its summary counting only the documents
// before the stop), and the summary keeps the same first 1000 rows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixtures/cli_run.hpp"

namespace {

constexpr const char* kJobsAmountSchema = R"({
  "type": "object",
  "properties": {"amount": {"type": "integer", "minimum": 1}, "items": {"type": "array",
                 "items": {"type": "string"}}},
  "required": ["amount"]
})";

// Free keys whose values must be integers: a string under each new key is a new tally row.
constexpr const char* kJobsFreeKeysSchema = R"({
  "type": "object", "additionalProperties": {"type": "integer"}
})";

// `count` lines over several batches: every third has amount 0 (too_small at amount), every fifth
// a string item (invalid_type at items[]), the rest valid.
std::string jobs_documents(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) {
    const int amount = i % 3 == 0 ? 0 : i;
    const std::string items = i % 5 == 0 ? R"(["a", 7])" : R"(["a"])";
    text += "{\"amount\": " + std::to_string(amount) + ", \"items\": " + items + "}\n";
  }
  return text;
}

class CliValidateJobs : public cli_testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (IsSkipped()) return;
    write("amount.json", kJobsAmountSchema);
    write("free.json", kJobsFreeKeysSchema);
    write("docs.jsonl", jobs_documents(3000));
  }

  // The command's output with --jobs 1, after checking --jobs 2 prints the very same.
  std::string same_with_one_and_two_jobs(std::vector<std::string> args) const {
    auto one = args;
    one.insert(one.end(), {"--jobs", "1"});
    auto two = std::move(args);
    two.insert(two.end(), {"--jobs", "2"});
    const auto serial = run(one);
    const auto parallel = run(two);
    EXPECT_EQ(parallel.code, serial.code);
    EXPECT_EQ(parallel.out, serial.out);
    return serial.out;
  }
};

TEST_F(CliValidateJobs, JobsTwoPrintsTheSameSummaryAsJobsOne) {
  const auto out = same_with_one_and_two_jobs(
      {"validate", file("amount.json"), file("docs.jsonl"), "--summary"});
  EXPECT_EQ(out,
            "issues by code and path:\n"
            "  1000 too_small at amount\n"
            "  600 invalid_type at items[]\n"
            "3000 documents: 1600 valid, 1400 invalid\n");
}

TEST_F(CliValidateJobs, JobsTwoPrintsTheSameVerdictsAndJsonSummaryAsJobsOne) {
  const auto out =
      same_with_one_and_two_jobs({"validate", file("amount.json"), file("docs.jsonl"), "--json"});
  EXPECT_NE(out.find(R"({"summary":{"documents":3000,"valid":1600,"invalid":1400,)"),
            std::string::npos);
}

// The stop falls inside a batch: the documents after it in that batch are neither printed nor
// counted, their issues left out of the summary.
TEST_F(CliValidateJobs, MaxErrorsInsideABatchCountsOnlyTheDocumentsBeforeTheStop) {
  const auto out = same_with_one_and_two_jobs(
      {"validate", file("amount.json"), file("docs.jsonl"), "--max-errors", "500"});
  // The 500th invalid document is line 1071, in the fifth batch of 256: up to it 357 lines have
  // amount 0 and 214 a string item, 71 of them both.
  EXPECT_NE(out.find("line 1071: invalid"), std::string::npos);
  EXPECT_EQ(out.find("line 1075:"), std::string::npos);
  EXPECT_NE(out.find("issues by code and path:\n"
                     "  357 too_small at amount\n"
                     "  214 invalid_type at items[]\n"
                     "stopped after 500 invalid documents (--max-errors)\n"
                     "1071 documents: 571 valid, 500 invalid\n"),
            std::string::npos)
      << out.substr(out.size() > 400 ? out.size() - 400 : 0);
}

TEST_F(CliValidateJobs, TheSummaryKeepsTheFirstThousandRowsWithEitherJobs) {
  std::string text;
  for (int i = 1; i <= 1500; ++i) text += "{\"k" + std::to_string(i) + "\": \"x\"}\n";
  write("keys.jsonl", text);
  const auto out =
      same_with_one_and_two_jobs({"validate", file("free.json"), file("keys.jsonl"), "--summary"});
  EXPECT_NE(out.find("  1 invalid_type at k1000\n"), std::string::npos);
  EXPECT_EQ(out.find(" at k1001\n"), std::string::npos);
  EXPECT_NE(out.find("  500 more at other paths\n1500 documents: 0 valid, 1500 invalid\n"),
            std::string::npos);
}

}  // namespace
