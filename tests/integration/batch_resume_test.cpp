// A batch job cut short and picked up again, over real HTTP against accord-mock: the record of its
// batches is handed out before any wait, a stop ends the wait at once (leaving the batch running
// or cancelling it), and a resume polls the recorded batches instead of paying for new ones.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <stop_token>
#include <thread>
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

std::vector<ExtractRequest> refund_requests(std::size_t count, const std::string& prompt) {
  std::vector<ExtractRequest> requests;
  for (std::size_t i = 0; i < count; ++i) {
    requests.push_back({.schema = examples::refund_schema(),
                        .prompt = prompt + " " + std::to_string(i),
                        .name = "refund"});
  }
  return requests;
}

// Two items, the second corrected in round 2.
std::string second_item_corrected() {
  const json replies = {
      {{"json", kValidRefund}}, {{"json", swapped_dates()}}, {{"json", kValidRefund}}};
  return json{{"replies", replies}, {"batch_polls", 1}}.dump();
}

class BatchResume : public ::testing::TestWithParam<std::string> {
 protected:
  [[nodiscard]] Client client_for(const MockProcess& mock) const {
    return batch_client(GetParam(), mock, kKey);
  }
  // The batch API requests the mock received on `method` whose path ends with `suffix`.
  [[nodiscard]] std::size_t count(const MockProcess& mock, const std::string& method,
                                  const std::string& suffix) const {
    return count_requests(mock, method, batches_path(GetParam()), suffix);
  }
  [[nodiscard]] std::size_t created(const MockProcess& mock) const {
    return created_batches(mock, GetParam());
  }

  // Polls every few milliseconds once the first (long) wait is over.
  static BatchOptions options(std::chrono::milliseconds first_poll) {
    BatchOptions out;
    out.first_poll = first_poll;
    out.max_poll_interval = 10ms;
    out.deadline = 20s;
    return out;
  }

  // Runs the job and stops it as soon as `batches` batches are recorded (from on_record, so the
  // stop is seen at the next wait); returns what the stop carried.
  BatchStopped stopped_run(const MockProcess& mock, const std::vector<ExtractRequest>& requests,
                           std::size_t batches, bool cancel = false) const {
    std::stop_source source;
    auto opts = options(2ms);
    opts.stop = source.get_token();
    opts.cancel_on_stop = cancel;
    opts.on_record = [&](const BatchRecord& record) {
      if (record.batches.size() == batches) source.request_stop();
    };
    try {
      (void)run_batch(client_for(mock), requests, opts);
    } catch (const BatchStopped& stopped) {
      return stopped;
    }
    ADD_FAILURE() << "run_batch was not stopped";
    return BatchStopped("", {}, false);
  }
};

TEST_P(BatchResume, RecordNamesTheBatchBeforeItsFirstStatusRequest) {
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}, {"batch_polls", 1}}.dump());
  auto opts = options(2ms);
  std::vector<BatchRecord> seen;
  std::size_t polls_before_record = 99;
  opts.on_record = [&](const BatchRecord& record) {
    seen.push_back(record);
    polls_before_record = count(mock, "GET", "");
  };
  const auto results = run_batch(client_for(mock), refund_requests(2, "Refund"), opts);
  ASSERT_TRUE(results[1].ok()) << results[1].error().message;
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(polls_before_record, 0u);
  const auto& record = seen[0];
  EXPECT_EQ(record.provider, GetParam());
  EXPECT_EQ(record.origin, mock.root_url());
  ASSERT_EQ(record.batches.size(), 1u);
  EXPECT_EQ(record.batches[0].round, 1);
  EXPECT_FALSE(record.batches[0].batch_id.empty());
  EXPECT_EQ(record.batches[0].custom_ids, (std::vector<std::string>{"item-0", "item-1"}));
  EXPECT_EQ(record.to_json().dump().find("SENTINEL"), std::string::npos);
}

TEST_P(BatchResume, StopFromAnotherThreadEndsTheWaitAtOnce) {
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}, {"batch_polls", 1}}.dump());
  std::stop_source source;
  std::atomic<bool> recorded{false};
  auto opts = options(60s);
  opts.deadline = 1h;
  opts.stop = source.get_token();
  opts.on_record = [&](const BatchRecord&) { recorded = true; };
  std::jthread stopper([&] {
    while (!recorded) std::this_thread::sleep_for(1ms);
    std::this_thread::sleep_for(50ms);  // well into the minute's wait
    source.request_stop();
  });
  const auto started = std::chrono::steady_clock::now();
  EXPECT_THROW((void)run_batch(client_for(mock), refund_requests(1, "Refund"), opts), BatchStopped);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_EQ(count(mock, "GET", ""), 0u);
}

TEST_P(BatchResume, StopLeavesTheBatchRunningByDefault) {
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}, {"batch_polls", 1}}.dump());
  const auto stopped = stopped_run(mock, refund_requests(2, "Refund"), 1);
  EXPECT_FALSE(stopped.cancelled());
  ASSERT_EQ(stopped.record().batches.size(), 1u);
  EXPECT_NE(std::string(stopped.what()).find("runs on at the provider"), std::string::npos)
      << stopped.what();
  EXPECT_EQ(count(mock, "POST", "/cancel"), 0u);
}

TEST_P(BatchResume, StopWithCancelOnStopSendsTheProvidersCancel) {
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}, {"batch_polls", 1}}.dump());
  const auto stopped = stopped_run(mock, refund_requests(2, "Refund"), 1, true);
  EXPECT_TRUE(stopped.cancelled());
  EXPECT_NE(std::string(stopped.what()).find("cancel sent"), std::string::npos) << stopped.what();
  EXPECT_EQ(
      count(mock, "POST", "/" + stopped.record().batches[0].batch_id + cancel_suffix(GetParam())),
      1u);
}

TEST_P(BatchResume, StopRequestedBeforeTheStartSendsNothing) {
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}}.dump());
  std::stop_source source;
  source.request_stop();
  auto opts = options(2ms);
  opts.stop = source.get_token();
  EXPECT_THROW((void)run_batch(client_for(mock), refund_requests(1, "Refund"), opts), BatchStopped);
  EXPECT_TRUE(mock.requests().empty());
}

TEST_P(BatchResume, ResumePollsTheRecordedBatchInsteadOfCreatingAnother) {
  // Item 1's first answer is invalid: the resumed job reads round 1 from the recorded batch and
  // creates only round 2.
  MockProcess mock(second_item_corrected());
  const auto requests = refund_requests(2, "Refund");
  const auto stopped = stopped_run(mock, requests, 1);
  auto opts = options(2ms);
  opts.resume = stopped.record();
  const auto results = run_batch(client_for(mock), requests, opts);
  for (const auto& result : results) ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(results[1].trace().attempts.size(), 2u);
  EXPECT_EQ(created(mock), 2u);  // round 1 once (by the stopped run), round 2 once
}

TEST_P(BatchResume, ResumeAfterTheLastRoundWasCreatedCreatesNothing) {
  MockProcess mock(second_item_corrected());
  const auto requests = refund_requests(2, "Refund");
  const auto stopped = stopped_run(mock, requests, 2);
  ASSERT_EQ(stopped.record().batches.size(), 2u);
  auto opts = options(2ms);
  opts.resume = stopped.record();
  const auto results = run_batch(client_for(mock), requests, opts);
  for (const auto& result : results) ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(results[1].value(), kValidRefund);
  EXPECT_EQ(created(mock), 2u);
}

TEST_P(BatchResume, ResumeWithOtherRequestsIsRefusedBeforeAnyRequest) {
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}, {"batch_polls", 1}}.dump());
  const auto stopped = stopped_run(mock, refund_requests(2, "Refund"), 1);
  const auto sent = mock.requests().size();
  auto opts = options(2ms);
  opts.resume = stopped.record();
  EXPECT_THROW((void)run_batch(client_for(mock), refund_requests(2, "Another refund"), opts),
               std::invalid_argument);
  EXPECT_EQ(mock.requests().size(), sent);
}

TEST_P(BatchResume, ResumeAtAnotherOriginIsRefusedBeforeAnyRequest) {
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}, {"batch_polls", 1}}.dump());
  const auto requests = refund_requests(1, "Refund");
  const auto stopped = stopped_run(mock, requests, 1);
  const auto sent = mock.requests().size();
  auto opts = options(2ms);
  opts.resume = stopped.record();
  opts.resume->origin = "https://elsewhere.example:443";
  EXPECT_THROW((void)run_batch(client_for(mock), requests, opts), std::invalid_argument);
  EXPECT_EQ(mock.requests().size(), sent);
}

INSTANTIATE_TEST_SUITE_P(Protocols, BatchResume, batch_providers(), provider_test_name);

TEST(BatchRecordJson, RoundTripsThroughItsJson) {
  const BatchRecord record{.provider = "anthropic",
                           .origin = "https://api.anthropic.com:443",
                           .batches = {{.round = 1,
                                        .batch_id = "msgbatch_1",
                                        .custom_ids = {"item-0", "item-1"},
                                        .digest = "fnv1a64:0123456789abcdef"},
                                       {.round = 2,
                                        .batch_id = "msgbatch_2",
                                        .custom_ids = {"item-1"},
                                        .digest = "fnv1a64:fedcba9876543210"}}};
  const auto back = BatchRecord::from_json(json::parse(record.to_json().dump()));
  EXPECT_EQ(back.to_json(), record.to_json());
  EXPECT_EQ(back.batches[1].custom_ids, std::vector<std::string>{"item-1"});
}

TEST(BatchRecordJson, MalformedRecordIsRefusedNamingWhatIsWrong) {
  json document =
      BatchRecord{.provider = "anthropic", .origin = "https://a:443", .batches = {}}.to_json();
  document["batches"] = json::array({{{"round", 1}, {"items", {"item-0"}}, {"digest", "x"}}});
  try {
    (void)BatchRecord::from_json(document);
    FAIL() << "accepted a batch without its id";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("batch_id"), std::string::npos) << e.what();
  }
}

TEST(BatchApi, OnlyTheProvidersWithABatchProtocolHaveOne) {
  EXPECT_TRUE(has_batch_api("openai-chat"));
  EXPECT_TRUE(has_batch_api("openai-responses"));
  EXPECT_TRUE(has_batch_api("anthropic"));
  EXPECT_FALSE(has_batch_api("generic"));
}

}  // namespace
}  // namespace accord
