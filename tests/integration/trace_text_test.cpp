// The traces docs/loop.md quotes: each recovery names its role and says what the loop did, in
// to_text() and to_json().
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

Result<json> run(const std::vector<json>& replies, ClientOptions options) {
  MockProcess mock(scenario(replies));
  options.base_url = options.provider == "anthropic" ? mock.root_url() : mock.base_url();
  const Client client(options);
  return client.extract({.schema = examples::refund_schema(),
                         .prompt = "Extract the refund.",
                         .system = "You extract refunds.",
                         .name = "refund"});
}

TEST(TraceText, NamesTheRoleOfEveryFollowUpAndTheLoopsNote) {
  auto result =
      run({{{"json", bad_amount()}}, {{"json", {{"amount", -1}}}}, {{"json", kValidRefund}}},
          {.provider = "openai-chat", .corrections = 2});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::string text = result.trace().to_text();
  EXPECT_NE(text.find("attempt 1: HTTP 200"), std::string::npos) << text;
  EXPECT_NE(text.find("  loop: correction scoped to amount\nattempt 2 (scoped_correction): "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("attempt 3 (whole_correction): "), std::string::npos) << text;
  const auto attempts = result.trace().to_json()["attempts"];
  EXPECT_EQ(attempts[1]["role"], "scoped_correction");
  EXPECT_EQ(attempts[1]["note"],
            "merged amount into the previous object: still invalid; the correction is sent whole");
}

TEST(TraceText, BudgetStopIsTheLastNoteAndTheErrorSaysWhatItNeeded) {
  auto result =
      run({{{"json", bad_amount()}}, {{"json", {{"amount", -1}}}}, {{"json", kValidRefund}}},
          {.provider = "openai-chat", .corrections = 2, .budget = {.max_tokens = 500}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message,
            "the token budget of 500 is spent (432 used over 2 attempts; the whole_correction "
            "needs about 318 more): \u2716 Too small: expected number to be >0 \u2192 at amount");
  EXPECT_NE(result.trace().to_text().find(
                "; stopped by the token budget: 432 of 500 spent, the whole_correction would take "
                "about 318 input tokens"),
            std::string::npos)
      << result.trace().to_text();
}

TEST(TraceText, ContinuationsShowThePiecesAndTheJoin) {
  const json cut = {{"json", kValidRefund}, {"obey_max_tokens", true}};
  auto result = run({cut}, {.provider = "anthropic", .max_tokens = 15});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::string text = result.trace().to_text();
  EXPECT_NE(text.find("  loop: truncated; continuing from the 60 bytes so far\n"
                      "attempt 2 (continuation): HTTP 200, truncated"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  loop: continued the 120 bytes before it; judged joined (153 bytes)"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace accord
