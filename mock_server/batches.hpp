#pragma once
// The batch stores: OpenAI's Files + Batch API (Azure's on its own paths), Anthropic's Message
// Batches and Mistral's batch jobs (mistral_batches.cpp); Gemini's is gemini_batches.hpp. Every
// item is answered when its batch is created, from the same reply queue as direct calls and in the
// order the items were sent, so a scenario scripts a batch's items like a run of single calls.
// A batch reports that it has ended on the scenario's `batch_polls`-th retrieve.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "render.hpp"
#include "scenario.hpp"

namespace accord_mock {

// One batch item's answer, taken from the reply queue when its batch is created: the rendered
// HTTP reply, or nothing when it expired or is to be missing from the results.
struct BatchOutcome {
  std::string custom_id;
  std::optional<RenderedReply> reply;
  bool missing = false;  // left out of the results altogether ("batch_missing")
};

// The next scripted reply as the answer to one item of a batch sent to `endpoint`.
[[nodiscard]] BatchOutcome answer_batch_item(ReplyQueue& queue, Endpoint endpoint,
                                             std::string custom_id, const nlohmann::json& body,
                                             std::uint64_t serial);
// What the batch stores share: a JSON reply, a rendered body as the JSON value a results file
// embeds, and how many of `total` items a batch reports done after `polls` of `polls_to_end`.
[[nodiscard]] RenderedReply json_reply(const nlohmann::ordered_json& document, int status = 200);
[[nodiscard]] nlohmann::ordered_json body_value(const std::string& body);
[[nodiscard]] std::size_t done_after(std::size_t total, int polls, int polls_to_end);
// What a batch reports done so far: a growing share of its items while it runs, all once it has
// ended; the failed ones (errors, expired) only once it has ended; none after a cancel.
struct BatchCounts {
  std::size_t total = 0;
  std::size_t finished = 0;  // failed included
  std::size_t failed = 0;
};
[[nodiscard]] BatchCounts batch_counts(const std::vector<BatchOutcome>& outcomes, int polls,
                                       int polls_to_end, bool cancelled);
// RFC 3339 in UTC, to the second.
[[nodiscard]] std::string iso_time(std::int64_t seconds);

class BatchStore {
 public:
  using NextSerial = std::function<std::uint64_t()>;
  BatchStore(ReplyQueue& queue, NextSerial next_serial)
      : queue_(queue), next_serial_(std::move(next_serial)) {}

  // POST /v1/files (multipart: `purpose` and `file`).
  [[nodiscard]] RenderedReply upload_file(const std::string& filename, const std::string& purpose,
                                          std::string content);
  // GET /v1/files/{id}/content
  [[nodiscard]] RenderedReply file_content(const std::string& id);
  // POST /v1/batches, GET /v1/batches/{id}, POST /v1/batches/{id}/cancel
  // `azure`: Azure's Batch API, whose endpoint is named without /v1 (`/chat/completions`).
  [[nodiscard]] RenderedReply create_openai(const std::string& body, bool azure = false);
  [[nodiscard]] RenderedReply retrieve_openai(const std::string& id);
  [[nodiscard]] RenderedReply cancel_openai(const std::string& id);
  // POST /v1/messages/batches, GET /v1/messages/batches/{id}[/results], POST .../{id}/cancel.
  // `origin` ("http://host:port") makes the absolute results_url.
  [[nodiscard]] RenderedReply create_anthropic(const std::string& body, const std::string& origin);
  [[nodiscard]] RenderedReply retrieve_anthropic(const std::string& id, const std::string& origin);
  [[nodiscard]] RenderedReply anthropic_results(const std::string& id);
  [[nodiscard]] RenderedReply cancel_anthropic(const std::string& id, const std::string& origin);
  // Mistral's batch jobs (mistral_batches.cpp): POST /v1/batch/jobs on uploaded files,
  // GET /v1/batch/jobs/{id}, POST /v1/batch/jobs/{id}/cancel; results as OpenAI's files.
  [[nodiscard]] RenderedReply create_mistral(const std::string& body);
  [[nodiscard]] RenderedReply retrieve_mistral(const std::string& id);
  [[nodiscard]] RenderedReply cancel_mistral(const std::string& id);

 private:
  using Outcome = BatchOutcome;
  struct Batch {
    std::string id;
    bool anthropic = false;
    bool mistral = false;
    std::string model;          // Mistral
    std::string endpoint;       // OpenAI
    std::string input_file_id;  // OpenAI
    nlohmann::json errors;      // OpenAI: the input's problems; the batch fails validation
    std::int64_t created_at = 0;
    std::vector<Outcome> outcomes;
    int polls_to_end = 1;
    int failures_left = 0;  // status requests still to answer 503
    int polls = 0;
    bool cancelled = false;
    bool results_written = false;  // OpenAI: the output and error files, once ended
    std::string output_file_id;
    std::string error_file_id;
  };

  [[nodiscard]] Outcome answer(Endpoint endpoint, std::string custom_id,
                               const nlohmann::json& body);
  // A batch with a new id and the scenario's polling, created now.
  [[nodiscard]] Batch new_batch(const char* id_prefix);
  // The items of a JSONL input file (each `custom_id` and `body`, and when `url` is given
  // `method: POST` and that url), answered as `endpoint`; or the file's problems in `errors`.
  void read_input(Batch& batch, const std::string& content, const std::optional<std::string>& url,
                  Endpoint endpoint);
  [[nodiscard]] nlohmann::ordered_json mistral_object(Batch& batch);
  [[nodiscard]] nlohmann::ordered_json openai_object(Batch& batch);
  [[nodiscard]] nlohmann::ordered_json anthropic_object(const Batch& batch,
                                                        const std::string& origin) const;
  [[nodiscard]] bool ended(const Batch& batch) const {
    return batch.cancelled || batch.polls >= batch.polls_to_end;
  }
  std::string store_file(const std::string& filename, const std::string& purpose,
                         std::string content);
  void write_openai_results(Batch& batch);

  ReplyQueue& queue_;
  NextSerial next_serial_;
  std::mutex mutex_;
  struct File {
    std::string id;
    std::string filename;
    std::string purpose;
    std::string content;
    std::int64_t created_at = 0;
  };
  std::map<std::string, File> files_;
  std::map<std::string, Batch> batches_;
};

}  // namespace accord_mock
