#include "accord/client.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "accord/json_schema.hpp"
#include "accord/json_text.hpp"
#include "extraction_loop.hpp"
#include "loop.hpp"
#include "providers/wire.hpp"
#include "redaction.hpp"

namespace accord {
namespace {

constexpr std::size_t kKeptReplyBytes = 64 * 1024;

std::string from_env(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  return value ? value : "";
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
      validator_(std::move(validator)) {}

struct Client::Impl {
  ClientOptions options;
  std::unique_ptr<Provider> provider;
  std::shared_ptr<Transport> transport;
  std::string base_url;
  std::string api_key;
  std::string model;

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
  call.base_url = impl.base_url;
  call.api_key = impl.api_key;
  if (call.model.empty()) call.model = impl.model;
  call.max_tokens = impl.options.max_tokens;
  PreparedExchange prepared{impl.provider->encode(call), {}, call.mode};
  if (stream != nullptr) {
    prepared.stream = std::make_shared<StreamSession>(
        impl.provider->name(), call.mode, *stream, [impl = client.impl_](std::string text) {
          return redact_secret(std::move(text), impl->api_key);
        });
    ask_for_stream(prepared.request, impl.provider->name());
    prepared.request.body_reader = prepared.stream;
  }
  // The record only: a redacted key stays inside its JSON string, so the text is still JSON.
  prepared.attempt.request_body =
      nlohmann::json::parse(client.redacted(prepared.request.body), nullptr, false);
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
    return exchange;
  }
  // Redacted once, whole, before anything reads or cuts it: a key straddling the 64 KiB record
  // cut or a 200-byte snippet cannot leave a piece behind, and nothing decoded from the body
  // (content, tool calls, the echo sent back) can carry the key.
  HttpResponse response = std::move(*delivery.tries.back().response);
  response.body = client.redacted(std::move(response.body));
  attempt.http_status = response.status;
  attempt.raw_reply = response.body.substr(0, kKeptReplyBytes);
  if (prepared.stream && is_success(response.status)) {
    reply = streamed_reply(*prepared.stream, *client.impl_->provider, response);
    attempt.stream = prepared.stream->record();
    attempt.issues = prepared.stream->early_issues();
  } else {
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

const std::string& ClientInternals::base_url(const Client& client) {
  return client.impl_->base_url;
}

std::optional<StreamSetup> ExtractionLoop::stream() const {
  if (!stream_.enabled) return std::nullopt;
  return StreamSetup{stream_, on_partial_, contract_, trace_.attempts.size() + 1};
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
  deadline_ = deadline_after(options.call_timeout);

  call_ = CallSpec{
      .output_name = contract_->name(), .output = &contract_->wire(), .mode = request.mode};
  if (!request.system.empty())
    call_.turns.push_back(Turn{.role = Turn::Role::system, .text = request.system});
  call_.turns.push_back(Turn{.role = Turn::Role::user, .text = request.prompt});
}

std::optional<Result<nlohmann::json>> ExtractionLoop::on_exchange(Exchange exchanged) {
  auto& [attempt, reply] = exchanged;
  trace_.usage += attempt.usage;
  if (auto error = reply_error(exchanged, mode_)) {
    trace_.attempts.push_back(std::move(attempt));
    return end_with(*std::move(error));
  }
  // The trace is redacted once, when the call ends; the model hears the issues as found.
  // A stream stopped at a part that broke a rule: that part's issues stand for the reply.
  auto judged = attempt.stream.stopped_at
                    ? Judged{nullptr, attempt.issues}
                    : judge_text(reply.text, contract_->wire().lowering, contract_->validator());
  attempt.issues = judged.issues;
  trace_.attempts.push_back(std::move(attempt));
  if (judged.issues.empty()) {
    redact(trace_, client_);
    return Result<nlohmann::json>(
        Extraction<nlohmann::json>{std::move(judged.value), std::move(trace_)});
  }
  if (corrections_sent_ == corrections_) {
    return end_with(invalid_after(trace_.attempts.size(), judged.issues, {}));
  }
  ++corrections_sent_;
  append_correction(call_.turns, reply, judged.issues, mode_, contract_->name());
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

std::string Client::redacted(std::string text) const {
  return detail::redact_secret(std::move(text), impl_->api_key);
}

Extraction<nlohmann::json> Client::extract_or_throw(const ExtractRequest& request) const {
  auto result = extract(request);
  if (!result.ok()) throw ExtractError(result.error());
  return Extraction<nlohmann::json>{result.value(), result.trace()};
}

}  // namespace accord
