// run_batch over real HTTP against accord-mock, for every provider with a batch API (OpenAI's
// Batch API for the two OpenAI providers and Azure's, Anthropic's Message Batches, the Gemini
// Batch API, Mistral's batch jobs): each item judged against the original rules, the invalid ones
// corrected in a second batch, provider-side failures and the poll deadline reported per item.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <vector>

#include "accord/batch.hpp"
#include "fixtures/batch_mock.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using namespace testing_documents;
using namespace testing_batches;

std::string batch_scenario(const std::vector<json>& replies, int polls = 1) {
  return json{{"replies", replies}, {"batch_polls", polls}}.dump();
}

std::vector<ExtractRequest> refund_requests(std::size_t count) {
  std::vector<ExtractRequest> requests;
  for (std::size_t i = 0; i < count; ++i) {
    requests.push_back({.schema = examples::refund_schema(),
                        .prompt = "Extract refund " + std::to_string(i) + ".",
                        .name = "refund"});
  }
  return requests;
}

class BatchJob : public ::testing::TestWithParam<std::string> {
 protected:
  [[nodiscard]] Client client_for(const MockProcess& mock) const {
    return batch_client(GetParam(), mock, kKey);
  }
  [[nodiscard]] std::string batches_path() const {
    return testing_batches::batches_path(GetParam());
  }
};

TEST_P(BatchJob, EveryValidItemIsDecidedInOneBatch) {
  MockProcess mock(batch_scenario({{{"json", kValidRefund}}}));
  const auto results = run_batch(client_for(mock), refund_requests(3), fast_polls());
  ASSERT_EQ(results.size(), 3u);
  for (const auto& result : results) {
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(result.value(), kValidRefund);
    EXPECT_EQ(result.trace().attempts.size(), 1u);
  }
  EXPECT_EQ(created_batches(mock, GetParam()), 1u);
}

TEST_P(BatchJob, InvalidItemsAreCorrectedInASecondBatch) {
  // Items 0..2 take the first three replies; item 1's corrective turn takes the fourth.
  MockProcess mock(batch_scenario({{{"json", kValidRefund}},
                                   {{"json", swapped_dates()}},
                                   {{"json", kValidRefund}},
                                   {{"json", kValidRefund}}}));
  const auto results = run_batch(client_for(mock), refund_requests(3), fast_polls());
  ASSERT_EQ(results.size(), 3u);
  for (const auto& result : results) ASSERT_TRUE(result.ok()) << result.error().message;
  const auto& corrected = results[1].trace();
  ASSERT_EQ(corrected.attempts.size(), 2u);
  ASSERT_EQ(corrected.attempts[0].issues.size(), 1u);
  EXPECT_TRUE(corrected.attempts[1].issues.empty());
  EXPECT_NE(corrected.attempts[1].request_body.find("refundDate is before orderDate"),
            std::string::npos);
  EXPECT_EQ(results[0].trace().attempts.size(), 1u);
  EXPECT_EQ(created_batches(mock, GetParam()), 2u);
}

TEST_P(BatchJob, ItemStillInvalidAfterItsCorrectionFailsLoudly) {
  MockProcess mock(batch_scenario({{{"json", swapped_dates()}}}));
  const auto results = run_batch(client_for(mock), refund_requests(1), fast_polls());
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().kind, ErrorKind::invalid_after_retries);
  EXPECT_EQ(results[0].trace().attempts.size(), 2u);
}

TEST_P(BatchJob, ItemTheProviderLetExpireEndsUnansweredWithItsRequest) {
  MockProcess mock(batch_scenario({{{"json", kValidRefund}}, {{"batch_expired", true}}}));
  const auto results = run_batch(client_for(mock), refund_requests(2), fast_polls());
  ASSERT_TRUE(results[0].ok()) << results[0].error().message;
  ASSERT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].error().kind, ErrorKind::batch_unanswered);
  EXPECT_NE(results[1].error().message.find("expired"), std::string::npos)
      << results[1].error().message;
  ASSERT_EQ(results[1].trace().attempts.size(), 1u);
  EXPECT_FALSE(results[1].trace().attempts[0].request_body.empty());
}

TEST_P(BatchJob, ItemErroredAtTheProviderIsAnHttpError) {
  MockProcess mock(batch_scenario({{{"status", 400}, {"error", {{"message", "bad max_tokens"}}}}}));
  const auto results = run_batch(client_for(mock), refund_requests(1), fast_polls());
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().kind, ErrorKind::http);
  EXPECT_NE(results[0].error().message.find("bad max_tokens"), std::string::npos)
      << results[0].error().message;
}

TEST_P(BatchJob, PollDeadlineCancelsTheBatchAndEndsItsItems) {
  MockProcess mock(batch_scenario({{{"json", kValidRefund}}}, 100'000));
  auto options = fast_polls();
  options.deadline = 150ms;
  const auto results = run_batch(client_for(mock), refund_requests(2), options);
  for (const auto& result : results) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, ErrorKind::batch_unanswered);
    EXPECT_NE(result.error().message.find("deadline"), std::string::npos) << result.error().message;
  }
  EXPECT_EQ(count_requests(mock, "POST", batches_path(), cancel_suffix(GetParam())), 1u);
}

TEST_P(BatchJob, StatusRequestThatFailsIsMadeAgainAfterTheNextWait) {
  MockProcess mock(json{
      {"replies", json::array({json{{"json", kValidRefund}}})},
      {"batch_polls", 1},
      {"batch_poll_failures",
       1}}.dump());
  ClientOptions options{.provider = GetParam(), .base_url = mock.base_url(), .api_key = kKey};
  options.retry.max_retries = 0;  // the 503 reaches the batch loop instead of the transport's
  const auto results = run_batch(Client(std::move(options)), refund_requests(1), fast_polls());
  ASSERT_TRUE(results[0].ok()) << results[0].error().message;
  const auto gets = count_requests(mock, "GET", batches_path() + "/");
  EXPECT_EQ(gets - count_requests(mock, "GET", batches_path() + "/", "/results"), 2u);
}

TEST_P(BatchJob, ProgressIsReportedAtCreationAndAfterEachPoll) {
  MockProcess mock(batch_scenario({{{"json", kValidRefund}}}, 3));
  auto options = fast_polls();
  std::vector<BatchProgress> seen;
  options.on_progress = [&](const BatchProgress& progress) { seen.push_back(progress); };
  const auto results = run_batch(client_for(mock), refund_requests(4), options);
  ASSERT_TRUE(results[3].ok()) << results[3].error().message;
  ASSERT_EQ(seen.size(), 4u);  // created, then three polls
  EXPECT_EQ(seen[0].polls, 0);
  EXPECT_EQ(seen[3].polls, 3);
  EXPECT_EQ(seen[3].items, 4u);
  EXPECT_EQ(seen[3].finished, 4u);
  EXPECT_LT(seen[1].finished, seen[3].finished);
  EXPECT_FALSE(seen[3].batch_id.empty());
}

TEST_P(BatchJob, KeyNeverReachesTracesOrErrors) {
  MockProcess mock(batch_scenario({{{"json", swapped_dates()}}, {{"batch_expired", true}}}));
  const auto results = run_batch(client_for(mock), refund_requests(2), fast_polls());
  for (const auto& result : results) {
    const std::string everything = result.trace().to_json().dump() + result.trace().to_text() +
                                   (result.ok() ? "" : result.error().message);
    EXPECT_EQ(everything.find("SENTINEL"), std::string::npos) << everything;
  }
}

INSTANTIATE_TEST_SUITE_P(Protocols, BatchJob, batch_providers(), provider_test_name);

TEST(Batch, ProviderWithoutABatchApiIsRefusedBeforeSending) {
  const Client client({.provider = "generic", .base_url = "http://127.0.0.1:9"});
  EXPECT_THROW((void)run_batch(client, refund_requests(1)), std::invalid_argument);
}

TEST(Batch, BatchApiErrorEndsEveryItemWithTheReason) {
  // A base URL whose paths the mock does not serve: the upload gets a 404.
  MockProcess mock(batch_scenario({{{"json", kValidRefund}}}));
  const Client client({.provider = "openai-chat", .base_url = mock.root_url() + "/nowhere"});
  const auto results = run_batch(client, refund_requests(2), fast_polls());
  for (const auto& result : results) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, ErrorKind::batch_unanswered);
    EXPECT_NE(result.error().message.find("HTTP 404"), std::string::npos) << result.error().message;
  }
}

// The batch API requests the mock received on a path that starts with `prefix`.
std::vector<json> requests_to(const MockProcess& mock, const std::string& prefix) {
  std::vector<json> out;
  for (const auto& entry : mock.requests()) {
    if (entry["path"].get<std::string>().starts_with(prefix)) out.push_back(entry);
  }
  return out;
}

TEST(Batch, AzureBatchGoesUnderOpenAIWithTheApiVersionAndNamesChatCompletions) {
  MockProcess mock(batch_scenario({{{"json", kValidRefund}}}));
  const auto results =
      run_batch(batch_client("azure-openai", mock, kKey), refund_requests(1), fast_polls());
  ASSERT_TRUE(results[0].ok()) << results[0].error().message;
  const auto creations = requests_to(mock, "/v1/openai/batches");
  ASSERT_FALSE(creations.empty());
  // Every request of the job (upload, creation, status, results) carries the api-version.
  for (const auto& request : requests_to(mock, "/v1/openai/")) {
    EXPECT_TRUE(request.contains("query") && request["query"].contains("api-version"))
        << request.dump();
  }
  EXPECT_EQ(creations[0]["body"]["endpoint"], "/chat/completions");
}

TEST(Batch, MistralJobNamesTheModelAndTheEndpointOnce) {
  MockProcess mock(batch_scenario({{{"json", kValidRefund}}}));
  const auto results =
      run_batch(batch_client("mistral", mock, kKey), refund_requests(2), fast_polls());
  for (const auto& result : results) ASSERT_TRUE(result.ok()) << result.error().message;
  const auto jobs = requests_to(mock, "/v1/batch/jobs");
  ASSERT_FALSE(jobs.empty());
  EXPECT_EQ(jobs[0]["body"]["model"], "test-model");
  EXPECT_EQ(jobs[0]["body"]["endpoint"], "/v1/chat/completions");
}

}  // namespace
}  // namespace accord
