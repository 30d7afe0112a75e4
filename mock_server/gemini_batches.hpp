#pragma once
// The Gemini Batch API: `models/{m}:batchGenerateContent` with inline requests, the batch as a
// long-running operation at `batches/{id}` (polled, cancelled with `:cancel`), and its responses
// inline in the operation once done, each with the request's metadata. Items are answered from
// the reply queue when the batch is created, as in batches.hpp; the scenario's `batch_polls` and
// `batch_poll_failures` apply, `batch_expired` answers an item DEADLINE_EXCEEDED,
// `batch_missing` leaves it out, and a batch whose every item expired reports
// BATCH_STATE_EXPIRED with no output.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "batches.hpp"

namespace accord_mock {

// Where its routes are; the ids it makes start with "batches/gemini-" so that its status
// requests and OpenAI's (/v1/batches/{id}) can share a path.
inline constexpr const char* kGeminiBatchCreateRoute =
    R"((?:/v1beta|/v1)/models/([^/:]+):batchGenerateContent)";
inline constexpr const char* kGeminiBatchRoute = R"((?:/v1beta|/v1)/(batches/gemini-[^/:]+))";
inline constexpr const char* kGeminiBatchCancelRoute =
    R"((?:/v1beta|/v1)/(batches/gemini-[^/:]+):cancel)";

class GeminiBatches {
 public:
  using NextSerial = std::function<std::uint64_t()>;
  GeminiBatches(ReplyQueue& queue, NextSerial next_serial)
      : queue_(queue), next_serial_(std::move(next_serial)) {}

  [[nodiscard]] RenderedReply create(const std::string& model, const std::string& body);
  [[nodiscard]] RenderedReply retrieve(const std::string& name);
  [[nodiscard]] RenderedReply cancel(const std::string& name);

 private:
  struct Batch {
    std::string name;
    std::string model;
    std::string display_name;
    std::int64_t created_at = 0;
    std::vector<BatchOutcome> outcomes;
    std::vector<nlohmann::json> metadata;  // each request's, echoed with its response
    int polls_to_end = 1;
    int failures_left = 0;
    int polls = 0;
    bool cancelled = false;
  };

  [[nodiscard]] nlohmann::ordered_json operation(const Batch& batch) const;
  [[nodiscard]] RenderedReply error(int status, const std::string& message);

  ReplyQueue& queue_;
  NextSerial next_serial_;
  std::mutex mutex_;
  std::map<std::string, Batch> batches_;
};

}  // namespace accord_mock
