#pragma once
// Batch jobs: many extractions sent as one provider batch (OpenAI's Batch API for openai-chat and
// openai-responses, Anthropic's Message Batches for anthropic), polled until they end, each answer
// judged by the same loop as Client::extract, and the corrective turns of the invalid ones sent
// as the next batch. Half the price of direct calls, hours instead of seconds.

#include <chrono>
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "accord/client.hpp"

namespace accord {

// Where a batch job stands, as the provider last reported it.
struct BatchProgress {
  int round = 1;                         // 1: the first turns; 2 and on: corrective turns
  std::string batch_id;                  // the provider's id ("batch_...", "msgbatch_...")
  std::string status;                    // the provider's word: "in_progress", "ended", ...
  std::size_t items = 0;                 // in this round's batch
  std::size_t finished = 0;              // answered so far, failures included
  std::size_t failed = 0;                // answered with an error or expired
  int polls = 0;                         // status requests in this round so far
  std::chrono::milliseconds elapsed{0};  // since run_batch began
};

// What a job has created at the provider so far: enough for another run (another process) to find
// its batches again and read them instead of paying for new ones. Holds no credential.
struct BatchRecord {
  struct Batch {
    int round = 1;
    std::string batch_id;
    std::vector<std::string> custom_ids;  // the items it holds; "item-N" is requests[N]
    // Of the requests sent in it: a resume whose requests differ (another input, schema or model)
    // is refused instead of being matched to answers to other questions.
    std::string digest;
  };
  std::string provider;        // the client's provider name
  std::string origin;          // "scheme://host:port" of the base URL; never its path or query
  std::vector<Batch> batches;  // one per round created, in order

  [[nodiscard]] nlohmann::ordered_json to_json() const;
  // The inverse of to_json; throws std::invalid_argument naming what is missing or malformed.
  [[nodiscard]] static BatchRecord from_json(const nlohmann::json& document);
};

// Thrown by run_batch when BatchOptions::stop was requested: the job is not over, its record says
// where it stands (resume with BatchOptions::resume), and its batch was cancelled or left running.
class BatchStopped : public std::runtime_error {
 public:
  BatchStopped(const std::string& what, BatchRecord record, bool cancelled)
      : std::runtime_error(what), record_(std::move(record)), cancelled_(cancelled) {}
  [[nodiscard]] const BatchRecord& record() const { return record_; }
  // True when a cancel request was sent for the batch under way (BatchOptions::cancel_on_stop);
  // its answers from before the cancel can still be read by resuming.
  [[nodiscard]] bool cancelled() const { return cancelled_; }

 private:
  BatchRecord record_;
  bool cancelled_;
};

struct BatchOptions {
  // The first status request comes `first_poll` after a batch is created; each wait after that is
  // `poll_backoff` times the one before, at most `max_poll_interval`.
  std::chrono::milliseconds first_poll{10'000};
  std::chrono::milliseconds max_poll_interval{300'000};
  double poll_backoff = 1.5;
  // The whole job, every round included. When the wait before the next status request would end
  // past it, the batch is cancelled (see after_cancel) and its unanswered items end as
  // ErrorKind::batch_unanswered (a request under way is not cut short). Providers give a batch
  // 24 hours per round.
  std::chrono::milliseconds deadline{std::chrono::hours(49)};
  // After the deadline's cancel, the batch is still polled this long for it to end, and its
  // results (the answers it already has, paid for) are read; OpenAI takes up to 10 minutes to
  // wind a batch down. The items without an answer end as ErrorKind::batch_unanswered.
  std::chrono::milliseconds after_cancel{std::chrono::minutes(10)};
  // Results files are read a line at a time as they arrive, whatever their size; a line longer
  // than this (one item's answer) is skipped and its item ends as ErrorKind::batch_unanswered.
  std::size_t max_result_line_bytes = 16 * 1024 * 1024;
  // A status request or results download that fails after the transport retries with no
  // answer, a 429 or a 5xx is made again after the next wait; any other failure of the batch API
  // ends the round's items (a download's, only those it had not read yet).
  // Called after each batch is created and after each status request, on the calling thread.
  std::function<void(const BatchProgress&)> on_progress;
  // Called each time a batch is created, before the first wait for it, with the job's record so
  // far: keep it (accord batch writes it beside its output) so a job cut short can be resumed.
  // Called on the calling thread; what it throws ends run_batch (the batch runs on).
  std::function<void(const BatchRecord&)> on_record;
  // The record of an earlier run of the same requests with the same client: each recorded round's
  // batch is polled and read instead of being created again (rounds it had finished are read
  // again; providers keep results for weeks), and only rounds it had not reached are created.
  // std::invalid_argument before any request when the record is for another provider or origin,
  // or its first batch for other requests; later when a later round's requests differ.
  std::optional<BatchRecord> resume;
  // When a stop is requested (from any thread), a wait between status requests ends at once and
  // run_batch throws BatchStopped; an HTTP request under way is not cut short (call_timeout
  // bounds it). Requested before the first batch is created, nothing is sent.
  std::stop_token stop;
  // On a stop, send the provider's cancel request for the batch under way (false: leave it
  // running, to be resumed).
  bool cancel_on_stop = false;
};

// True for the providers run_batch can send to: openai-chat, openai-responses, anthropic.
[[nodiscard]] bool has_batch_api(std::string_view provider);

// Runs `requests` as batch jobs through `client` (its provider, base URL, key, model, retry policy;
// ClientOptions::call_timeout bounds each HTTP request of the job) and returns one Result per
// request, in order, each with its Trace. Blocks until every item is decided. Throws
// std::invalid_argument before anything is sent for a provider without a batch API (generic), an
// empty list, a request extract() would refuse, or a resume record that does not fit. Throws
// BatchStopped when BatchOptions::stop is requested before every item is decided.
[[nodiscard]] std::vector<Result<nlohmann::json>> run_batch(
    const Client& client, const std::vector<ExtractRequest>& requests,
    const BatchOptions& options = {});

}  // namespace accord
