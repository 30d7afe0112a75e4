#include "accord/client.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#include "accord/json_schema.hpp"
#include "accord/json_text.hpp"
#include "accord/redaction.hpp"
#include "core/ascii.hpp"
#include "loop/client.hpp"
#include "loop/extraction_loop.hpp"
#include "loop/loop.hpp"
#include "providers/content_parts.hpp"
#include "providers/encoded_requests.hpp"
#include "providers/wire.hpp"
#include "transport/delivery_steps.hpp"
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

// Takes `key` and each of `secrets` (values of extra headers named like credentials) out of
// `text`: every text a client gives back that may echo them passes through here.
void redact_credentials(std::string& text, std::string_view key,
                        const std::vector<std::string>& secrets) {
  if (text.empty()) return;  // most notes and many fields of a record: nothing to look at
  detail::redact_in_place(text, key);
  for (const auto& secret : secrets) detail::redact_in_place(text, secret);
}

// The transport log's line for one try, without `key` and the call's header `secrets`.
std::string describe_try(const TransportResult& result, const RetryDecision& decision,
                         std::string_view key, const std::vector<std::string>& secrets) {
  const auto redacted = [&](std::string text) {
    redact_credentials(text, key, secrets);
    return text;
  };
  std::string what = result.response ? "HTTP " + std::to_string(result.response->status)
                                     : fmt::format("{}: {}", to_string(result.error->failure),
                                                   result.error->message);
  if (decision.retry) {
    return redacted(
        fmt::format("{}; retry in {} ms ({})", what, decision.wait.count(), decision.reason));
  }
  // A failure says why it was not retried (quota, status, retries used up); a success needs no
  // note.
  if (const auto at = decision.reason.find(", not retried: "); at != std::string::npos)
    return redacted(what + decision.reason.substr(at));
  // A status line alone ("HTTP n") quotes nothing from outside: no secret to look for in it.
  return result.response ? what : redacted(std::move(what));
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

// A streamed reply's Reply. A transport that does not stream (a custom one) still delivers the
// whole body, which is read here as if it had streamed.
Reply streamed_reply(detail::StreamSession& stream, const Provider& provider,
                     const HttpResponse& response) {
  if (stream.untouched() && !response.body.empty()) {
    stream.begin();
    (void)stream.read(response.body);
  }
  return stream.reply(provider, response);
}

// A fallback's client: the caller's options but for who it goes to, on the caller's transport.
std::shared_ptr<const std::vector<Client>> make_fallbacks(
    const ClientOptions& options, const std::vector<Fallback>& fallbacks,
    const std::shared_ptr<Transport>& transport) {
  auto made = std::make_shared<std::vector<Client>>();
  made->reserve(fallbacks.size());
  for (const auto& fallback : fallbacks) {
    ClientOptions own = options;
    own.provider = fallback.provider;
    own.model = fallback.model;
    own.base_url = fallback.base_url;
    own.api_key = fallback.api_key;
    own.fallbacks.clear();
    detail::drop_endpoint_extras(own.parameters);
    own.custom_transport = transport;
    made->emplace_back(std::move(own));
  }
  return made;
}

// Extra headers named like credentials (redacted_headers' rule): a server can echo them back.
std::vector<std::string> header_secrets(const Headers& extra) {
  std::vector<std::string> secrets;
  if (extra.empty()) return secrets;  // most calls: no copy of the headers to compare with
  const auto shown = redacted_headers(extra);
  for (std::size_t i = 0; i < extra.size(); ++i) {
    if (shown[i].second != extra[i].second) secrets.push_back(extra[i].second);
  }
  return secrets;
}

// What a client or a call without parameters of its own sends (compared with, not built per
// call).
const RequestParameters& no_parameters() {
  static const RequestParameters none;
  return none;
}

// Why the provider refuses the client's own parameters (one it does not take, an extra header
// over its credentials), found by encoding a one-turn request with them; empty when it takes
// them.
std::string refused_parameters(const Provider& provider, CallSpec probe,
                               const RequestParameters& parameters) {
  probe.turns.push_back(Turn{.role = Turn::Role::user, .text = "probe"});
  probe.parameters = parameters;
  try {
    (void)provider.encode(probe);
  } catch (const std::invalid_argument& e) {
    return fmt::format("ClientOptions::parameters: {}", e.what());
  }
  return {};
}

}  // namespace

Contract::Contract(const Schema& schema, std::string name, const Provider& provider)
    : Contract(emit(schema), Validator(schema), std::move(name), provider) {}

Contract::Contract(const EmittedSchema& schema, Validator validator, std::string name,
                   const Provider& provider)
    : name_(std::move(name)),
      provider_(provider.name()),
      wire_(provider.lower(schema.json, schema.report)),
      wire_text_(detail::serialize(wire_.schema)),
      validator_(std::move(validator)),
      json_schema_(schema.json),
      emitted_report_(schema.report) {}

Contract Contract::for_provider(const Provider& provider) const {
  return Contract(EmittedSchema{json_schema_, emitted_report_}, validator_, name_, provider);
}

struct Client::Impl {
  ClientOptions options;
  std::unique_ptr<Provider> provider;
  std::shared_ptr<Transport> transport;
  std::string base_url;
  std::string api_key;
  // The values of the client's own extra headers named like credentials: kept out of every text
  // the client gives back, as its key is.
  std::vector<std::string> header_secrets;
  std::string model;
  // Whether ClientOptions::parameters sets any: when it sets none, a call's parameters are sent
  // as the call set them (merged() would change nothing).
  bool sets_parameters = false;

  std::atomic<std::uint64_t> callback_exceptions{0};
  std::atomic<std::uint64_t> hook_exceptions{0};

  // Requests encoded once per shape: a call then writes only its turns' texts.
  detail::EncodedRequests encoded;

  // Why no request may be sent (a hosted endpoint and no key), or empty.
  std::string unusable;
  std::shared_ptr<const std::vector<Client>> fallbacks;  // ClientOptions::fallbacks, made

  mutable std::mutex contracts_mutex;
  // Keyed by the schema's node identity and the wire name; the Schema is kept so the key stays
  // valid.
  mutable std::map<std::pair<const SchemaNode*, std::string>,
                   std::pair<Schema, std::shared_ptr<const Contract>>>
      contracts;
  // Contracts given to calls, lowered for a fallback's provider (Internals::contract_for): keyed
  // by the given one's address and the provider's name; the weak pointer tells whether the
  // address is still that Contract's.
  mutable std::mutex lowered_mutex;
  mutable std::map<std::pair<const Contract*, std::string>,
                   std::pair<std::weak_ptr<const Contract>, std::shared_ptr<const Contract>>>
      lowered;
};

Exchange Client::exchange(CallSpec call) const {
  return Internals::send(*this, Internals::prepare(*this, std::move(call)),
                         Internals::call_deadline(*this));
}

Exchange Client::Internals::send(const Client& client, detail::PreparedExchange&& prepared,
                                 Deadline deadline, const RetryObserver& on_retry) {
  // The request is sent and not kept (the attempt's record holds its body, redacted): moved in.
  Delivery delivery = deliver_all(
      *client.impl_->transport,
      DeliverySteps(std::move(prepared.request), client.impl_->options.retry, deadline, on_retry),
      {});
  return finish(client, std::move(prepared), std::move(delivery));
}

Deadline Client::Internals::call_deadline(const Client& client) {
  return deadline_after(client.impl_->options.call_timeout);
}

void Client::Internals::check_corrections(int corrections, std::string_view where) {
  if (corrections < 0 || corrections > kMaxCorrections) {
    throw std::invalid_argument(fmt::format("{}: corrections must be 0 to {}, not {}", where,
                                            kMaxCorrections, corrections));
  }
}

detail::PreparedExchange Client::Internals::prepare(const Client& client, CallSpec call,
                                                    const detail::StreamSetup* stream) {
  return prepare_sent(client, call, stream);
}

detail::PreparedExchange Client::Internals::prepare_sent(
    const Client& client, CallSpec& call, const detail::StreamSetup* stream,
    std::optional<RequestParameters>* own_parameters) {
  const auto& impl = *client.impl_;
  if (!impl.unusable.empty()) throw std::invalid_argument(impl.unusable);
  call.base_url = impl.base_url;
  call.api_key = impl.api_key;
  if (call.model.empty()) call.model = impl.model;
  call.mode = output_mode(client, call.mode, call.model).mode;
  call.max_tokens = call.output_cap > 0 ? call.output_cap : impl.options.max_tokens;
  // A call that sets no parameters of its own sends the client's as they are: merged() would
  // build a copy of them and change nothing. A client with none leaves them as they are. Those
  // replaced are kept in `own_parameters` before anything can throw.
  if (const bool call_sets = sets_parameters(call.parameters); call_sets || impl.sets_parameters) {
    std::optional<RequestParameters> replaced;
    auto& own = own_parameters != nullptr ? *own_parameters : replaced;
    own.emplace(std::move(call.parameters));
    call.parameters = call_sets ? merged(impl.options.parameters, *own) : impl.options.parameters;
  }
  detail::PreparedExchange prepared{impl.encoded.encode(*impl.provider, call), {}, call.mode};
  prepared.attempt.provider = impl.provider->name();
  prepared.attempt.model = call.model;
  // The client's own, then the call's (its extra headers over the client's) not among them, in
  // the order Client::redacted and the call's list were searched before: a body is searched once
  // for each secret, not once per list holding it.
  prepared.header_secrets = impl.header_secrets;
  for (auto& sent : header_secrets(call.parameters.extra_headers)) {
    if (std::find(prepared.header_secrets.begin(), prepared.header_secrets.end(), sent) ==
        prepared.header_secrets.end())
      prepared.header_secrets.push_back(std::move(sent));
  }
  if (stream != nullptr) {
    detail::StreamSetup setup = *stream;
    setup.max_output_bytes = impl.options.transport.max_response_bytes;
    prepared.stream = std::make_shared<detail::StreamSession>(
        impl.provider->name(), call.mode, std::move(setup),
        [impl = client.impl_, secrets = prepared.header_secrets](std::string text) {
          redact_credentials(text, impl->api_key, secrets);
          return text;
        });
    detail::ask_for_stream(prepared.request, impl.provider->name());
    prepared.request.body_reader = prepared.stream;
  }
  // The record only: a redacted key stays inside its JSON string, so the text is still JSON; an
  // image's or document's bytes are kept as their size and digest, not copied.
  prepared.attempt.request_body =
      client.redacted(detail::without_part_bytes(prepared.request.body, call.turns));
  return prepared;
}

Exchange Client::Internals::finish(const Client& client, detail::PreparedExchange&& prepared,
                                   Delivery&& delivery) {
  Exchange exchange{std::move(prepared.attempt), {}};
  auto& attempt = exchange.attempt;
  auto& reply = exchange.reply;
  // A transport's error may quote the request's headers: the call's own secrets are taken out as
  // the client's are.
  const std::string_view key = client.impl_->api_key;
  for (std::size_t i = 0; i < delivery.tries.size(); ++i) {
    attempt.transport_log.push_back(
        describe_try(delivery.tries[i], delivery.decisions[i], key, prepared.header_secrets));
    attempt.elapsed += delivery.tries[i].elapsed;
  }
  const auto& last = delivery.last();
  if (prepared.stream) attempt.stream = prepared.stream->record();
  if (!last.response) {
    std::string what = fmt::format("{}: {}", to_string(last.error->failure), last.error->message);
    redact_credentials(what, key, prepared.header_secrets);
    reply = Reply{.status = ReplyStatus::bad_reply, .detail = std::move(what)};
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
  redact_credentials(response.body, key, prepared.header_secrets);
  attempt.http_status = response.status;
  if (prepared.stream && detail::is_success(response.status)) {
    reply = streamed_reply(*prepared.stream, *client.impl_->provider, response);
    // The events' framing is not kept: the body they make, redacted whole, is.
    attempt.raw_reply = prepared.stream->body().substr(0, kKeptReplyBytes);
    attempt.stream = prepared.stream->record();
    attempt.issues = prepared.stream->early_issues();
    // Providers send the usage last: a stream stopped early or cut off never got it.
    if (reply.usage == Usage{}) reply.usage = estimated_usage(attempt, reply.text.size());
  } else {
    reply = client.impl_->provider->decode(response, prepared.mode);
    // Decoded: the body itself is the record when it fits, not a copy of it. A longer one is cut
    // by a copy, since a shortened string keeps its whole buffer (up to twice the body).
    attempt.raw_reply = response.body.size() > kKeptReplyBytes
                            ? response.body.substr(0, kKeptReplyBytes)
                            : std::move(response.body);
  }
  attempt.status = reply.status;
  attempt.content = reply.text;
  attempt.usage = reply.usage;
  return exchange;
}

const ClientOptions& Client::Internals::options(const Client& client) {
  return client.impl_->options;
}

bool Client::Internals::sets_parameters(const RequestParameters& parameters) {
  return !(parameters == no_parameters());
}

Transport& Client::Internals::transport(const Client& client) {
  return *client.impl_->transport;
}

Client Client::Internals::share(const Client& client) {
  return Client(client.impl_);
}

void Client::Internals::callback_threw(const Client& client, std::exception_ptr thrown) noexcept {
  auto& impl = *client.impl_;
  ++impl.callback_exceptions;
  if (!impl.options.on_callback_exception) return;
  try {
    impl.options.on_callback_exception(std::move(thrown));
  } catch (...) {
    // The hook's own failure has nowhere else to go.
  }
}

void Client::Internals::hook_threw(const Client& client) noexcept {
  ++client.impl_->hook_exceptions;
}

const std::string& Client::Internals::model(const Client& client) {
  return client.impl_->model;
}

ModelOutputMode Client::Internals::output_mode(const Client& client, OutputMode asked,
                                               std::string_view model) {
  if (asked != OutputMode::per_model) return {asked, {}};
  if (const OutputMode set = client.impl_->options.mode; set != OutputMode::per_model) {
    return {set, {}};
  }
  return client.impl_->provider->output_mode_for(model);
}

detail::Spans Client::Internals::key_spans(const Client& client, std::string_view text) {
  return detail::secret_spans(text, client.impl_->api_key);
}

std::shared_ptr<const std::vector<Client>> Client::Internals::fallbacks(
    const Client& client, const std::optional<std::vector<Fallback>>& per_call) {
  if (!per_call) return client.impl_->fallbacks;
  return make_fallbacks(client.impl_->options, *per_call, client.impl_->transport);
}

const std::string& Client::Internals::base_url(const Client& client) {
  return client.impl_->base_url;
}

std::shared_ptr<const Contract> Client::Internals::contract_for(
    const Client& client, const std::shared_ptr<const Contract>& given, const Provider& provider) {
  auto& impl = *client.impl_;
  // Lowered under the lock: calls in flight with the same Contract wait for one lowering.
  std::lock_guard lock(impl.lowered_mutex);
  std::erase_if(impl.lowered, [](const auto& entry) { return entry.second.first.expired(); });
  auto& [kept, made] = impl.lowered[{given.get(), std::string(provider.name())}];
  if (!made) {
    made = std::make_shared<const Contract>(given->for_provider(provider));
    kept = given;
  }
  return made;
}

Client::Client(ClientOptions options) : impl_(std::make_shared<Impl>()) {
  Internals::check_corrections(options.corrections, "ClientOptions");
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
  impl_->api_key = !options.api_key.empty() ? options.api_key : provider.api_key_from_environment();
  const auto fallback = provider.api_key_fallback_env();
  if (impl_->api_key.empty() && provider.needs_api_key() && !loopback_endpoint(impl_->base_url)) {
    // Sent without a key, the request would only come back 401 (or reach a server that should
    // not have been asked): stop before it, naming where the key was looked for.
    impl_->unusable = fmt::format(
        "no API key for {}: {} is empty or unset{} and ClientOptions::api_key is empty (only a "
        "loopback endpoint such as accord-mock may go without one)",
        impl_->base_url, provider.api_key_env(),
        fallback.empty() ? "" : fmt::format(" (as is {})", fallback));
  }
  impl_->model = !options.model.empty() ? options.model : std::string(provider.default_model());
  if (impl_->unusable.empty()) {
    impl_->unusable = refused_parameters(provider,
                                         {.base_url = impl_->base_url,
                                          .api_key = impl_->api_key,
                                          .model = impl_->model,
                                          .max_tokens = options.max_tokens},
                                         options.parameters);
  }
  impl_->transport = options.custom_transport ? options.custom_transport
                                              : std::make_shared<CurlTransport>(options.transport);
  impl_->fallbacks = make_fallbacks(options, options.fallbacks, impl_->transport);
  impl_->header_secrets = header_secrets(options.parameters.extra_headers);
  impl_->sets_parameters = Internals::sets_parameters(options.parameters);
  impl_->options = std::move(options);
}

Client::~Client() = default;
Client::Client(Client&&) noexcept = default;
Client& Client::operator=(Client&&) noexcept = default;

const Provider& Client::provider() const {
  return *impl_->provider;
}

std::optional<std::string> Client::unusable_reason() const {
  if (!impl_->unusable.empty()) return impl_->unusable;
  for (const auto& fallback : *impl_->fallbacks) {
    if (auto why = fallback.unusable_reason())
      return fmt::format("fallback {}: {}", fallback.provider().name(), *why);
  }
  return std::nullopt;
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

namespace {

detail::Outcome run_extraction(const Client& client, const ExtractRequest& request) {
  detail::ExtractionLoop loop(client, request);
  for (;;) {
    auto prepared = loop.prepare();
    loop.sending();
    if (auto result = loop.on_exchange(Client::Internals::send(loop.client(), std::move(prepared),
                                                               loop.deadline(), loop.retries()))) {
      return *std::move(result);
    }
  }
}

}  // namespace

Result<nlohmann::json> Client::extract(const ExtractRequest& request) const {
  return run_extraction(*this, request).with_tree();
}

Result<JudgedValue> Client::extract_judged(const ExtractRequest& request) const {
  return run_extraction(*this, request).as_judged();
}

std::uint64_t Client::callback_exceptions() const {
  return impl_->callback_exceptions.load();
}

std::uint64_t Client::hook_exceptions() const {
  return impl_->hook_exceptions.load();
}

std::string Client::redacted(std::string text) const {
  redact_credentials(text, impl_->api_key, impl_->header_secrets);
  return text;
}

Extraction<nlohmann::json> Client::extract_or_throw(const ExtractRequest& request) const {
  auto result = extract(request);
  if (!result.ok()) throw ExtractError(result.error());
  return Extraction<nlohmann::json>{result.value(), result.trace()};
}

}  // namespace accord
