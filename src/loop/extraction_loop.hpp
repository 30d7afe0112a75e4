#pragma once
// The extraction loop as steps, so the blocking Client::extract and the asynchronous
// extract_async run one loop: send call(), hand the answer to on_exchange(), repeat until it
// returns the Result.

#include <memory>
#include <optional>

#include "accord/client.hpp"
#include "loop/call_events.hpp"
#include "loop/client.hpp"
#include "loop/loop.hpp"
#include "loop/scoped_correction.hpp"

namespace accord::detail {

// The call's end as the loop decides it: the judged value (the parsed document when the reply
// needed no tree) or the Error, either with the Trace; moved on as the caller's Result.
class Outcome {
 public:
  Outcome(Extraction<JudgedValue> done) : state_(std::move(done)) {}  // NOLINT: as Result's
  Outcome(Error error) : state_(std::move(error)) {}                  // NOLINT
  // The Error the call ended with, or nullptr when it has a value.
  [[nodiscard]] Error* error() { return std::get_if<Error>(&state_); }
  // For extract(): the value as a tree, built here when it is still the parsed document.
  [[nodiscard]] Result<nlohmann::json> with_tree() &&;
  // For extract<T>: the value as judged, read in place by the typed layer.
  [[nodiscard]] Result<JudgedValue> as_judged() &&;

 private:
  std::variant<Extraction<JudgedValue>, Error> state_;
};

class ExtractionLoop {
 public:
  // Throws std::invalid_argument for a null Contract, one made for another provider,
  // corrections outside 0..kMaxCorrections, or a fallback with no key for an endpoint off this
  // machine. `client` must outlive the loop.
  ExtractionLoop(const Client& client, const ExtractRequest& request);

  // The client the next attempt goes to: the caller's, or the fallback the call moved on to.
  [[nodiscard]] const Client& client() const { return *client_; }
  // The next attempt to send.
  [[nodiscard]] const CallSpec& call() const { return call_; }
  // call() encoded for client(), streamed as stream() says: Client::Internals::prepare_sent on
  // call() itself (so not const), whose parameters and model are given back however it ends,
  // and which holds no key or base URL after it.
  // Throws std::invalid_argument for a request refused before sending.
  [[nodiscard]] PreparedExchange prepare();
  // Tells the hooks call() is being sent (on_correction_sent, on_request_sent). Called once it
  // was prepared: a request refused before sending is never reported as sent.
  void sending();
  // How the next attempt is streamed; nullopt when it is not.
  [[nodiscard]] std::optional<StreamSetup> stream() const;
  // What the transport tells of each retry of call()'s request (ClientOptions::hooks).
  [[nodiscard]] RetryObserver retries() const {
    return events_->retries(trace_.attempts.size() + 1);
  }
  // When the whole call must be over (ClientOptions::call_timeout from the start).
  [[nodiscard]] Deadline deadline() const { return deadline_; }
  // The call's Result once it is decided; nullopt when call() now carries the corrective turn.
  [[nodiscard]] std::optional<Outcome> on_exchange(Exchange exchanged);
  // Ends the call early with `error`, carrying the attempts so far.
  [[nodiscard]] Outcome end_with(Error error);
  // The same after an attempt that was sent but never answered (a batch item the provider let
  // expire): the attempt is kept in the trace.
  [[nodiscard]] Outcome end_with(Error error, Attempt unanswered);

 private:
  // The last whole object judged: what a whole-object correction echoes and a scoped one merges
  // into.
  struct Judgement {
    Reply reply;
    Judged judged;
    // A stream stopped at the part there: judged.wire_value is what was read up to it.
    std::optional<Path> stopped_at;
  };

  // Makes `client` the one the next requests go to, with its own Contract and a fresh start:
  // the first request again, no correction or continuation carried over.
  void begin_with(const Client& client);
  // Whether the policy moves the call on after this answer, and a fallback is left to take it.
  [[nodiscard]] bool falls_back(const Attempt& attempt, const Reply& reply) const;
  // Records the attempt that ended the current provider's turn and sets call() to the next
  // provider's first request.
  std::optional<Outcome> fall_back(Attempt attempt, const Error& why);
  // The records' keys taken out: every client tried had its own, the caller's and those of the
  // fallbacks the call moved on to (read off them, not listed per call).
  template <class Record>
  void redact_keys(Record& record) const {
    redact(record, *caller_);
    for (std::size_t i = 0; i < next_fallback_; ++i) redact(record, (*fallbacks_)[i]);
  }

  // Each takes the attempt just answered (not yet in the trace) and decides what comes next.
  // Those for a reply that is not a whole output are cold: out of the lines a valid first
  // answer runs through (on_exchange's I1 misses, bench/README.md `loop11b`).
  [[gnu::cold]] std::optional<Outcome> on_truncated(Attempt attempt, const Reply& reply);
  // The raised-cap retry answered 400/422 (a cap above the model's own limit).
  [[gnu::cold]] std::optional<Outcome> on_raised_cap_refused(Attempt attempt, const Reply& reply);
  // The token budget's own cap cut the output short: the call ends.
  [[gnu::cold]] Outcome on_budget_exhausted(Attempt attempt);
  // The reply holds no output (an error, a refusal, a transport failure): a fallback or the end.
  [[gnu::cold]] std::optional<Outcome> on_failed_reply(Attempt attempt, const Reply& reply,
                                                       Error error);
  // A continuation answered: `reply` becomes the pieces joined (`joined`, redacted).
  [[gnu::cold]] void join_continuation(Attempt& attempt, Reply& reply, std::string joined);
  // The answered attempt and its reply are taken by reference on the way to the trace (the one
  // path every call takes): not moved once more per step.
  std::optional<Outcome> on_whole_object(Attempt&& attempt, Reply&& reply);
  std::optional<Outcome> on_scoped_reply(Attempt attempt, const std::string& text);
  std::optional<Outcome> succeed(Attempt&& attempt, JudgedValue&& value);
  // Sets call() to the correction of last_whole_: scoped when the policy and the issues allow.
  // Returns the note for the attempt that needs correcting.
  std::string prepare_correction(bool allow_scoped);
  // Counts the corrective request about to be sent; false when none is left.
  bool take_correction();
  void send_whole_correction();
  // Sets call() for the next request; the call's end when the token budget leaves no room.
  std::optional<Outcome> next_request(Attempt attempt, AttemptRole role);
  // A key split between the pieces of a continued output is whole only where they join: each
  // piece's share of it is taken out of the records of the attempts that carry it (their
  // content, raw reply, and the prefill sent back). `current` is the latest piece's attempt.
  // Returns the pieces joined, every key in them redacted: the output the loop judges.
  [[gnu::cold]] std::string redact_across_continuations(Attempt& current);

  const Client* caller_;  // the caller's: keeps the Contracts lowered for fallbacks
  const Client* client_;  // the current one (see client())
  std::shared_ptr<const std::vector<Client>> fallbacks_;
  std::size_t next_fallback_ = 0;  // index into *fallbacks_
  // What each client's Contract is made from: the caller's DSL schema, or the caller's Contract.
  std::optional<Schema> schema_;
  std::string name_;
  std::shared_ptr<const Contract> given_contract_;
  std::shared_ptr<const Contract> contract_;
  OutputMode asked_mode_;  // the call's (ExtractRequest::mode)
  OutputMode mode_;        // what the current client sends for it (never per_model)
  std::string mode_note_;  // why, for the current client's first attempt; empty once noted
  int corrections_ = 0;
  int corrections_sent_ = 0;
  RepairPolicy repair_policy_ = RepairPolicy::lossless;
  RepairSetup repair_;  // the policy, for the current Contract
  CorrectionPolicy correction_;
  TokenBudget budget_;
  TruncationRecovery truncation_;
  Deadline deadline_;
  // The caller's: what every provider's first request sends (the last one takes them).
  std::vector<Turn> first_turns_;
  CallSpec call_;
  AttemptRole role_ = AttemptRole::first;  // of the request call() holds
  // The turns of the last whole-object request, without a continuation's prefill: where a
  // whole-object correction, a continuation or a raised-cap retry starts from.
  std::vector<Turn> whole_turns_;
  // The same for the request in flight (scoped or whole); empty while they are call_.turns, as
  // on a first attempt (never empty otherwise: a conversation has a turn). Read through
  // sent_turns().
  std::vector<Turn> request_turns_;
  std::size_t caller_turns_ = 0;  // how many turns of whole_turns_ are the caller's
  std::optional<Judgement> last_whole_;
  // The scoped correction in flight; shared so call().output stays valid when the loop moves.
  std::shared_ptr<const ScopedCorrection> scoped_;
  // A scoped correction is tried once per call: after one that failed, the model gets the
  // whole object again. Each corrective request, scoped or whole, is one of `corrections_`, so a
  // call makes at most corrections + 1 requests (and truncation recovery's).
  bool scoped_tried_ = false;
  std::string partial_;                  // a continued output so far
  std::vector<std::size_t> piece_ends_;  // where each of its pieces ends in it
  int continuations_ = 0;
  int output_cap_ = 0;            // raised after a truncation; 0: the client's max_tokens
  std::string truncated_at_;      // the detail of the truncation the raised cap answers
  bool cap_from_budget_ = false;  // the request in flight has its output cut to the budget's rest
  Trace trace_;
  StreamOptions stream_;
  PartialValueCallback on_partial_;
  std::optional<CallEvents> events_;  // made once the schema's name is known
};

}  // namespace accord::detail
