#include "loop/extraction_loop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>

#include "loop/conversation.hpp"
#include "loop/loop.hpp"
#include "transport/redaction.hpp"

namespace accord::detail {
namespace {

// Notes accumulate: a continuation joined, then what its correction will be.
void add_note(Attempt& attempt, const std::string& note) {
  if (note.empty()) return;
  attempt.note += (attempt.note.empty() ? "" : "; ") + note;
}

// The turns of the request in flight without a continuation's prefill: `kept` once they part
// from the call's own, `call`'s until then (ExtractionLoop::request_turns_).
const std::vector<Turn>& sent_turns(const std::vector<Turn>& kept, const std::vector<Turn>& call) {
  return kept.empty() ? call : kept;
}

// Why `client` refuses to send `call` (a parameter, part or conversation shape its provider does
// not take), or empty when it would send it.
std::string refusal_before_sending(const Client& client, const CallSpec& call) {
  try {
    (void)Client::Internals::prepare(client, call);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

}  // namespace

Result<nlohmann::json> Outcome::with_tree() && {
  if (auto* error = std::get_if<Error>(&state_)) return std::move(*error);
  auto& done = std::get<Extraction<JudgedValue>>(state_);
  return Extraction<nlohmann::json>{tree_of_reply(std::move(done.value)), std::move(done.trace)};
}

Result<JudgedValue> Outcome::as_judged() && {
  if (auto* error = std::get_if<Error>(&state_)) return std::move(*error);
  return std::get<Extraction<JudgedValue>>(std::move(state_));
}

std::optional<StreamSetup> ExtractionLoop::stream() const {
  if (!stream_.enabled) return std::nullopt;
  // A scoped correction's answer is a patch, not the contract's object: its parts cannot be
  // judged against the contract as they close.
  StreamSetup setup{stream_, on_partial_, scoped_ ? nullptr : contract_,
                    trace_.attempts.size() + 1};
  setup.repair = repair_.policy;
  return setup;
}

ExtractionLoop::ExtractionLoop(const Client& client, const ExtractRequest& request)
    : caller_(&client),
      client_(&client),
      fallbacks_(Client::Internals::fallbacks(client, request.fallbacks)),
      name_(request.name),
      asked_mode_(request.mode),
      mode_(request.mode),
      stream_(request.stream.value_or(Client::Internals::options(client).stream)),
      on_partial_(request.on_partial) {
  if (const auto* schema = std::get_if<Schema>(&request.schema)) {
    schema_ = *schema;
  } else {
    given_contract_ = std::get<std::shared_ptr<const Contract>>(request.schema);
    if (!given_contract_) throw std::invalid_argument("ExtractRequest: the Contract is null");
    if (given_contract_->provider_name() != client.provider().name()) {
      throw std::invalid_argument(
          fmt::format("ExtractRequest: the Contract was made for {}, not {}",
                      given_contract_->provider_name(), client.provider().name()));
    }
  }
  for (const auto& fallback : *fallbacks_) {
    if (auto why = fallback.unusable_reason())
      throw std::invalid_argument(fmt::format("fallback {}: {}", fallback.provider().name(), *why));
  }
  const auto& options = Client::Internals::options(client);
  corrections_ = request.corrections.value_or(options.corrections);
  Client::Internals::check_corrections(corrections_, "ExtractRequest");
  repair_policy_ = request.repair.value_or(options.repair);
  correction_ = request.correction.value_or(options.correction);
  budget_ = request.budget.value_or(options.budget);
  truncation_ = request.truncation.value_or(options.truncation);
  deadline_ = Client::Internals::call_deadline(client);
  first_turns_ = conversation_of(request);
  caller_turns_ = first_turns_.size();
  call_.parameters = request.parameters;  // the same for every provider tried
  // What a fallback would refuse of this call (a parameter, an image or document it does not
  // take) is refused now, before anything is sent, not mid-call where it would lose the Trace.
  for (const auto& fallback : *fallbacks_) {
    begin_with(fallback);
    CallSpec probe = call_;
    drop_endpoint_extras(probe.parameters);
    if (const auto why = refusal_before_sending(fallback, probe); !why.empty())
      throw std::invalid_argument(fmt::format("fallback {}: {}", fallback.provider().name(), why));
  }
  begin_with(client);
  events_.emplace(client, contract_->name());
}

PreparedExchange ExtractionLoop::prepare() {
  const auto setup = stream();
  // Encoded in place, not on a copy of the call (a copy and its destruction per attempt):
  // prepare_sent writes the client's settings into call_, and however the encoding ends it is
  // given back as it was. The call's own parameters: a call that sets none keeps taking
  // prepare_sent's shortcut (the client's sent as they are, no merged()) on later attempts. Its
  // model, empty when the client chooses: a fallback's first request names the fallback's model,
  // not the one before (Fallback.UnavailableAfterRetriesHandsTheCallToTheNext). The key and the
  // base URL are cleared, so the call holds a key only while it is encoded; each request writes
  // its client's again, with its mode and max_tokens. The parameters prepare_sent replaces, it
  // moves aside into `parameters` itself (when neither the call nor the client sets any, it
  // leaves them): one rule, kept there.
  struct Restored {
    CallSpec& call;
    std::optional<RequestParameters> parameters;
    std::string model;
    ~Restored() {
      if (parameters) call.parameters = *std::move(parameters);
      call.model = std::move(model);
      call.api_key.clear();
      call.base_url.clear();
    }
  } restored{call_, std::nullopt, call_.model};
  return Client::Internals::prepare_sent(*client_, call_, setup ? &*setup : nullptr,
                                         &restored.parameters);
}

void ExtractionLoop::sending() {
  const auto number = trace_.attempts.size() + 1;
  if (role_ == AttemptRole::scoped_correction || role_ == AttemptRole::whole_correction)
    events_->correction_sent(number, role_, call_);
  events_->request_sent(number, role_, call_, stream_.enabled);
}

void ExtractionLoop::begin_with(const Client& client) {
  client_ = &client;
  if (schema_) {
    contract_ = client.contract(*schema_, name_);
  } else if (given_contract_->provider_name() == client.provider().name()) {
    contract_ = given_contract_;
  } else {
    contract_ = Client::Internals::contract_for(*caller_, given_contract_, client.provider());
  }
  repair_ = repair_setup(*contract_, repair_policy_);
  // Field by field: what the call sets beyond these stays the same for every provider. The last
  // client the call can go to takes the caller's turns; one with fallbacks after it, a copy.
  if (next_fallback_ < fallbacks_->size()) {
    call_.turns = first_turns_;
  } else {
    call_.turns = std::move(first_turns_);
  }
  call_.output_name = contract_->name();
  call_.output = &contract_->wire();
  call_.output_text = &contract_->wire_text();
  // Each provider tried chooses for its own model when the call leaves the mode to it.
  auto chosen =
      Client::Internals::output_mode(client, asked_mode_, Client::Internals::model(client));
  mode_ = chosen.mode;
  mode_note_ = std::move(chosen.why);
  call_.mode = mode_;
  call_.output_cap = 0;
  // Set from the request's turns by the first whole-object reply that needs correcting, before
  // any read, and the request's turns are call_'s until a correction or a continuation makes
  // its own: not a second and third copy of the caller's turns on every call.
  whole_turns_.clear();
  request_turns_.clear();
  role_ = AttemptRole::first;
  corrections_sent_ = 0;
  last_whole_.reset();
  scoped_.reset();
  scoped_tried_ = false;
  partial_.clear();
  piece_ends_.clear();
  continuations_ = 0;
  output_cap_ = 0;
  truncated_at_.clear();
  cap_from_budget_ = false;
}

bool ExtractionLoop::falls_back(const Attempt& attempt, const Reply& reply) const {
  if (next_fallback_ >= fallbacks_->size() || std::chrono::steady_clock::now() >= deadline_)
    return false;
  // The caller's policy, read where it is kept: a copy per call was an allocation (its statuses).
  const FallbackPolicy& policy = Client::Internals::options(*caller_).fallback_policy;
  if (attempt.http_status == 0) return policy.on_transport_failure;
  if (reply.status == ReplyStatus::refusal) return policy.on_refusal;
  const auto& statuses = policy.statuses;
  return reply.status == ReplyStatus::http_error &&
         std::find(statuses.begin(), statuses.end(), attempt.http_status) != statuses.end();
}

std::optional<Outcome> ExtractionLoop::fall_back(Attempt attempt, const Error& why) {
  const Client& next = (*fallbacks_)[next_fallback_++];
  add_note(attempt, fmt::format("falling back to {} {}: {}", next.provider().name(),
                                Client::Internals::model(next), why.message));
  drop_endpoint_extras(call_.parameters);
  begin_with(next);
  events_->switch_to(next);
  return next_request(std::move(attempt), AttemptRole::first);
}

std::optional<Outcome> ExtractionLoop::on_exchange(Exchange exchanged) {
  auto& [attempt, reply] = exchanged;
  attempt.role = role_;
  add_note(attempt, std::exchange(mode_note_, {}));
  events_->reply_received(trace_.attempts.size() + 1, attempt);
  trace_.usage += attempt.usage;
  if (const auto& prices = Client::Internals::options(*client_).prices) {
    // Each attempt at its own model's prices (a fallback may be another model); one the table
    // does not price leaves the call without a cost.
    const auto spent = prices->cost(attempt.model, attempt.usage);
    const bool first = trace_.attempts.empty();
    trace_.cost = spent && (first || trace_.cost)
                      ? std::optional<double>((first ? 0.0 : *trace_.cost) + *spent)
                      : std::nullopt;
  }
  std::string joined;  // a continued output with this piece, redacted
  if (continuations_ > 0) joined = redact_across_continuations(attempt);
  if (reply.status == ReplyStatus::truncated && attempt.http_status != 0) {
    if (cap_from_budget_) return on_budget_exhausted(std::move(attempt));
    if (truncation_.enabled) return on_truncated(std::move(attempt), reply);
  }
  if (role_ == AttemptRole::raised_cap && reply.status == ReplyStatus::http_error &&
      (attempt.http_status == 400 || attempt.http_status == 422)) {
    return on_raised_cap_refused(std::move(attempt), reply);
  }
  if (auto error = reply_error(exchanged, mode_))
    return on_failed_reply(std::move(attempt), reply, *std::move(error));
  if (!partial_.empty()) join_continuation(attempt, reply, std::move(joined));
  if (scoped_) return on_scoped_reply(std::move(attempt), reply.text);
  return on_whole_object(std::move(attempt), std::move(reply));
}

Outcome ExtractionLoop::on_budget_exhausted(Attempt attempt) {
  trace_.attempts.push_back(std::move(attempt));
  return end_with(
      Error{ErrorKind::budget_exhausted,
            fmt::format("the token budget of {} cut the output short ({} spent)",
                        budget_.max_tokens, trace_.usage.input_tokens + trace_.usage.output_tokens),
            {}});
}

std::optional<Outcome> ExtractionLoop::on_failed_reply(Attempt attempt, const Reply& reply,
                                                       Error error) {
  if (!partial_.empty()) add_note(attempt, "the continuation failed; the output so far is lost");
  if (falls_back(attempt, reply)) return fall_back(std::move(attempt), error);
  trace_.attempts.push_back(std::move(attempt));
  return end_with(std::move(error));
}

void ExtractionLoop::join_continuation(Attempt& attempt, Reply& reply, std::string joined) {
  // The model went on from the text it was given back; together they are the output, echoed
  // whole if it needs correcting.
  add_note(attempt, fmt::format("continued the {} bytes before it; judged joined ({} bytes)",
                                partial_.size(), partial_.size() + reply.text.size()));
  // Redacted joined: a key split between the pieces is whole only here.
  reply.text = std::move(joined);
  reply.assistant = Turn{.role = Turn::Role::assistant, .text = reply.text};
  partial_.clear();
  piece_ends_.clear();
  continuations_ = 0;
}

std::optional<Outcome> ExtractionLoop::succeed(Attempt&& attempt, JudgedValue&& value) {
  trace_.attempts.push_back(std::move(attempt));
  redact_keys(trace_);
  events_->finished(trace_, nullptr);
  return Outcome(Extraction<JudgedValue>{std::move(value), std::move(trace_)});
}

std::optional<Outcome> ExtractionLoop::on_whole_object(Attempt&& attempt, Reply&& reply) {
  // The trace is redacted once, when the call ends; the model hears the issues as found.
  // A stream stopped at a part that broke a rule: that part's issues stand for the reply.
  const auto& lowering = contract_->wire().lowering;
  const auto& stopped_at = attempt.stream.stopped_at;
  auto judged = stopped_at
                    ? Judged{.issues = attempt.issues,
                             .wire_value = value_read_until(reply.text, lowering, *stopped_at)}
                    : judge_text(reply.text, lowering, contract_->validator(), repair_);
  attempt.issues = judged.issues;
  attempt.repairs = judged.repairs;
  if (judged.issues.empty()) return succeed(std::move(attempt), std::move(judged.value));
  events_->issues_found(trace_.attempts.size() + 1, judged.issues, judged.repairs);
  if (!take_correction()) {
    trace_.attempts.push_back(std::move(attempt));
    return end_with(invalid_after(trace_.attempts.size(), judged.issues, {}));
  }
  whole_turns_ = sent_turns(request_turns_, call_.turns);
  last_whole_ = Judgement{std::move(reply), std::move(judged), stopped_at};
  add_note(attempt,
           prepare_correction(correction_.style == CorrectionStyle::scoped && !scoped_tried_));
  return next_request(std::move(attempt),
                      scoped_ ? AttemptRole::scoped_correction : AttemptRole::whole_correction);
}

bool ExtractionLoop::take_correction() {
  if (corrections_sent_ == corrections_) return false;
  ++corrections_sent_;
  return true;
}

std::optional<Outcome> ExtractionLoop::on_scoped_reply(Attempt attempt, const std::string& text) {
  const auto plan = std::exchange(scoped_, nullptr);
  const auto& lowering = contract_->wire().lowering;
  std::string problem;
  auto merged = merge_scoped_reply(*plan, last_whole_->judged.wire_value, text, problem);
  if (merged) {
    auto value = unlower(*std::move(merged), lowering);
    attempt.issues = contract_->validator().validate(value);
    const std::string keys = plan->keys();
    if (attempt.issues.empty()) {
      add_note(attempt, fmt::format("merged {} into the previous object: valid", keys));
      return succeed(std::move(attempt), JudgedValue(std::move(value)));
    }
    add_note(attempt, fmt::format("merged {} into the previous object: still invalid", keys));
  } else {
    // Asked for a patch, a model may answer with the whole object; a valid one is the answer.
    auto judged = judge_text(text, lowering, contract_->validator(), repair_);
    attempt.repairs = judged.repairs;
    if (judged.parsed && judged.issues.empty()) {
      add_note(attempt, "not a patch but the whole object, which is valid");
      return succeed(std::move(attempt), std::move(judged.value));
    }
    attempt.issues = std::move(judged.issues);
    add_note(attempt, "not a usable patch (" + problem + ")");
  }
  events_->issues_found(trace_.attempts.size() + 1, attempt.issues, attempt.repairs);
  if (!take_correction()) {
    add_note(attempt, "no correction is left to send it whole");
    // A reply that is no patch leaves the issues it was asked to fix standing.
    Issues standing = merged ? attempt.issues : last_whole_->judged.issues;
    trace_.attempts.push_back(std::move(attempt));
    return end_with(invalid_after(trace_.attempts.size(), standing, {}));
  }
  add_note(attempt, "the correction is sent whole");
  prepare_correction(false);
  return next_request(std::move(attempt), AttemptRole::whole_correction);
}

std::string ExtractionLoop::prepare_correction(bool allow_scoped) {
  const Judged& judged = last_whole_->judged;
  const std::optional<Path>& stopped_at = last_whole_->stopped_at;
  std::string why = "the reply is not JSON";
  if (allow_scoped && (judged.parsed || stopped_at)) {
    if (auto plan = plan_scoped_correction(judged.wire_value, judged.issues, contract_->wire(),
                                           correction_.max_scoped_share, why, stopped_at)) {
      scoped_ = std::make_shared<const ScopedCorrection>(*std::move(plan));
      scoped_tried_ = true;
      // The caller's own turns: the source to extract from, without earlier corrections.
      request_turns_.assign(whole_turns_.begin(),
                            whole_turns_.begin() + static_cast<std::ptrdiff_t>(caller_turns_));
      request_turns_.push_back(Turn{.role = Turn::Role::user, .text = scoped_->request_text});
      call_.turns = request_turns_;
      call_.output = &scoped_->patch;
      call_.output_text = nullptr;
      return "correction scoped to " + scoped_->keys();
    }
  }
  if (stopped_at)
    why = "the stream was stopped early at " + stopped_at->to_string() + ", and " + why;
  send_whole_correction();
  return allow_scoped ? "correction sent whole: " + why : std::string();
}

void ExtractionLoop::send_whole_correction() {
  request_turns_ = whole_turns_;
  append_correction(request_turns_, last_whole_->reply, last_whole_->judged.issues, mode_,
                    contract_->name());
  call_.turns = request_turns_;
  call_.output = &contract_->wire();
  call_.output_text = &contract_->wire_text();
}

std::optional<Outcome> ExtractionLoop::on_truncated(Attempt attempt, const Reply& reply) {
  // Kept apart from here on: a continuation's call_.turns carry the prefill besides them.
  if (request_turns_.empty()) request_turns_ = call_.turns;
  std::string joined = partial_ + reply.text;
  // Anthropic refuses a final assistant turn that ends in whitespace; the model goes on from the
  // trimmed text, so the trimmed text is what the continuation joins.
  while (!joined.empty() && std::isspace(static_cast<unsigned char>(joined.back()))) {
    joined.pop_back();
  }
  bool can_continue = client_->provider().continues_assistant_prefill() &&
                      mode_ == OutputMode::response_format && !joined.empty();
  // A prefill the provider refuses with this call's parameters (Anthropic's with extended
  // thinking on) is not sent: the raised cap is tried instead.
  std::string no_continuation;
  if (can_continue && continuations_ < truncation_.max_continuations) {
    CallSpec continuation = call_;
    continuation.turns = request_turns_;
    continuation.turns.push_back(Turn{.role = Turn::Role::assistant, .text = joined});
    no_continuation = refusal_before_sending(*client_, continuation);
    can_continue = no_continuation.empty();
    if (can_continue) {
      ++continuations_;
      partial_ = std::move(joined);
      piece_ends_.push_back(partial_.size());
      add_note(attempt,
               fmt::format("truncated; continuing from the {} bytes so far", partial_.size()));
      call_ = std::move(continuation);
      return next_request(std::move(attempt), AttemptRole::continuation);
    }
  }
  const auto& options = Client::Internals::options(*client_);
  const int raised =
      truncation_.raised_max_tokens > 0 ? truncation_.raised_max_tokens : 4 * options.max_tokens;
  if (!can_continue && output_cap_ == 0 && raised > options.max_tokens) {
    output_cap_ = raised;
    truncated_at_ = reply.detail;
    add_note(attempt, fmt::format("truncated; sent again with max_tokens {} instead of {}", raised,
                                  options.max_tokens));
    if (!no_continuation.empty()) add_note(attempt, "not continued: " + no_continuation);
    call_.turns = request_turns_;
    return next_request(std::move(attempt), AttemptRole::raised_cap);
  }
  const std::string how =
      can_continue
          ? fmt::format("after {} continuation{}", continuations_, continuations_ == 1 ? "" : "s")
      : output_cap_ > 0 ? fmt::format("with max_tokens raised to {}", output_cap_)
                        : std::string("with no recovery left");
  add_note(attempt,
           fmt::format("truncated {}; the partial output ({} bytes) is the content of {}", how,
                       joined.size(),
                       partial_.empty() ? "this attempt" : "the continued attempts joined"));
  partial_.clear();
  piece_ends_.clear();
  trace_.attempts.push_back(std::move(attempt));
  return end_with(
      Error{ErrorKind::truncated,
            fmt::format("the output was cut off at the token limit ({}) {}", reply.detail, how),
            {}});
}

std::optional<Outcome> ExtractionLoop::on_raised_cap_refused(Attempt attempt, const Reply& reply) {
  // The model's own limit (or the provider's) is below the raised cap: the call ends as the
  // truncation it was, not as an HTTP error about a number the caller never set.
  add_note(attempt, fmt::format("the raised cap of max_tokens {} was refused", output_cap_));
  trace_.attempts.push_back(std::move(attempt));
  return end_with(Error{ErrorKind::truncated,
                        fmt::format("the output was cut off at the token limit ({}); sending it "
                                    "again with max_tokens raised to {} was refused: {}",
                                    truncated_at_, output_cap_, one_line(reply.detail)),
                        {}});
}

std::string ExtractionLoop::redact_across_continuations(Attempt& current) {
  std::vector<Attempt*> chain;
  for (auto i = trace_.attempts.size() - static_cast<std::size_t>(continuations_);
       i < trace_.attempts.size(); ++i) {
    chain.push_back(&trace_.attempts[i]);
  }
  chain.push_back(&current);
  // The pieces as the loop joined them (each but the last without its trailing whitespace),
  // before any share of a key was taken out of their records.
  const std::string joined = partial_ + current.content;
  std::vector<std::size_t> ends = piece_ends_;
  ends.push_back(joined.size());
  const auto keys = Client::Internals::key_spans(*client_, joined);
  std::vector<std::string> shares;
  for (const auto& [start, end] : keys) {
    std::size_t from = 0;
    for (const std::size_t to : ends) {
      const std::size_t a = std::max(start, from);
      const std::size_t b = std::min(end, to);
      // A share of a key inside one piece is redacted with the rest; one across pieces is here.
      if (a < b && (a != start || b != end)) shares.push_back(joined.substr(a, b - a));
      from = to;
    }
  }
  // Shares under 4 characters are left, as redact_secret leaves such secrets: they would shred
  // ordinary text.
  for (const auto& share : shares) {
    for (Attempt* attempt : chain) {
      for (std::string* text : {&attempt->content, &attempt->raw_reply, &attempt->request_body}) {
        *text = redact_secret(std::move(*text), share);
      }
    }
  }
  return redact_spans(joined, keys);
}

std::optional<Outcome> ExtractionLoop::next_request(Attempt attempt, AttemptRole role) {
  role_ = role;
  call_.output_cap = output_cap_;
  cap_from_budget_ = false;
  if (budget_.max_tokens > 0) {
    const std::int64_t spent = trace_.usage.input_tokens + trace_.usage.output_tokens;
    // The next request's input, from the tokens per byte of the one just answered (a quarter
    // token per byte, the usual rule, when the provider reported none).
    const auto sent_bytes = static_cast<double>(attempt.request_body.size());
    const double per_byte = attempt.usage.input_tokens > 0 && sent_bytes > 0
                                ? static_cast<double>(attempt.usage.input_tokens) / sent_bytes
                                : 0.25;
    // Measured as the one just answered was: the record's body, with parts as their digests.
    const auto next_bytes = Client::Internals::prepare(*client_, call_).attempt.request_body.size();
    const auto input = static_cast<std::int64_t>(static_cast<double>(next_bytes) * per_byte) + 1;
    const std::int64_t left = budget_.max_tokens - spent - input;
    if (left <= 0) {
      add_note(attempt, fmt::format("stopped by the token budget: {} of {} spent, the {} would "
                                    "take about {} input tokens",
                                    spent, budget_.max_tokens, to_string(role), input));
      Issues issues = attempt.issues;
      trace_.attempts.push_back(std::move(attempt));
      std::string message = fmt::format(
          "the token budget of {} is spent ({} used over {} attempt{}; the {} needs about {} more)",
          budget_.max_tokens, spent, trace_.attempts.size(), trace_.attempts.size() == 1 ? "" : "s",
          to_string(role), input);
      if (!issues.empty()) message += ": " + prettify_one_line(issues);
      return end_with(Error{ErrorKind::budget_exhausted, std::move(message), {}});
    }
    const int cap = output_cap_ > 0 ? output_cap_ : Client::Internals::options(*client_).max_tokens;
    if (left < cap) {
      call_.output_cap = static_cast<int>(left);
      cap_from_budget_ = true;
      // A cap the provider refuses (Claude's at or below the thinking budget) is not sent, nor
      // is the thinking budget cut behind the caller's back: the budget cannot pay for the
      // request as the caller set it up.
      if (const auto why = refusal_before_sending(*client_, call_); !why.empty()) {
        add_note(attempt,
                 fmt::format("stopped by the token budget: the {} would get max_tokens {}, "
                             "which is refused: {}",
                             to_string(role), left, why));
        trace_.attempts.push_back(std::move(attempt));
        return end_with(Error{ErrorKind::budget_exhausted,
                              fmt::format("the token budget of {} leaves the {} max_tokens {} ({} "
                                          "spent), which cannot be sent: {}",
                                          budget_.max_tokens, to_string(role), left, spent, why),
                              {}});
      }
    }
  }
  trace_.attempts.push_back(std::move(attempt));
  return std::nullopt;
}

Outcome ExtractionLoop::end_with(Error error, Attempt unanswered) {
  trace_.attempts.push_back(std::move(unanswered));
  return end_with(std::move(error));
}

Outcome ExtractionLoop::end_with(Error error) {
  error.trace = std::move(trace_);
  redact_keys(error);
  events_->finished(error.trace, &error);
  return error;
}

}  // namespace accord::detail
