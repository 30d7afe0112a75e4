#include "accord/client.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#include "accord/json_schema.hpp"
#include "accord/json_text.hpp"
#include "core/ascii.hpp"
#include "loop/extraction_loop.hpp"
#include "loop/loop.hpp"
#include "providers/wire.hpp"
#include "transport/redaction.hpp"

namespace accord {
namespace {

constexpr std::size_t kKeptReplyBytes = 64 * 1024;

std::string from_env(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  return value ? value : "";
}

// Whether `base_url` names this machine (127.0.0.0/8, ::1, localhost): a server there, such as
// accord-mock or a local model, may take no key.
bool loopback_endpoint(std::string_view base_url) {
  const auto scheme = base_url.find("://");
  std::string_view host = scheme == std::string_view::npos ? base_url : base_url.substr(scheme + 3);
  host = host.substr(0, host.find_first_of("/?#"));
  if (const auto at = host.rfind('@'); at != std::string_view::npos) host = host.substr(at + 1);
  if (host.starts_with('[')) {
    host = host.substr(1, host.find(']') - 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  const std::string lower = detail::ascii_lower(host);
  // 127.0.0.0/8 only as an address: a name such as 127.example.com is a hosted endpoint.
  const bool ipv4_loopback =
      lower.starts_with("127.") && lower.find_first_not_of("0123456789.") == std::string::npos;
  return lower == "localhost" || lower.ends_with(".localhost") || ipv4_loopback || lower == "::1";
}

Deadline deadline_after(std::chrono::milliseconds timeout) {
  return timeout.count() > 0 ? std::chrono::steady_clock::now() + timeout : Deadline::max();
}

void check_corrections(int corrections, std::string_view where) {
  if (corrections < 0 || corrections > kMaxCorrections) {
    throw std::invalid_argument(fmt::format("{}: corrections must be 0 to {}, not {}", where,
                                            kMaxCorrections, corrections));
  }
}

std::string describe_try(const TransportResult& result, const RetryDecision& decision) {
  std::string what = result.response ? fmt::format("HTTP {}", result.response->status)
                                     : fmt::format("{}: {}", to_string(result.error->failure),
                                                   result.error->message);
  if (decision.retry)
    return fmt::format("{}; retry in {} ms ({})", what, decision.wait.count(), decision.reason);
  // A failure says why it was not retried (quota, status, retries used up); a success needs no
  // note.
  if (const auto at = decision.reason.find(", not retried: "); at != std::string::npos)
    return what + decision.reason.substr(at);
  return what;
}

// What a streamed attempt that got no usage cost, by the usual quarter token per byte: the
// request as sent (input) and the output that arrived. Marked as an estimate.
Usage estimated_usage(const Attempt& attempt, std::size_t output_bytes) {
  const auto tokens = [](std::size_t bytes) { return static_cast<std::int64_t>((bytes + 3) / 4); };
  Usage usage{.input_tokens = tokens(attempt.request_body.size()),
              .output_tokens = tokens(output_bytes),
              .estimated = true};
  usage.total_tokens = usage.input_tokens + usage.output_tokens;
  return usage;
}

// Notes accumulate: a continuation joined, then what its correction will be.
void add_note(Attempt& attempt, const std::string& note) {
  if (note.empty()) return;
  attempt.note += (attempt.note.empty() ? "" : "; ") + note;
}

}  // namespace

namespace detail {
namespace {

// A streamed reply's Reply. A transport that does not stream (a custom one) still delivers the
// whole body, which is read here as if it had streamed.
Reply streamed_reply(StreamSession& stream, const Provider& provider,
                     const HttpResponse& response) {
  if (stream.untouched() && !response.body.empty()) {
    stream.begin();
    (void)stream.read(response.body);
  }
  return stream.reply(provider, response);
}

}  // namespace
}  // namespace detail

Contract::Contract(const Schema& schema, std::string name, const Provider& provider)
    : Contract(emit(schema), Validator(schema), std::move(name), provider) {}

Contract::Contract(const EmittedSchema& schema, Validator validator, std::string name,
                   const Provider& provider)
    : name_(std::move(name)),
      provider_(provider.name()),
      wire_(provider.lower(schema.json, schema.report)),
      wire_text_(detail::serialize(wire_.schema)),
      validator_(std::move(validator)),
      json_schema_(schema.json) {}

struct Client::Impl {
  ClientOptions options;
  std::unique_ptr<Provider> provider;
  std::shared_ptr<Transport> transport;
  std::string base_url;
  std::string api_key;
  std::string model;

  std::atomic<std::uint64_t> callback_exceptions{0};

  // Why no request may be sent (a hosted endpoint and no key), or empty.
  std::string unusable;

  mutable std::mutex contracts_mutex;
  // Keyed by the schema's node identity and the wire name; the Schema is kept so the key stays
  // valid.
  mutable std::map<std::pair<const SchemaNode*, std::string>,
                   std::pair<Schema, std::shared_ptr<const Contract>>>
      contracts;
};

Exchange Client::exchange(CallSpec call) const {
  return exchange(std::move(call), deadline_after(impl_->options.call_timeout));
}

Exchange Client::exchange(CallSpec call, Deadline deadline,
                          const detail::StreamSetup* stream) const {
  auto prepared = detail::ClientInternals::prepare(*this, std::move(call), stream);
  Delivery delivery =
      deliver(*impl_->transport, prepared.request, impl_->options.retry, {}, deadline);
  return detail::ClientInternals::finish(*this, std::move(prepared), std::move(delivery));
}

namespace detail {

PreparedExchange ClientInternals::prepare(const Client& client, CallSpec call,
                                          const StreamSetup* stream) {
  const auto& impl = *client.impl_;
  if (!impl.unusable.empty()) throw std::invalid_argument(impl.unusable);
  call.base_url = impl.base_url;
  call.api_key = impl.api_key;
  if (call.model.empty()) call.model = impl.model;
  call.max_tokens = call.output_cap > 0 ? call.output_cap : impl.options.max_tokens;
  PreparedExchange prepared{impl.provider->encode(call), {}, call.mode};
  if (stream != nullptr) {
    StreamSetup setup = *stream;
    setup.max_output_bytes = impl.options.transport.max_response_bytes;
    prepared.stream =
        std::make_shared<StreamSession>(impl.provider->name(), call.mode, std::move(setup),
                                        [impl = client.impl_](std::string text) {
                                          return redact_secret(std::move(text), impl->api_key);
                                        });
    ask_for_stream(prepared.request, impl.provider->name());
    prepared.request.body_reader = prepared.stream;
  }
  // The record only: a redacted key stays inside its JSON string, so the text is still JSON.
  prepared.attempt.request_body = client.redacted(prepared.request.body);
  return prepared;
}

Exchange ClientInternals::finish(const Client& client, PreparedExchange prepared,
                                 Delivery delivery) {
  Exchange exchange{std::move(prepared.attempt), {}};
  auto& attempt = exchange.attempt;
  auto& reply = exchange.reply;
  for (std::size_t i = 0; i < delivery.tries.size(); ++i) {
    attempt.transport_log.push_back(
        client.redacted(describe_try(delivery.tries[i], delivery.decisions[i])));
    attempt.elapsed += delivery.tries[i].elapsed;
  }
  const auto& last = delivery.last();
  if (prepared.stream) attempt.stream = prepared.stream->record();
  if (!last.response) {
    const std::string what =
        fmt::format("{}: {}", to_string(last.error->failure), last.error->message);
    reply = Reply{.status = ReplyStatus::bad_reply, .detail = client.redacted(what)};
    // A stream cut off mid-way was generated, and billed, up to there.
    if (attempt.stream.bytes > 0) {
      attempt.usage = estimated_usage(attempt, prepared.stream->output_bytes());
    }
    return exchange;
  }
  // Redacted once, whole, before anything reads or cuts it: a key straddling the 64 KiB record
  // cut or a 200-byte snippet cannot leave a piece behind, and nothing decoded from the body
  // (content, tool calls, the echo sent back) can carry the key.
  HttpResponse response = std::move(*delivery.tries.back().response);
  response.body = client.redacted(std::move(response.body));
  attempt.http_status = response.status;
  if (prepared.stream && is_success(response.status)) {
    reply = streamed_reply(*prepared.stream, *client.impl_->provider, response);
    // The events' framing is not kept: the body they make, redacted whole, is.
    attempt.raw_reply = prepared.stream->body().substr(0, kKeptReplyBytes);
    attempt.stream = prepared.stream->record();
    attempt.issues = prepared.stream->early_issues();
    // Providers send the usage last: a stream stopped early or cut off never got it.
    if (reply.usage == Usage{}) reply.usage = estimated_usage(attempt, reply.text.size());
  } else {
    attempt.raw_reply = response.body.substr(0, kKeptReplyBytes);
    reply = client.impl_->provider->decode(response, prepared.mode);
  }
  attempt.status = reply.status;
  attempt.content = reply.text;
  attempt.usage = reply.usage;
  return exchange;
}

const ClientOptions& ClientInternals::options(const Client& client) {
  return client.impl_->options;
}

Transport& ClientInternals::transport(const Client& client) {
  return *client.impl_->transport;
}

Client ClientInternals::share(const Client& client) {
  return Client(client.impl_);
}

void ClientInternals::callback_threw(const Client& client, std::exception_ptr thrown) noexcept {
  auto& impl = *client.impl_;
  ++impl.callback_exceptions;
  if (!impl.options.on_callback_exception) return;
  try {
    impl.options.on_callback_exception(std::move(thrown));
  } catch (...) {
    // The hook's own failure has nowhere else to go.
  }
}

std::vector<std::pair<std::size_t, std::size_t>> ClientInternals::key_spans(const Client& client,
                                                                            std::string_view text) {
  return secret_spans(text, client.impl_->api_key);
}

const std::string& ClientInternals::base_url(const Client& client) {
  return client.impl_->base_url;
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
    : client_(client),
      mode_(request.mode),
      stream_(request.stream.value_or(ClientInternals::options(client).stream)),
      on_partial_(request.on_partial) {
  const auto* schema = std::get_if<Schema>(&request.schema);
  contract_ = schema != nullptr ? client.contract(*schema, request.name)
                                : std::get<std::shared_ptr<const Contract>>(request.schema);
  if (!contract_) throw std::invalid_argument("ExtractRequest: the Contract is null");
  if (contract_->provider_name() != client.provider().name()) {
    throw std::invalid_argument(fmt::format("ExtractRequest: the Contract was made for {}, not {}",
                                            contract_->provider_name(), client.provider().name()));
  }
  const auto& options = ClientInternals::options(client);
  corrections_ = request.corrections.value_or(options.corrections);
  check_corrections(corrections_, "ExtractRequest");
  repair_ = repair_setup(*contract_, request.repair.value_or(options.repair));
  correction_ = request.correction.value_or(options.correction);
  budget_ = request.budget.value_or(options.budget);
  truncation_ = request.truncation.value_or(options.truncation);
  deadline_ = deadline_after(options.call_timeout);

  call_ = CallSpec{.output_name = contract_->name(),
                   .output = &contract_->wire(),
                   .output_text = &contract_->wire_text(),
                   .mode = request.mode};
  if (!request.system.empty())
    call_.turns.push_back(Turn{.role = Turn::Role::system, .text = request.system});
  call_.turns.push_back(Turn{.role = Turn::Role::user, .text = request.prompt});
  whole_turns_ = call_.turns;
  request_turns_ = call_.turns;
}

std::optional<Result<nlohmann::json>> ExtractionLoop::on_exchange(Exchange exchanged) {
  auto& [attempt, reply] = exchanged;
  attempt.role = role_;
  trace_.usage += attempt.usage;
  if (continuations_ > 0) redact_across_continuations(attempt);
  if (reply.status == ReplyStatus::truncated && attempt.http_status != 0) {
    if (cap_from_budget_) {
      trace_.attempts.push_back(std::move(attempt));
      return end_with(Error{
          ErrorKind::budget_exhausted,
          fmt::format("the token budget of {} cut the output short ({} spent)", budget_.max_tokens,
                      trace_.usage.input_tokens + trace_.usage.output_tokens),
          {}});
    }
    if (truncation_.enabled) return on_truncated(std::move(attempt), reply);
  }
  if (role_ == AttemptRole::raised_cap && reply.status == ReplyStatus::http_error &&
      (attempt.http_status == 400 || attempt.http_status == 422)) {
    return on_raised_cap_refused(std::move(attempt), reply);
  }
  if (auto error = reply_error(exchanged, mode_)) {
    if (!partial_.empty()) attempt.note = "the continuation failed; the output so far is lost";
    trace_.attempts.push_back(std::move(attempt));
    return end_with(*std::move(error));
  }
  if (!partial_.empty()) {
    // A continuation: the model went on from the text it was given back; together they are the
    // output, echoed whole if it needs correcting.
    attempt.note = fmt::format("continued the {} bytes before it; judged joined ({} bytes)",
                               partial_.size(), partial_.size() + reply.text.size());
    // Redacted joined: a key split between the pieces is whole only here.
    reply.text = client_.redacted(partial_ + reply.text);
    reply.assistant = Turn{.role = Turn::Role::assistant, .text = reply.text};
    partial_.clear();
    continuations_ = 0;
  }
  if (scoped_) return on_scoped_reply(std::move(attempt), reply.text);
  return on_whole_object(std::move(attempt), std::move(reply));
}

std::optional<Result<nlohmann::json>> ExtractionLoop::succeed(Attempt attempt,
                                                              nlohmann::json value) {
  trace_.attempts.push_back(std::move(attempt));
  redact(trace_, client_);
  return Result<nlohmann::json>(Extraction<nlohmann::json>{std::move(value), std::move(trace_)});
}

std::optional<Result<nlohmann::json>> ExtractionLoop::on_whole_object(Attempt attempt,
                                                                      Reply reply) {
  // The trace is redacted once, when the call ends; the model hears the issues as found.
  // A stream stopped at a part that broke a rule: that part's issues stand for the reply.
  const auto& lowering = contract_->wire().lowering;
  const auto& stopped_at = attempt.stream.stopped_at;
  auto judged = stopped_at ? Judged{nullptr, attempt.issues, false,
                                    value_read_until(reply.text, lowering, *stopped_at)}
                           : judge_text(reply.text, lowering, contract_->validator(), repair_);
  attempt.issues = judged.issues;
  attempt.repairs = judged.repairs;
  if (judged.issues.empty()) return succeed(std::move(attempt), std::move(judged.value));
  if (!take_correction()) {
    trace_.attempts.push_back(std::move(attempt));
    return end_with(invalid_after(trace_.attempts.size(), judged.issues, {}));
  }
  whole_turns_ = request_turns_;
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

std::optional<Result<nlohmann::json>> ExtractionLoop::on_scoped_reply(Attempt attempt,
                                                                      const std::string& text) {
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
      return succeed(std::move(attempt), std::move(value));
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
      request_turns_.clear();
      for (const auto& turn : whole_turns_) {
        // The caller's own turns: the source to extract from, without earlier corrections.
        if (turn.role == Turn::Role::system || turn.role == Turn::Role::user) {
          request_turns_.push_back(turn);
        }
        if (turn.role == Turn::Role::user) break;
      }
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

std::optional<Result<nlohmann::json>> ExtractionLoop::on_truncated(Attempt attempt,
                                                                   const Reply& reply) {
  std::string joined = partial_ + reply.text;
  // A prefill may not end in whitespace (Provider::continues_assistant_prefill); the model goes on
  // from the trimmed text, so the trimmed text is what the continuation joins.
  while (!joined.empty() && std::isspace(static_cast<unsigned char>(joined.back()))) {
    joined.pop_back();
  }
  const bool can_continue = client_.provider().continues_assistant_prefill() &&
                            mode_ == OutputMode::response_format && !joined.empty();
  if (can_continue && continuations_ < truncation_.max_continuations) {
    ++continuations_;
    partial_ = std::move(joined);
    attempt.note = fmt::format("truncated; continuing from the {} bytes so far", partial_.size());
    call_.turns = request_turns_;
    call_.turns.push_back(Turn{.role = Turn::Role::assistant, .text = partial_});
    return next_request(std::move(attempt), AttemptRole::continuation);
  }
  const auto& options = ClientInternals::options(client_);
  const int raised =
      truncation_.raised_max_tokens > 0 ? truncation_.raised_max_tokens : 4 * options.max_tokens;
  if (!can_continue && output_cap_ == 0 && raised > options.max_tokens) {
    output_cap_ = raised;
    truncated_at_ = reply.detail;
    attempt.note = fmt::format("truncated; sent again with max_tokens {} instead of {}", raised,
                               options.max_tokens);
    call_.turns = request_turns_;
    return next_request(std::move(attempt), AttemptRole::raised_cap);
  }
  const std::string how =
      can_continue
          ? fmt::format("after {} continuation{}", continuations_, continuations_ == 1 ? "" : "s")
      : output_cap_ > 0 ? fmt::format("with max_tokens raised to {}", output_cap_)
                        : std::string("with no recovery left");
  attempt.note = fmt::format("truncated {}; the partial output ({} bytes) is the content of {}",
                             how, joined.size(),
                             partial_.empty() ? "this attempt" : "the continued attempts joined");
  partial_.clear();
  trace_.attempts.push_back(std::move(attempt));
  return end_with(
      Error{ErrorKind::truncated,
            fmt::format("the output was cut off at the token limit ({}) {}", reply.detail, how),
            {}});
}

std::optional<Result<nlohmann::json>> ExtractionLoop::on_raised_cap_refused(Attempt attempt,
                                                                            const Reply& reply) {
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

void ExtractionLoop::redact_across_continuations(Attempt& current) {
  std::vector<Attempt*> chain;
  for (auto i = trace_.attempts.size() - static_cast<std::size_t>(continuations_);
       i < trace_.attempts.size(); ++i) {
    chain.push_back(&trace_.attempts[i]);
  }
  chain.push_back(&current);
  // Joined as the loop joins them: each piece but the last without its trailing whitespace.
  std::string joined;
  std::vector<std::size_t> ends;
  for (const Attempt* attempt : chain) {
    std::string_view piece = attempt->content;
    if (attempt != &current) piece = piece.substr(0, piece.find_last_not_of(" \t\r\n") + 1);
    joined += piece;
    ends.push_back(joined.size());
  }
  std::vector<std::string> shares;
  for (const auto& [start, end] : ClientInternals::key_spans(client_, joined)) {
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
}

std::optional<Result<nlohmann::json>> ExtractionLoop::next_request(Attempt attempt,
                                                                   AttemptRole role) {
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
    const auto next_bytes = ClientInternals::prepare(client_, call_).request.body.size();
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
    const int cap = output_cap_ > 0 ? output_cap_ : ClientInternals::options(client_).max_tokens;
    if (left < cap) {
      call_.output_cap = static_cast<int>(left);
      cap_from_budget_ = true;
    }
  }
  trace_.attempts.push_back(std::move(attempt));
  return std::nullopt;
}

Result<nlohmann::json> ExtractionLoop::end_with(Error error, Attempt unanswered) {
  trace_.attempts.push_back(std::move(unanswered));
  return end_with(std::move(error));
}

Result<nlohmann::json> ExtractionLoop::end_with(Error error) {
  error.trace = std::move(trace_);
  redact(error, client_);
  return error;
}

}  // namespace detail

Client::Client(ClientOptions options) : impl_(std::make_shared<Impl>()) {
  check_corrections(options.corrections, "ClientOptions");
  impl_->provider = make_provider(options.provider);
  if (!impl_->provider) {
    std::string known;
    for (const auto& name : provider_names()) known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument(
        fmt::format("unknown provider \"{}\" (known: {})", options.provider, known));
  }
  const auto& provider = *impl_->provider;
  impl_->base_url =
      !options.base_url.empty() ? options.base_url : from_env(provider.base_url_env());
  if (impl_->base_url.empty()) impl_->base_url = provider.default_base_url();
  while (!impl_->base_url.empty() && impl_->base_url.back() == '/') impl_->base_url.pop_back();
  impl_->api_key = !options.api_key.empty() ? options.api_key : from_env(provider.api_key_env());
  if (impl_->api_key.empty() && provider.needs_api_key() && !loopback_endpoint(impl_->base_url)) {
    // Sent without a key, the request would only come back 401 (or reach a server that should
    // not have been asked): stop before it, naming where the key was looked for.
    impl_->unusable = fmt::format(
        "no API key for {}: {} is empty or unset and ClientOptions::api_key is empty (only a "
        "loopback endpoint such as accord-mock may go without one)",
        impl_->base_url, provider.api_key_env());
  }
  impl_->model = !options.model.empty() ? options.model : std::string(provider.default_model());
  impl_->transport = options.custom_transport ? options.custom_transport
                                              : std::make_shared<CurlTransport>(options.transport);
  impl_->options = std::move(options);
}

Client::~Client() = default;
Client::Client(Client&&) noexcept = default;
Client& Client::operator=(Client&&) noexcept = default;

const Provider& Client::provider() const {
  return *impl_->provider;
}

std::optional<std::string> Client::unusable_reason() const {
  if (impl_->unusable.empty()) return std::nullopt;
  return impl_->unusable;
}

std::shared_ptr<const Contract> Client::contract(const Schema& schema,
                                                 const std::string& name) const {
  std::lock_guard lock(impl_->contracts_mutex);
  auto key = std::make_pair(&schema.node(), name);
  auto found = impl_->contracts.find(key);
  if (found != impl_->contracts.end()) return found->second.second;
  auto made = std::make_shared<const Contract>(schema, name, *impl_->provider);
  impl_->contracts.emplace(key, std::make_pair(schema, made));
  return made;
}

Result<nlohmann::json> Client::extract(const ExtractRequest& request) const {
  detail::ExtractionLoop loop(*this, request);
  for (;;) {
    const auto stream = loop.stream();
    if (auto result =
            loop.on_exchange(exchange(loop.call(), loop.deadline(), stream ? &*stream : nullptr))) {
      return *std::move(result);
    }
  }
}

std::uint64_t Client::callback_exceptions() const {
  return impl_->callback_exceptions.load();
}

std::string Client::redacted(std::string text) const {
  return detail::redact_secret(std::move(text), impl_->api_key);
}

Extraction<nlohmann::json> Client::extract_or_throw(const ExtractRequest& request) const {
  auto result = extract(request);
  if (!result.ok()) throw ExtractError(result.error());
  return Extraction<nlohmann::json>{result.value(), result.trace()};
}

}  // namespace accord
