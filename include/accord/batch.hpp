#pragma once
// Batch jobs: many extractions sent as one provider batch (OpenAI's Batch API for openai-chat and
// openai-responses, Anthropic's Message Batches for anthropic), polled until they end, each answer
// judged by the same loop as Client::extract, and the corrective turns of the invalid ones sent
// as the next batch. Half the price of direct calls, hours instead of seconds.

#include <chrono>
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
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

struct BatchOptions {
  // The first status request comes `first_poll` after a batch is created; each wait after that is
  // `poll_backoff` times the one before, at most `max_poll_interval`.
  std::chrono::milliseconds first_poll{10'000};
  std::chrono::milliseconds max_poll_interval{300'000};
  double poll_backoff = 1.5;
  // The whole job, every round included. When the wait before the next status request would end
  // past it, the batch is cancelled and its items end as ErrorKind::batch_unanswered (a request
  // under way is not cut short). Providers give a batch 24 hours per round.
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
};

// Runs `requests` as batch jobs through `client` (its provider, base URL, key, model, retry policy;
// ClientOptions::call_timeout bounds each HTTP request of the job) and returns one Result per
// request, in order, each with its Trace. Blocks until every item is decided. Throws
// std::invalid_argument before anything is sent for a provider without a batch API (generic), an
// empty list, or a request extract() would refuse.
[[nodiscard]] std::vector<Result<nlohmann::json>> run_batch(
    const Client& client, const std::vector<ExtractRequest>& requests,
    const BatchOptions& options = {});

}  // namespace accord
