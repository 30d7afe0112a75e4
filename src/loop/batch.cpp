// run_batch: the extraction loop of every item driven by batch rounds instead of direct calls.
// Each round sends the pending items' next calls (ExtractionLoop::call) as one provider batch,
// polls it, and hands each answer to ExtractionLoop::on_exchange, which judges it exactly as
// extract() does and either decides the item or prepares its corrective turn for the next round.

#include "accord/batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

#include "core/ascii.hpp"
#include "loop/batch_results.hpp"
#include "loop/client.hpp"
#include "loop/extraction_loop.hpp"
#include "loop/loop.hpp"
#include "transport/url_origin.hpp"

namespace accord {
namespace {

using detail::BatchFailure;
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
    const auto& options = Client::Internals::options(client);
    const Deadline deadline =
        options.call_timeout.count() > 0 ? Clock::now() + options.call_timeout : Deadline::max();
    Delivery delivery =
        deliver(Client::Internals::transport(client), request, options.retry, {}, deadline);
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

// Sleeps `wait`, or less when a stop is requested; true when it was.
bool stopped_during(std::chrono::milliseconds wait, const std::stop_token& stop) {
  std::mutex mutex;
  std::condition_variable_any woken;
  std::unique_lock lock(mutex);
  woken.wait_for(lock, stop, wait, [] { return false; });
  return stop.stop_requested();
}

// BatchOptions::stop seen by a round; run_batch adds the job's record and throws BatchStopped.
struct RoundStopped {
  std::string what;
  bool cancelled = false;
};

// One round: the items' calls as one batch, from creation (or the recorded batch of an earlier
// run) to results.
class Round {
 public:
  using OnCreated = std::function<void(const std::string& batch_id)>;

  Round(detail::BatchProtocol& protocol, const BatchOptions& options, Clock::time_point started,
        Deadline deadline, int number)
      : protocol_(protocol),
        options_(options),
        started_(started),
        deadline_(deadline),
        number_(number) {}

  // The answers by custom_id, one for every item; throws BatchFailure when the batch as a whole
  // gave none, and RoundStopped on a stop. `recorded_id` non-empty: that batch is polled at once
  // instead of a new one being created; else `on_created` hears the new batch's id before any wait.
  detail::BatchAnswers run(const std::vector<detail::BatchItem>& items,
                           const std::string& recorded_id, const OnCreated& on_created) {
    std::chrono::milliseconds wait{0};
    if (recorded_id.empty()) {
      if (options_.stop.stop_requested()) {
        throw RoundStopped{fmt::format("stopped before round {}'s batch was created", number_)};
      }
      state_ = protocol_.submit(items);
      on_created(state_.id);
      wait = options_.first_poll;
    } else {
      state_.id = recorded_id;
      state_.status = "resumed";
    }
    items_ = items.size();
    report();
    // Once the deadline has cancelled the batch: why, and until when it is still polled for the
    // answers it already has.
    std::string cut_short;
    Deadline until = deadline_;
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
      if (stopped_during(wait, options_.stop)) stop();
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
      wait = next_wait(wait);
    }
    if (!state_.failure.empty()) throw BatchFailure("batch " + state_.id + ": " + state_.failure);
    detail::BatchAnswers answers;
    for (const auto& item : items) answers[item.custom_id];
    detail::keep_inline_results(protocol_, state_.inline_results, items, answers);
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
          detail::read_results(protocol_, url, answers, options_.max_result_line_bytes);
          break;
        } catch (const BatchFailure& e) {
          if (!e.transient || Clock::now() + wait > until)
            return fmt::format("its results were not read: {}", e.what());
          if (stopped_during(wait, options_.stop)) stop();
          wait = next_wait(wait);
        }
      }
    }
    return {};
  }

  // The wait after `wait`: a resumed batch is polled at once, and the waits after that grow as
  // for a new one.
  [[nodiscard]] std::chrono::milliseconds next_wait(std::chrono::milliseconds wait) const {
    if (wait.count() == 0) return options_.first_poll;
    return std::min(options_.max_poll_interval,
                    std::chrono::milliseconds(static_cast<long long>(
                        static_cast<double>(wait.count()) * options_.poll_backoff)));
  }

  [[noreturn]] void stop() {
    std::string what =
        fmt::format("stopped while round {}'s batch {} was {}", number_, state_.id, state_.status);
    if (!options_.cancel_on_stop) throw RoundStopped{what + "; it runs on at the provider"};
    try {
      protocol_.cancel(state_.id);
    } catch (const BatchFailure& e) {
      throw RoundStopped{what + "; the cancel request failed (" + e.what() + ")"};
    }
    throw RoundStopped{what + "; cancel sent", true};
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

// A request's extra headers as the batch would send them: the client's merged with its own,
// names in lower case (HTTP's are case-insensitive), sorted.
std::map<std::string, std::string> extra_headers(const Client& client,
                                                 const ExtractRequest& request) {
  std::map<std::string, std::string> headers;
  for (auto& [name, value] :
       merged(Client::Internals::options(client).parameters, request.parameters).extra_headers) {
    headers[detail::ascii_lower(name)] = std::move(value);
  }
  return headers;
}

// A provider batch is one HTTP request, sent with the first request's headers: a request with
// other extra headers would lose them without a word, so it is refused before anything is sent.
// The error names the header, never its value (which may be a secret).
void check_same_extra_headers(const Client& client, const std::vector<ExtractRequest>& requests) {
  const auto first = extra_headers(client, requests.front());
  for (std::size_t i = 1; i < requests.size(); ++i) {
    const auto own = extra_headers(client, requests[i]);
    if (own == first) continue;
    // The first name, in order, that one has and the other has not or has with another value.
    const auto [a, b] = std::mismatch(first.begin(), first.end(), own.begin(), own.end());
    const std::string& name = a == first.end()                        ? b->first
                              : b == own.end() || a->first < b->first ? a->first
                                                                      : b->first;
    throw std::invalid_argument(fmt::format(
        "run_batch: requests[{}] differs from requests[0] in the extra header {}: a batch is sent "
        "as one request with one set of headers; send requests with other extra headers in a "
        "batch of their own",
        i, name));
  }
}

// FNV-1a over each item's id and request body: equal for the same requests on any run and host.
std::string requests_digest(const std::vector<detail::BatchItem>& items) {
  std::uint64_t hash = 14695981039346656037ULL;
  const auto add = [&hash](std::string_view text) {
    for (const char c : text) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ULL;
    }
  };
  for (const auto& item : items) {
    // Each text after its length, so "ab","c" and "a","bc" differ.
    for (const std::string_view text :
         {std::string_view(item.custom_id), std::string_view(item.request->body)}) {
      add(std::to_string(text.size()) + ":");
      add(text);
    }
  }
  return fmt::format("fnv1a64:{:016x}", hash);
}

// The record's provider and origin against this run's, before any request.
void check_resumable(const BatchRecord& resume, const BatchRecord& record) {
  if (resume.provider != record.provider || resume.origin != record.origin) {
    throw std::invalid_argument(fmt::format(
        "run_batch: the record to resume is for {} at {}, this client sends to {} at {}",
        resume.provider, resume.origin, record.provider, record.origin));
  }
}

// The recorded batch of this run's `round` (its id), or "" when the record did not reach it.
// Throws std::invalid_argument when the round's requests are not the recorded ones.
std::string recorded_batch(const std::optional<BatchRecord>& resume,
                           const BatchRecord::Batch& round) {
  if (!resume) return {};
  const auto found =
      std::find_if(resume->batches.begin(), resume->batches.end(),
                   [&round](const auto& batch) { return batch.round == round.round; });
  if (found == resume->batches.end()) return {};
  if (found->custom_ids != round.custom_ids || found->digest != round.digest) {
    throw std::invalid_argument(fmt::format(
        "run_batch: round {}'s requests are not the ones batch {} was created with (another "
        "input, schema, model or option?); it was not resumed",
        round.round, found->batch_id));
  }
  return found->batch_id;
}

}  // namespace

nlohmann::ordered_json BatchRecord::to_json() const {
  auto batches_json = nlohmann::ordered_json::array();
  for (const auto& batch : batches) {
    batches_json.push_back({{"round", batch.round},
                            {"batch_id", batch.batch_id},
                            {"items", batch.custom_ids},
                            {"digest", batch.digest}});
  }
  return {{"accord_batch_record", 1},
          {"provider", provider},
          {"origin", origin},
          {"batches", std::move(batches_json)}};
}

BatchRecord BatchRecord::from_json(const nlohmann::json& document) {
  const auto fail = [](const std::string& what) {
    throw std::invalid_argument("not a batch record: " + what);
  };
  const auto text = [&fail](const nlohmann::json& object, const char* key) {
    const auto found = object.find(key);
    if (found == object.end() || !found->is_string() || found->get<std::string>().empty())
      fail(fmt::format("\"{}\" must be a non-empty string", key));
    return found->get<std::string>();
  };
  if (!document.is_object() || document.value("accord_batch_record", 0) != 1)
    fail("\"accord_batch_record\": 1 is missing");
  BatchRecord record{.provider = text(document, "provider"), .origin = text(document, "origin")};
  const auto batches = document.find("batches");
  if (batches == document.end() || !batches->is_array()) fail("\"batches\" must be an array");
  for (const auto& batch : *batches) {
    if (!batch.is_object() || !batch.contains("round") || !batch["round"].is_number_integer() ||
        batch["round"].get<int>() < 1 || !batch.contains("items") || !batch["items"].is_array())
      fail("each batch needs a \"round\" from 1 and an \"items\" array");
    Batch entry{.round = batch["round"].get<int>(),
                .batch_id = text(batch, "batch_id"),
                .custom_ids = {},
                .digest = text(batch, "digest")};
    for (const auto& id : batch["items"]) {
      if (!id.is_string()) fail("\"items\" must hold strings");
      entry.custom_ids.push_back(id.get<std::string>());
    }
    record.batches.push_back(std::move(entry));
  }
  return record;
}

std::vector<Result<nlohmann::json>> run_batch(const Client& client,
                                              const std::vector<ExtractRequest>& requests,
                                              const BatchOptions& options) {
  check_options(options);
  if (requests.empty()) throw std::invalid_argument("run_batch: no requests");
  check_same_extra_headers(client, requests);
  const std::string provider(client.provider().name());
  if (!has_batch_api(provider))
    throw std::invalid_argument(fmt::format("run_batch: provider {} has no batch API", provider));
  BatchRecord record{.provider = provider,
                     .origin = detail::origin_of(Client::Internals::base_url(client))};
  if (options.resume) check_resumable(*options.resume, record);
  const auto started = Clock::now();
  const Deadline deadline = started + options.deadline;

  std::vector<detail::ExtractionLoop> loops;
  loops.reserve(requests.size());
  for (const auto& request : requests) {
    // One provider's batch carries every item: a batch does not fall back.
    ExtractRequest alone = request;
    alone.fallbacks.emplace();
    loops.emplace_back(client, alone);
  }
  const auto probe = Client::Internals::prepare(client, loops.front().call());
  const auto protocol = detail::make_batch_protocol(
      provider, Client::Internals::base_url(client), probe.request, sender(client),
      [&client](std::string text) { return client.redacted(std::move(text)); });

  std::vector<std::optional<detail::Outcome>> results(requests.size());
  std::vector<std::size_t> pending(requests.size());
  for (std::size_t i = 0; i < pending.size(); ++i) pending[i] = i;
  for (int number = 1; !pending.empty(); ++number) {
    std::vector<detail::PreparedExchange> prepared;
    std::vector<detail::BatchItem> items;
    prepared.reserve(pending.size());
    for (const std::size_t i : pending) {
      prepared.push_back(Client::Internals::prepare(client, loops[i].call()));
    }
    // Every item of the round was taken before any is reported as sent.
    for (const std::size_t i : pending) loops[i].sending();
    for (std::size_t k = 0; k < pending.size(); ++k) {
      items.push_back({fmt::format("item-{}", pending[k]), &prepared[k].request});
    }

    BatchRecord::Batch entry{
        .round = number, .batch_id = {}, .custom_ids = {}, .digest = requests_digest(items)};
    for (const auto& item : items) entry.custom_ids.push_back(item.custom_id);
    const std::string recorded_id = recorded_batch(options.resume, entry);
    entry.batch_id = recorded_id;
    if (!recorded_id.empty()) record.batches.push_back(entry);
    const auto created = [&](const std::string& batch_id) {
      entry.batch_id = batch_id;
      record.batches.push_back(entry);
      if (options.on_record) options.on_record(record);
    };

    Round round(*protocol, options, started, deadline, number);
    detail::BatchAnswers answers;
    std::optional<Error> failure;
    try {
      answers = round.run(items, recorded_id, created);
    } catch (const BatchFailure& e) {
      failure = Error{ErrorKind::batch_unanswered, e.what(), {}};
    } catch (const RoundStopped& stopped) {
      throw BatchStopped("run_batch: " + stopped.what, record, stopped.cancelled);
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
      auto exchanged =
          Client::Internals::finish(client, std::move(prepared[k]), std::move(delivery));
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
  for (auto& result : results) out.push_back(std::move(*result).with_tree());
  return out;
}

}  // namespace accord
