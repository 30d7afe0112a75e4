#pragma once
// The two batch protocols: OpenAI's Files + Batch API and Anthropic's Message Batches. Every item
// is answered when its batch is created, from the same reply queue as direct calls and in the
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
  [[nodiscard]] RenderedReply create_openai(const std::string& body);
  [[nodiscard]] RenderedReply retrieve_openai(const std::string& id);
  [[nodiscard]] RenderedReply cancel_openai(const std::string& id);
  // POST /v1/messages/batches, GET /v1/messages/batches/{id}[/results], POST .../{id}/cancel.
  // `origin` ("http://host:port") makes the absolute results_url.
  [[nodiscard]] RenderedReply create_anthropic(const std::string& body, const std::string& origin);
  [[nodiscard]] RenderedReply retrieve_anthropic(const std::string& id, const std::string& origin);
  [[nodiscard]] RenderedReply anthropic_results(const std::string& id);
  [[nodiscard]] RenderedReply cancel_anthropic(const std::string& id, const std::string& origin);

 private:
  // One item's answer: the rendered HTTP reply, or nothing when it expired.
  struct Outcome {
    std::string custom_id;
    std::optional<RenderedReply> reply;
  };
  struct Batch {
    std::string id;
    bool anthropic = false;
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
