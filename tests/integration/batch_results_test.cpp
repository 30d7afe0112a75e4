// Batch results under a hostile provider (issue 23): answers already paid for are kept whatever
// the results file looks like, how big it is, where it lives and how its download goes, and no
// piece of the key is kept or printed from what the batch API sends. The provider is a raw-socket
// server (tests/fixtures/hostile_server.hpp) speaking both batch protocols over loopback.

#include <gtest/gtest.h>

#include <accord/batch.hpp>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "fixtures/hostile_server.hpp"

namespace {

using namespace accord;
using nlohmann::json;
using namespace std::chrono_literals;

const std::string kKey = "sk-live-QZXWVB7731";

const Schema kNote = object({{"note", string()}});

std::vector<ExtractRequest> note_requests(std::size_t count) {
  return std::vector<ExtractRequest>(
      count, ExtractRequest{.schema = kNote, .prompt = "n", .name = "note"});
}

BatchOptions fast_polls() {
  return {.first_poll = 1ms, .max_poll_interval = 5ms, .deadline = 20s};
}

Client client_for(const std::string& provider, const hostile::Server& server) {
  ClientOptions options{.provider = provider, .base_url = server.base_url(), .api_key = kKey};
  options.retry.max_retries = 0;  // a failure reaches the batch loop, not the transport's retries
  options.transport.total_timeout = 20s;
  return Client(std::move(options));
}

// The method and path of the request being answered ("GET /v1/...").
std::string request_line(const hostile::Server& server) {
  const std::string& request = server.request();
  const auto first = request.find(' ');
  return request.substr(0, request.find(' ', first + 1));
}

// A whole response with any status.
std::string response(int status, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(status) +
         " X\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + body;
}

// An Anthropic message whose text is `text`, and the result line answering `id` with it.
json message(const std::string& text) {
  return {{"type", "message"},
          {"role", "assistant"},
          {"content", json::array({{{"type", "text"}, {"text", text}}})},
          {"stop_reason", "end_turn"},
          {"usage", {{"input_tokens", 1}, {"output_tokens", 1}}}};
}
std::string anthropic_line(const std::string& id, const std::string& note) {
  return json{
             {"custom_id", id},
             {"result", {{"type", "succeeded"}, {"message", message(json{{"note", note}}.dump())}}}}
             .dump() +
         "\n";
}

// An Anthropic message batch in `status` (results_url once "ended").
std::string anthropic_batch(const std::string& id, const std::string& status,
                            const std::string& results_url) {
  return json{{"id", id},
              {"type", "message_batch"},
              {"processing_status", status},
              {"request_counts", {{"processing", 0}, {"succeeded", 1}}},
              {"results_url", status == "ended" ? json(results_url) : json(nullptr)}}
      .dump();
}

// An OpenAI chat completion with `content`, and the output line answering `id` with it.
std::string openai_line(const std::string& id, const std::string& note) {
  const json reply = {
      {"object", "chat.completion"},
      {"choices",
       json::array({{{"index", 0},
                     {"message", {{"role", "assistant"}, {"content", json{{"note", note}}.dump()}}},
                     {"finish_reason", "stop"}}})},
      {"usage", {{"prompt_tokens", 1}, {"completion_tokens", 1}, {"total_tokens", 2}}}};
  return json{{"custom_id", id}, {"response", {{"status_code", 200}, {"body", reply}}}}.dump() +
         "\n";
}

// Headers for a body of `length` bytes written after them.
std::string head_of(std::size_t length) {
  return "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: " +
         std::to_string(length) + "\r\nConnection: close\r\n\r\n";
}

// Anthropic's batch API with a batch that has ended at creation and `results` as its results
// file (written by `write_results`, head included, on the results request).
hostile::Server::Answer anthropic_provider(std::function<void(int)> write_results) {
  return [write_results](hostile::Server& server, int connection) {
    const std::string line = request_line(server);
    if (line.starts_with("POST") && line.ends_with("/messages/batches")) {
      hostile::Server::send(
          connection,
          hostile::Server::response(anthropic_batch(
              "msgbatch_1", "ended", server.base_url() + "/messages/batches/msgbatch_1/results")));
    } else if (line.ends_with("/results")) {
      write_results(connection);
    } else {
      hostile::Server::send(connection, response(404, "{}"));
    }
  };
}

// The results file `body` as one response.
std::function<void(int)> results_file(std::string body) {
  return [body = std::move(body)](int connection) {
    hostile::Server::send(connection, head_of(body.size()) + body);
  };
}

// OpenAI's Files and Batch API with a batch completed at creation whose output file is `output`.
hostile::Server::Answer openai_provider(std::string output) {
  return [output = std::move(output)](hostile::Server& server, int connection) {
    const std::string line = request_line(server);
    std::string body = "{}";
    if (line == "POST /v1/files") {
      body = R"({"id":"file-in","object":"file"})";
    } else if (line == "POST /v1/batches") {
      body = R"({"id":"batch_1","status":"completed","output_file_id":"file-out",)"
             R"("request_counts":{"total":1,"completed":1,"failed":0}})";
    } else if (line == "GET /v1/files/file-out/content") {
      body = output;
    }
    hostile::Server::send(connection, hostile::Server::response(body));
  };
}

std::string everything_kept(const Result<json>& result) {
  return result.trace().to_json().dump() + result.trace().to_text() +
         (result.ok() ? "" : result.error().message);
}

// Whether any 5 consecutive characters of the key appear in `text`.
bool has_key_piece(const std::string& text) {
  for (std::size_t at = 0; at + 5 <= kKey.size(); ++at) {
    if (text.find(kKey.substr(at, 5)) != std::string::npos) return true;
  }
  return false;
}

// ---- the results file streams ---------------------------------------------------------------

TEST(BatchResults, ResultsOver16MiBAreAllKept) {
  // 1,200 answers of 15 KB: an 18 MB results file, over the 16 MiB cap of one reply.
  constexpr std::size_t kItems = 1200;
  const std::string note(15'000, 'x');
  std::string body;
  for (std::size_t i = 0; i < kItems; ++i)
    body += anthropic_line("item-" + std::to_string(i), note);
  ASSERT_GT(body.size(), 16u * 1024 * 1024);
  hostile::Server server(anthropic_provider(results_file(body)));
  const auto results =
      run_batch(client_for("anthropic", server), note_requests(kItems), fast_polls());
  std::size_t kept = 0;
  for (const auto& result : results) kept += result.ok() && result.value()["note"] == note ? 1 : 0;
  EXPECT_EQ(kept, kItems);
}

TEST(BatchResults, LineOverTheBoundCostsOnlyItsItem) {
  // item-1's line is 32 MiB (over the line bound and the reply cap): it is skipped as it comes.
  hostile::Server server(anthropic_provider([](int connection) {
    const std::string first = anthropic_line("item-0", "first");
    const std::string big_head =
        R"({"custom_id":"item-1","result":{"type":"succeeded","message":")";
    const std::string chunk(1 << 20, 'y');
    constexpr std::size_t kChunks = 32;
    const std::string big_tail = "\"}}\n";
    const std::string last = anthropic_line("item-2", "last");
    const std::size_t length =
        first.size() + big_head.size() + kChunks * chunk.size() + big_tail.size() + last.size();
    if (!hostile::Server::send(connection, head_of(length) + first + big_head)) return;
    for (std::size_t i = 0; i < kChunks; ++i) {
      if (!hostile::Server::send(connection, chunk)) return;
    }
    hostile::Server::send(connection, big_tail + last);
  }));
  auto options = fast_polls();
  options.max_result_line_bytes = 64 * 1024;
  const auto results = run_batch(client_for("anthropic", server), note_requests(3), options);
  ASSERT_TRUE(results[0].ok()) << results[0].error().message;
  EXPECT_EQ(results[0].value()["note"], "first");
  ASSERT_TRUE(results[2].ok()) << results[2].error().message;
  EXPECT_EQ(results[2].value()["note"], "last");
  ASSERT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].error().kind, ErrorKind::batch_unanswered);
  EXPECT_NE(results[1].error().message.find("item-1: its result line is over 65536 bytes"),
            std::string::npos)
      << results[1].error().message;
}

// ---- unexpected shapes ------------------------------------------------------------------------

TEST(BatchResults, MalformedAnthropicLinesCostOnlyTheirItems) {
  const std::string body =
      R"({"custom_id":"item-99","result":{"type":"errored","error":[1,2]}})"
      "\n"
      R"({"custom_id":"item-0","result":{"type":"errored","error":["overloaded"]}})"
      "\n"
      R"({"custom_id":"item-1","result":{"type":"errored","error":"boom"}})"
      "\n"
      R"({"custom_id":"item-2","result":"succeeded"})"
      "\n"
      R"({"custom_id":"item-3","result":{"type":"succeeded","message":[1]}})"
      "\n"
      R"({"custom_id":"item-4","result":{"type":"succeeded",)"
      "\n" +
      anthropic_line("item-5", "kept") +
      R"([{"custom_id":"item-5"}])"
      "\n" +
      "garbage\n";
  hostile::Server server(anthropic_provider(results_file(body)));
  const auto results = run_batch(client_for("anthropic", server), note_requests(6), fast_polls());
  ASSERT_TRUE(results[5].ok()) << results[5].error().message;
  EXPECT_EQ(results[5].value()["note"], "kept");
  for (std::size_t i = 0; i < 5; ++i) {
    ASSERT_FALSE(results[i].ok()) << i;
    EXPECT_NE(everything_kept(results[i]).find("item-" + std::to_string(i)), std::string::npos)
        << everything_kept(results[i]);
  }
  EXPECT_EQ(results[0].error().kind, ErrorKind::http);
  EXPECT_EQ(results[1].error().kind, ErrorKind::http);
  EXPECT_NE(results[1].error().message.find("boom"), std::string::npos)
      << results[1].error().message;
  EXPECT_EQ(results[2].error().kind, ErrorKind::batch_unanswered);
  EXPECT_EQ(results[4].error().kind, ErrorKind::batch_unanswered);
  EXPECT_NE(results[4].error().message.find("not a JSON object"), std::string::npos)
      << results[4].error().message;
}

TEST(BatchResults, MalformedOpenAiLinesCostOnlyTheirItems) {
  const std::string output =
      R"({"custom_id":"item-99","response":[1],"error":[2]})"
      "\n"
      R"({"custom_id":"item-0","response":[1],"error":"gone"})"
      "\n"
      R"({"custom_id":"item-1","response":{"status_code":"200","body":{}},"error":null})"
      "\n"
      R"({"custom_id":"item-2","response":{"status_code":200},"error":{"code":[1]}})"
      "\n"
      R"({"custom_id":7,"response":null})"
      "\n" +
      openai_line("item-3", "kept");
  hostile::Server server(openai_provider(output));
  const auto results = run_batch(client_for("openai-chat", server), note_requests(4), fast_polls());
  ASSERT_TRUE(results[3].ok()) << results[3].error().message;
  EXPECT_EQ(results[3].value()["note"], "kept");
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().kind, ErrorKind::batch_unanswered);
  EXPECT_NE(results[0].error().message.find("item-0: gone"), std::string::npos)
      << results[0].error().message;
  ASSERT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].error().kind, ErrorKind::batch_unanswered);
  ASSERT_FALSE(results[2].ok());  // a 200 without a body is a reply that says nothing
  EXPECT_NE(results[2].error().kind, ErrorKind::batch_unanswered);
}

// ---- downloads -------------------------------------------------------------------------------

TEST(BatchResults, ResultsDownloadAnswered503IsMadeAgain) {
  std::atomic<int> downloads{0};
  hostile::Server server(anthropic_provider([&downloads](int connection) {
    if (++downloads == 1) {
      hostile::Server::send(connection, response(503, R"({"type":"error"})"));
    } else {
      results_file(anthropic_line("item-0", "a") + anthropic_line("item-1", "b"))(connection);
    }
  }));
  const auto results = run_batch(client_for("anthropic", server), note_requests(2), fast_polls());
  for (const auto& result : results) ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(downloads, 2);
}

TEST(BatchResults, DownloadThatKeepsFailingEndsOnlyTheItemsNotRead) {
  // The file breaks off after item-0's line: item-0 is kept, item-1 ends saying why.
  hostile::Server server(anthropic_provider([](int connection) {
    const std::string first = anthropic_line("item-0", "a");
    hostile::Server::send(connection, head_of(first.size() + 1000) + first);
  }));
  auto options = fast_polls();
  options.deadline = 200ms;
  const auto results = run_batch(client_for("anthropic", server), note_requests(2), options);
  ASSERT_TRUE(results[0].ok()) << results[0].error().message;
  ASSERT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].error().kind, ErrorKind::batch_unanswered);
  EXPECT_NE(results[1].error().message.find("results were not read"), std::string::npos)
      << results[1].error().message;
}

TEST(BatchResults, DeadlineCancelKeepsTheAnswersAlreadyMade) {
  // The batch never ends on its own; once cancelled it ends with item-0 answered.
  bool cancelled = false;
  hostile::Server server([&cancelled](hostile::Server& server, int connection) {
    const std::string line = request_line(server);
    const std::string results_url = server.base_url() + "/messages/batches/msgbatch_1/results";
    std::string body;
    if (line.ends_with("/cancel")) {
      cancelled = true;
      body = anthropic_batch("msgbatch_1", "canceling", "");
    } else if (line.ends_with("/results")) {
      body = anthropic_line("item-0", "paid") +
             R"({"custom_id":"item-1","result":{"type":"canceled"}})" + "\n";
    } else {
      body = anthropic_batch("msgbatch_1", cancelled ? "ended" : "in_progress", results_url);
    }
    hostile::Server::send(connection, hostile::Server::response(body));
  });
  auto options = fast_polls();
  options.deadline = 100ms;
  const auto results = run_batch(client_for("anthropic", server), note_requests(2), options);
  ASSERT_TRUE(results[0].ok()) << results[0].error().message;
  EXPECT_EQ(results[0].value()["note"], "paid");
  ASSERT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].error().kind, ErrorKind::batch_unanswered);
  const std::string& message = results[1].error().message;
  EXPECT_NE(message.find("deadline"), std::string::npos) << message;
  EXPECT_NE(message.find("item-1"), std::string::npos) << message;
  EXPECT_NE(message.find("canceled"), std::string::npos) << message;
}

TEST(BatchResults, ResultsOnAnotherOriginAreFetchedWithoutTheKey) {
  std::mutex mutex;
  std::string elsewhere_request;
  hostile::Server elsewhere([&](hostile::Server& server, int connection) {
    {
      std::lock_guard lock(mutex);
      elsewhere_request = server.request();
    }
    results_file(anthropic_line("item-0", "a"))(connection);
  });
  std::string api_requests;
  hostile::Server api([&](hostile::Server& server, int connection) {
    {
      std::lock_guard lock(mutex);
      api_requests += server.request();
    }
    hostile::Server::send(connection, hostile::Server::response(anthropic_batch(
                                          "msgbatch_1", "ended", elsewhere.base_url() + "/r")));
  });
  const auto results = run_batch(client_for("anthropic", api), note_requests(1), fast_polls());
  ASSERT_TRUE(results[0].ok()) << results[0].error().message;
  std::lock_guard lock(mutex);
  EXPECT_FALSE(elsewhere_request.empty());
  EXPECT_FALSE(has_key_piece(elsewhere_request)) << elsewhere_request;
  EXPECT_TRUE(has_key_piece(api_requests));  // the configured origin still gets it
}

// ---- keys --------------------------------------------------------------------------------------

TEST(BatchResults, KeyStraddlingTheErrorCutLeavesNoPiece) {
  // The key starts at byte 295 of a 400's body; the message keeps 300 bytes of it.
  const std::string body = R"({"error":")" + std::string(285, 'e') + kKey + R"("})";
  hostile::Server server(hostile::canned(response(400, body)));
  const auto results = run_batch(client_for("anthropic", server), note_requests(1), fast_polls());
  ASSERT_FALSE(results[0].ok());
  EXPECT_FALSE(has_key_piece(everything_kept(results[0]))) << results[0].error().message;
}

TEST(BatchResults, KeyEchoedInBatchIdAndStatusIsNeverKeptOrReported) {
  // The batch's id and status, and an item's result type, are the key.
  hostile::Server server([](hostile::Server& server, int connection) {
    if (request_line(server).ends_with("/results")) {
      results_file(R"({"custom_id":"item-0","result":{"type":")" + kKey + "\"}}\n")(connection);
      return;
    }
    const bool created = request_line(server).starts_with("POST");
    json batch = json::parse(anthropic_batch("msgbatch_" + kKey, created ? "in_progress" : "ended",
                                             server.base_url() + "/x/results"));
    if (created) batch["processing_status"] = kKey;
    hostile::Server::send(connection, hostile::Server::response(batch.dump()));
  });
  auto options = fast_polls();
  std::string reported;
  options.on_progress = [&](const BatchProgress& progress) {
    reported += progress.batch_id + " " + progress.status + "\n";
  };
  const auto results = run_batch(client_for("anthropic", server), note_requests(1), options);
  EXPECT_NE(reported.find("[redacted]"), std::string::npos) << reported;
  EXPECT_FALSE(has_key_piece(reported)) << reported;
  EXPECT_FALSE(has_key_piece(everything_kept(results[0]))) << everything_kept(results[0]);
}

}  // namespace
