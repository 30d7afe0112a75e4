// Truncated replies recovered instead of corrected, over real HTTP against accord-mock: continued
// after an Anthropic prefill, retried once with a raised cap elsewhere, and given up loudly with
// the partial text kept.
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

// The valid refund, cut by the mock wherever the request's output cap says (at 4 bytes a token;
// the refund is 153 bytes, so a cap of 15 tokens (60 bytes) cuts it twice).
const json kCutAtTheCap = {{"json", kValidRefund}, {"obey_max_tokens", true}};

Result<json> extract(const MockProcess& mock, const std::string& provider,
                     TruncationRecovery truncation = {}) {
  const Client client({.provider = provider,
                       .base_url = provider == "anthropic" ? mock.root_url() : mock.base_url(),
                       .max_tokens = 15,
                       .truncation = truncation});
  return client.extract(
      {.schema = examples::refund_schema(), .prompt = "Extract the refund.", .name = "refund"});
}

TEST(TruncationRecovery, AnthropicOutputIsContinuedAfterAPrefillAndJoined) {
  MockProcess mock(scenario({kCutAtTheCap}));
  auto result = extract(mock, "anthropic");
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(attempts[0].status, ReplyStatus::truncated);
  EXPECT_EQ(attempts[1].role, AttemptRole::continuation);
  EXPECT_EQ(attempts[2].role, AttemptRole::continuation);
  EXPECT_EQ(attempts[0].content + attempts[1].content + attempts[2].content, kValidRefund.dump());
  EXPECT_NE(attempts[2].note.find("judged joined"), std::string::npos) << attempts[2].note;

  // The continuation sends the text so far as the last assistant turn, and no output format,
  // which Anthropic refuses beside a prefill.
  const json second = mock.requests().at(1)["body"];
  EXPECT_EQ(second["messages"].back()["role"], "assistant");
  EXPECT_EQ(second["messages"].back()["content"], attempts[0].content);
  EXPECT_FALSE(second.contains("output_config"));
  EXPECT_TRUE(mock.requests().at(0)["body"].contains("output_config"));
}

// The prefill is the continuation's alone: a joined object corrected whole goes back as the
// caller's turns, the joined reply echoed and the issues, as a correction without one would.
TEST(TruncationRecovery, AWholeCorrectionAfterAContinuationSendsTheCallersTurnsWithoutThePrefill) {
  const json cut_bad = {{"json", bad_amount()}, {"obey_max_tokens", true}};
  MockProcess mock(scenario({cut_bad, cut_bad, cut_bad, {{"json", kValidRefund}}}));
  const Client client({.provider = "anthropic", .base_url = mock.root_url(), .max_tokens = 15});
  auto result =
      client.extract({.schema = examples::refund_schema(),
                      .prompt = "Extract the refund.",
                      .name = "refund",
                      .correction = CorrectionPolicy{.style = CorrectionStyle::whole_object}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 4u);
  EXPECT_EQ(attempts[2].role, AttemptRole::continuation);
  EXPECT_EQ(attempts[3].role, AttemptRole::whole_correction);

  const json first = mock.requests().at(0)["body"]["messages"];
  const json correction = mock.requests().at(3)["body"]["messages"];
  ASSERT_EQ(correction.size(), first.size() + 2) << correction.dump(2);
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(correction[i], first[i]);
  EXPECT_EQ(correction[first.size()]["role"], "assistant");
  EXPECT_EQ(correction[first.size()]["content"], bad_amount().dump());
  EXPECT_EQ(correction.back()["role"], "user");
  EXPECT_NE(correction.back().dump().find("amount"), std::string::npos) << correction.dump(2);
}

TEST(TruncationRecovery, OpenAiRequestIsRetriedOnceWithARaisedCap) {
  MockProcess mock(scenario({kCutAtTheCap}));
  auto result = extract(mock, "openai-chat");
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].note, "truncated; sent again with max_tokens 60 instead of 15");
  EXPECT_EQ(attempts[1].role, AttemptRole::raised_cap);
  EXPECT_EQ(mock.requests().at(1)["body"]["max_completion_tokens"], 60);
  // Never a "fix your JSON" turn: the same conversation again.
  EXPECT_EQ(mock.requests().at(1)["body"]["messages"], mock.requests().at(0)["body"]["messages"]);
}

// A continuation answered with an error ends the call as that error; the failed attempt's note
// says the pieces so far are not joined into anything.
TEST(TruncationRecovery, AFailedContinuationEndsTheCallAndSaysTheOutputSoFarIsLost) {
  MockProcess mock(scenario({kCutAtTheCap, {{"status", 401}}}));
  auto result = extract(mock, "anthropic");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::http) << result.error().message;
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].status, ReplyStatus::truncated);
  EXPECT_EQ(attempts[1].role, AttemptRole::continuation);
  EXPECT_NE(attempts[1].note.find("the continuation failed; the output so far is lost"),
            std::string::npos)
      << attempts[1].note;
}

TEST(TruncationRecovery, GivesUpAsTruncatedWithThePartialTextInTheTrace) {
  MockProcess mock(scenario({kCutAtTheCap}));
  auto result = extract(mock, "openai-responses", {.raised_max_tokens = 30});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::truncated);
  EXPECT_NE(result.error().message.find("with max_tokens raised to 30"), std::string::npos)
      << result.error().message;
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[1].role, AttemptRole::raised_cap);
  EXPECT_EQ(attempts[1].content, kValidRefund.dump().substr(0, 120));
  EXPECT_NE(attempts[1].note.find("the partial output (120 bytes)"), std::string::npos)
      << attempts[1].note;
}

TEST(TruncationRecovery, ContinuationsUsedUpEndAsTruncatedWithEveryPiece) {
  MockProcess mock(scenario({kCutAtTheCap}));
  auto result = extract(mock, "anthropic", {.max_continuations = 1});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::truncated);
  const auto& attempts = result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].content + attempts[1].content, kValidRefund.dump().substr(0, 120));
  EXPECT_NE(attempts[1].note.find("after 1 continuation"), std::string::npos) << attempts[1].note;
}

TEST(TruncationRecovery, DisabledLeavesTruncationAnError) {
  MockProcess mock(scenario({kCutAtTheCap}));
  auto result = extract(mock, "openai-chat", {.enabled = false});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::truncated);
  EXPECT_EQ(result.trace().attempts.size(), 1u);
}

}  // namespace
}  // namespace accord
