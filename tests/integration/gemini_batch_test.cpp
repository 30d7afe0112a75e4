// The Gemini Batch API (issue 27) over real HTTP: the batch as accord-mock receives it, an expired
// batch, a Vertex base URL, and, from a raw-socket provider (fixtures/hostile_server.hpp),
// responses that do not carry their key and the responses file form. Also, for every batch
// protocol, an item the results leave out is named, never lost.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "accord/batch.hpp"
#include "fixtures/batch_mock.hpp"
#include "fixtures/hostile_server.hpp"
#include "fixtures/mock_process.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using namespace testing_batches;

const Schema kGeminiNote = object({{"note", string()}});
const json kGeminiNoteValue = {{"note", "paid"}};

std::vector<ExtractRequest> gemini_note_requests(std::size_t count) {
  return std::vector<ExtractRequest>(
      count, ExtractRequest{.schema = kGeminiNote, .prompt = "n", .name = "note"});
}

BatchOptions gemini_fast_polls() {
  return {.first_poll = 1ms, .max_poll_interval = 5ms, .deadline = 20s};
}

std::string gemini_scenario(const std::vector<json>& replies) {
  return json{{"replies", replies}, {"batch_polls", 1}}.dump();
}

class BatchResultsLeaveOut : public ::testing::TestWithParam<std::string> {};

TEST_P(BatchResultsLeaveOut, ItemMissingFromTheResultsEndsUnansweredNamingIt) {
  MockProcess mock(gemini_scenario(
      {{{"json", kGeminiNoteValue}}, {{"batch_missing", true}}, {{"json", kGeminiNoteValue}}}));
  const auto results =
      run_batch(batch_client(GetParam(), mock, kKey), gemini_note_requests(3), gemini_fast_polls());
  ASSERT_EQ(results.size(), 3u);
  ASSERT_TRUE(results[0].ok()) << results[0].error().message;
  ASSERT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].error().kind, ErrorKind::batch_unanswered);
  EXPECT_NE(results[1].error().message.find("no result"), std::string::npos)
      << results[1].error().message;
  ASSERT_EQ(results[1].trace().attempts.size(), 1u);
  EXPECT_FALSE(results[1].trace().attempts[0].request_body.empty());
  ASSERT_TRUE(results[2].ok()) << results[2].error().message;
}

INSTANTIATE_TEST_SUITE_P(Protocols, BatchResultsLeaveOut, batch_providers(), provider_test_name);

TEST(GeminiBatch, GeminiHasABatchApi) {
  EXPECT_TRUE(has_batch_api("gemini"));
}

TEST(GeminiBatch, RequestsGoInlineEachTaggedWithItsItemsKey) {
  MockProcess mock(gemini_scenario({{{"json", kGeminiNoteValue}}}));
  const auto results =
      run_batch(batch_client("gemini", mock, kKey), gemini_note_requests(2), gemini_fast_polls());
  for (const auto& result : results) ASSERT_TRUE(result.ok()) << result.error().message;
  std::vector<json> creations;
  for (const auto& entry : mock.requests()) {
    if (entry["path"] == "/v1/models/test-model:batchGenerateContent") creations.push_back(entry);
  }
  ASSERT_EQ(creations.size(), 1u);
  const auto& requests = creations[0]["body"]["batch"]["inputConfig"]["requests"]["requests"];
  ASSERT_EQ(requests.size(), 2u);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i]["metadata"]["key"], "item-" + std::to_string(i));
    EXPECT_TRUE(requests[i]["request"]["contents"].is_array()) << requests[i].dump();
  }
}

TEST(GeminiBatch, ExpiredBatchEndsEveryItemUnansweredSayingSo) {
  MockProcess mock(gemini_scenario({{{"batch_expired", true}}}));
  const auto results =
      run_batch(batch_client("gemini", mock, kKey), gemini_note_requests(2), gemini_fast_polls());
  for (const auto& result : results) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, ErrorKind::batch_unanswered);
    EXPECT_NE(result.error().message.find("expired"), std::string::npos) << result.error().message;
  }
}

TEST(GeminiBatch, VertexBaseUrlIsRefusedForEveryItemWithTheReason) {
  MockProcess mock(gemini_scenario({{{"json", kGeminiNoteValue}}}));
  ClientOptions options{.provider = "gemini",
                        .model = "test-model",
                        .base_url = mock.root_url() + "/v1beta1/projects/p/locations/l",
                        .api_key = kKey};
  const auto results =
      run_batch(Client(std::move(options)), gemini_note_requests(1), gemini_fast_polls());
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().kind, ErrorKind::batch_unanswered);
  EXPECT_NE(results[0].error().message.find("Vertex"), std::string::npos)
      << results[0].error().message;
  EXPECT_TRUE(mock.requests().empty());
}

// ---- a raw-socket provider: what the mock never sends --------------------------------------

// A GenerateContentResponse whose text is the note `note`.
json gemini_answer(const std::string& note) {
  return {{"candidates",
           json::array({{{"content",
                          {{"role", "model"},
                           {"parts", json::array({{{"text", json{{"note", note}}.dump()}}})}}},
                         {"finishReason", "STOP"}}})},
          {"usageMetadata", {{"promptTokenCount", 1}, {"candidatesTokenCount", 1}}}};
}

// The method and path of the request being answered ("GET /v1/...").
std::string gemini_request_line(const hostile::Server& server) {
  const std::string& request = server.request();
  const auto first = request.find(' ');
  return request.substr(0, request.find(' ', first + 1));
}

// Gemini's batch API with a batch done at creation whose output is `output`; `file` answers the
// download of files/out.
hostile::Server::Answer gemini_provider(json output, std::string file = "") {
  return [output = std::move(output), file = std::move(file)](hostile::Server& server,
                                                              int connection) {
    const std::string line = gemini_request_line(server);
    std::string body = "{}";
    if (line.ends_with(":batchGenerateContent")) {
      body = json{{"name", "batches/b1"},
                  {"metadata", {{"state", "BATCH_STATE_SUCCEEDED"}}},
                  {"done", true},
                  {"response", output}}
                 .dump();
    } else if (line == "GET /download/v1/files/out:download?alt=media") {
      body = file;
    }
    hostile::Server::send(connection, hostile::Server::response(body));
  };
}

Client gemini_hostile_client(const hostile::Server& server) {
  ClientOptions options{.provider = "gemini", .base_url = server.base_url(), .api_key = kKey};
  options.retry.max_retries = 0;
  return Client(std::move(options));
}

TEST(GeminiBatch, ResponsesWithoutTheirKeyStandAtTheirItemsPosition) {
  // Responses come in the order of the requests, and may come without the metadata sent.
  hostile::Server server(gemini_provider(
      {{"inlinedResponses",
        {{"inlinedResponses", json::array({{{"response", gemini_answer("first")}},
                                           {{"response", gemini_answer("second")}}})}}}}));
  const auto results =
      run_batch(gemini_hostile_client(server), gemini_note_requests(2), gemini_fast_polls());
  ASSERT_TRUE(results[0].ok()) << results[0].error().message;
  ASSERT_TRUE(results[1].ok()) << results[1].error().message;
  EXPECT_EQ(results[0].value()["note"], "first");
  EXPECT_EQ(results[1].value()["note"], "second");
}

TEST(GeminiBatch, UnkeyedResponsesAreNotGuessedWhenTheCountDiffers) {
  // Two responses for three requests, one keyed: only the keyed one can be placed.
  hostile::Server server(gemini_provider(
      {{"inlinedResponses",
        {{"inlinedResponses", json::array({{{"response", gemini_answer("unkeyed")}},
                                           {{"response", gemini_answer("third")},
                                            {"metadata", {{"key", "item-2"}}}}})}}}}));
  const auto results =
      run_batch(gemini_hostile_client(server), gemini_note_requests(3), gemini_fast_polls());
  ASSERT_TRUE(results[2].ok()) << results[2].error().message;
  EXPECT_EQ(results[2].value()["note"], "third");
  for (const std::size_t i : {0u, 1u}) {
    ASSERT_FALSE(results[i].ok());
    EXPECT_EQ(results[i].error().kind, ErrorKind::batch_unanswered);
  }
}

TEST(GeminiBatch, ResponsesFileIsReadByKey) {
  const std::string file =
      json{{"key", "item-1"}, {"response", gemini_answer("second")}}.dump() + "\n" +
      json{{"key", "item-0"},
           {"error", {{"code", 8}, {"message", "quota"}, {"status", "RESOURCE_EXHAUSTED"}}}}
          .dump() +
      "\n";
  hostile::Server server(gemini_provider({{"responsesFile", "files/out"}}, file));
  const auto results =
      run_batch(gemini_hostile_client(server), gemini_note_requests(2), gemini_fast_polls());
  ASSERT_TRUE(results[1].ok()) << results[1].error().message;
  EXPECT_EQ(results[1].value()["note"], "second");
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().kind, ErrorKind::http);
  EXPECT_EQ(results[0].trace().attempts[0].http_status, 429);
}

}  // namespace
}  // namespace accord
