// run_batch: the extraction loop of every item driven by batch rounds instead of direct calls.
// Each round sends the pending items' next calls (ExtractionLoop::call) as one provider batch,
// polls it, and hands each answer to ExtractionLoop::on_exchange, which judges it exactly as
// extract() does and either decides the item or prepares its corrective turn for the next round.

#include "accord/batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <thread>

#include "batch_protocol.hpp"
#include "extraction_loop.hpp"
#include "loop.hpp"

namespace accord {
namespace {

using detail::BatchFailure;
using detail::ClientInternals;
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds elapsed_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

// The batch API's HTTP: the client's transport and retry policy, each exchange bounded by
// call_timeout; anything but a 2xx is a BatchFailure; every body is redacted on arrival. The job's
// deadline only decides whether another status request starts: one under way is not cut short, and
// the cancel sent once the deadline has passed still gets its time.
detail::BatchSend sender(const Client& client) {
  return [&client](HttpRequest request) {
    const auto& options = ClientInternals::options(client);
    const Deadline deadline =
        options.call_timeout.count() > 0 ? Clock::now() + options.call_timeout : Deadline::max();
    Delivery delivery =
        deliver(ClientInternals::transport(client), request, options.retry, {}, deadline);
    auto& last = delivery.tries.back();
    const std::string what = request.method + " " + request.url;
    if (!last.response) {
      throw BatchFailure(
          client.redacted(
              fmt::format("{}: {}: {}", what, to_string(last.error->failure), last.error->message)),
          true);
    }
    const long status = last.response->status;
    // Redacted whole before any cut, so no piece of a key survives at the cut.
    last.response->body = client.redacted(std::move(last.response->body));
    if (status / 100 != 2) {
      throw BatchFailure(
          client.redacted(fmt::format("{}: HTTP {}: {}", what, status,
                                      detail::one_line(last.response->body.substr(0, 300)))),
          status == 429 || status >= 500);
    }
    return std::move(*last.response);
  };
}

// One round: the items' calls as one batch, from creation to results.
class Round {
 public:
  Round(detail::BatchProtocol& protocol, const BatchOptions& options, Clock::time_point started,
        Deadline deadline, int number)
      : protocol_(protocol),
        options_(options),
        started_(started),
        deadline_(deadline),
        number_(number) {}

  // The answers by custom_id, one for every item; throws BatchFailure when the batch as a whole
  // gave none.
  detail::BatchAnswers run(const std::vector<detail::BatchItem>& items) {
    state_ = protocol_.submit(items);
    items_ = items.size();
    report();
    // Once the deadline has cancelled the batch: why, and until when it is still polled for the
    // answers it already has.
    std::string cut_short;
    Deadline until = deadline_;
    auto wait = options_.first_poll;
    while (!state_.ended) {
      if (Clock::now() + wait > until) {
        if (!cut_short.empty()) break;
        cut_short = fmt::format(
            "batch {} was still {} after {} poll{} when the deadline passed; it was cancelled",
            state_.id, state_.status, polls_, polls_ == 1 ? "" : "s");
        until = Clock::now() + options_.after_cancel;
        try {
          state_ = protocol_.cancel(state_.id);
        } catch (const BatchFailure&) {
          // Best effort: the batch is abandoned either way, and its id is in the message.
        }
        wait = options_.first_poll;
        continue;
      }
      sleep_then_next(wait);
      ++polls_;
      try {
        state_ = protocol_.poll(state_.id);
      } catch (const BatchFailure& e) {
        // The batch runs on at the provider whatever happened to one status request: one lost
        // to the network or a server error is made again after the next wait, until the
        // deadline. Anything else (the batch is unknown, the key was revoked) ends the round.
        if (!e.transient) throw;
      }
      report();
    }
    if (!state_.failure.empty()) throw BatchFailure("batch " + state_.id + ": " + state_.failure);
    detail::BatchAnswers answers;
    for (const auto& item : items) answers[item.custom_id];
    const std::string lost = download(answers, until);
    for (auto& [id, answer] : answers) {
      if (!answer.read()) answer.unanswered = lost.empty() ? "no result" : lost;
      // An item the cancel left unanswered says why it was cancelled.
      if (!cut_short.empty() && !answer.response)
        answer.unanswered = cut_short + " (" + answer.unanswered + ")";
    }
    return answers;
  }

  [[nodiscard]] const std::string& batch_id() const { return state_.id; }

 private:
  // Reads every results file into `answers`. A download that fails the way a status request may
  // (no answer, a 429 or 5xx) is made again after the next wait until `until`; what was read
  // before a failure is kept. Returns why the rest could not be read, or "".
  std::string download(detail::BatchAnswers& answers, Deadline until) {
    for (const auto& url : state_.result_urls) {
      for (auto wait = options_.first_poll;;) {
        try {
          protocol_.read_results(url, answers, options_.max_result_line_bytes);
          break;
        } catch (const BatchFailure& e) {
          if (!e.transient || Clock::now() + wait > until)
            return fmt::format("its results were not read: {}", e.what());
          sleep_then_next(wait);
        }
      }
    }
    return {};
  }

  // Waits `wait`, then makes it the next, longer wait.
  void sleep_then_next(std::chrono::milliseconds& wait) {
    std::this_thread::sleep_for(wait);
    wait = std::min(options_.max_poll_interval,
                    std::chrono::milliseconds(static_cast<long long>(
                        static_cast<double>(wait.count()) * options_.poll_backoff)));
  }

  void report() const {
    if (!options_.on_progress) return;
    options_.on_progress(BatchProgress{.round = number_,
                                       .batch_id = state_.id,
                                       .status = state_.status,
                                       .items = items_,
                                       .finished = state_.finished,
                                       .failed = state_.failed,
                                       .polls = polls_,
                                       .elapsed = elapsed_since(started_)});
  }

  detail::BatchProtocol& protocol_;
  const BatchOptions& options_;
  Clock::time_point started_;
  Deadline deadline_;
  int number_;
  detail::BatchState state_;
  std::size_t items_ = 0;
  int polls_ = 0;
};

void check_options(const BatchOptions& options) {
  if (options.first_poll.count() < 0 || options.max_poll_interval.count() < 0 ||
      options.poll_backoff < 1.0 || options.deadline.count() <= 0 ||
      options.after_cancel.count() < 0 || options.max_result_line_bytes == 0) {
    throw std::invalid_argument(
        "BatchOptions: poll waits and after_cancel must be >= 0, poll_backoff >= 1, the deadline "
        "> 0 and max_result_line_bytes > 0");
  }
}

}  // namespace

std::vector<Result<nlohmann::json>> run_batch(const Client& client,
                                              const std::vector<ExtractRequest>& requests,
                                              const BatchOptions& options) {
  check_options(options);
  if (requests.empty()) throw std::invalid_argument("run_batch: no requests");
  const auto started = Clock::now();
  const Deadline deadline = started + options.deadline;

  std::vector<detail::ExtractionLoop> loops;
  loops.reserve(requests.size());
  for (const auto& request : requests) loops.emplace_back(client, request);
  const auto probe = ClientInternals::prepare(client, loops.front().call());
  auto protocol = detail::make_batch_protocol(
      client.provider().name(), ClientInternals::base_url(client), probe.request, sender(client),
      [&client](std::string text) { return client.redacted(std::move(text)); });
  if (!protocol) {
    throw std::invalid_argument(
        fmt::format("run_batch: provider {} has no batch API", client.provider().name()));
  }

  std::vector<std::optional<Result<nlohmann::json>>> results(requests.size());
  std::vector<std::size_t> pending(requests.size());
  for (std::size_t i = 0; i < pending.size(); ++i) pending[i] = i;
  for (int number = 1; !pending.empty(); ++number) {
    std::vector<detail::PreparedExchange> prepared;
    std::vector<detail::BatchItem> items;
    prepared.reserve(pending.size());
    for (const std::size_t i : pending) {
      prepared.push_back(ClientInternals::prepare(client, loops[i].call()));
    }
    for (std::size_t k = 0; k < pending.size(); ++k) {
      items.push_back({fmt::format("item-{}", pending[k]), &prepared[k].request});
    }

    Round round(*protocol, options, started, deadline, number);
    detail::BatchAnswers answers;
    std::optional<Error> failure;
    try {
      answers = round.run(items);
    } catch (const BatchFailure& e) {
      failure = Error{ErrorKind::batch_unanswered, e.what(), {}};
    }

    std::vector<std::size_t> next;
    for (std::size_t k = 0; k < pending.size(); ++k) {
      const std::size_t i = pending[k];
      auto& loop = loops[i];
      const std::string& custom_id = items[k].custom_id;
      const std::string where = fmt::format("batch {}, {}", round.batch_id(), custom_id);
      auto answer = answers.find(custom_id);
      if (failure || answer == answers.end() || !answer->second.response) {
        Error error = failure
                          ? *failure
                          : Error{ErrorKind::batch_unanswered,
                                  fmt::format("{}: {}", where,
                                              answer == answers.end() ? "no result"
                                                                      : answer->second.unanswered),
                                  {}};
        results[i] = loop.end_with(std::move(error), std::move(prepared[k].attempt));
        continue;
      }
      // The answer as if the item had been sent alone: the same decoding, redaction and record.
      Delivery delivery;
      delivery.tries.push_back(TransportResult{*std::move(answer->second.response), {}, {}});
      delivery.decisions.emplace_back();
      auto exchanged = ClientInternals::finish(client, std::move(prepared[k]), std::move(delivery));
      auto& log = exchanged.attempt.transport_log;  // "HTTP 200": the item's own status
      log.front() = where + ": " + log.front();
      if (auto result = loop.on_exchange(std::move(exchanged))) {
        results[i] = std::move(result);
      } else {
        next.push_back(i);  // its corrective turn goes in the next round
      }
    }
    pending = std::move(next);
  }

  std::vector<Result<nlohmann::json>> out;
  out.reserve(results.size());
  for (auto& result : results) out.push_back(*std::move(result));
  return out;
}

}  // namespace accord
