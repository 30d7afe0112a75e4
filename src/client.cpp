#include "accord/client.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "accord/json_schema.hpp"
#include "accord/json_text.hpp"
#include "loop.hpp"
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

Exchange Client::exchange(CallSpec call, Deadline deadline) const {
  const auto& impl = *impl_;
  call.base_url = impl.base_url;
  call.api_key = impl.api_key;
  if (call.model.empty()) call.model = impl.model;
  call.max_tokens = impl.options.max_tokens;
  Exchange exchange;
  auto& attempt = exchange.attempt;
  auto& reply = exchange.reply;
  const auto& provider = impl.provider;
  const HttpRequest request = provider->encode(call);
  // The record only: a redacted key stays inside its JSON string, so the text is still JSON.
  attempt.request_body = nlohmann::json::parse(redacted(request.body), nullptr, false);
  Delivery delivery = deliver(*impl.transport, request, impl.options.retry, {}, deadline);
  for (std::size_t i = 0; i < delivery.tries.size(); ++i) {
    attempt.transport_log.push_back(
        redacted(describe_try(delivery.tries[i], delivery.decisions[i])));
    attempt.elapsed += delivery.tries[i].elapsed;
  }
  const auto& last = delivery.last();
  if (!last.response) {
    const std::string what =
        fmt::format("{}: {}", to_string(last.error->failure), last.error->message);
    reply = Reply{.status = ReplyStatus::bad_reply, .detail = redacted(what)};
    return exchange;
  }
  // Redacted once, whole, before anything reads or cuts it: a key straddling the 64 KiB record
  // cut or a 200-byte snippet cannot leave a piece behind, and nothing decoded from the body
  // (content, tool calls, the echo sent back) can carry the key.
  HttpResponse response = std::move(*delivery.tries.back().response);
  response.body = redacted(std::move(response.body));
  attempt.http_status = response.status;
  attempt.raw_reply = response.body.substr(0, kKeptReplyBytes);
  reply = provider->decode(response, call.mode);
  attempt.status = reply.status;
  attempt.content = reply.text;
  attempt.usage = reply.usage;
  return exchange;
}

Client::Client(ClientOptions options) : impl_(std::make_unique<Impl>()) {
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
  const auto* schema = std::get_if<Schema>(&request.schema);
  const auto contract = schema != nullptr
                            ? this->contract(*schema, request.name)
                            : std::get<std::shared_ptr<const Contract>>(request.schema);
  if (!contract) throw std::invalid_argument("ExtractRequest: the Contract is null");
  if (contract->provider_name() != impl_->provider->name()) {
    throw std::invalid_argument(fmt::format("ExtractRequest: the Contract was made for {}, not {}",
                                            contract->provider_name(), impl_->provider->name()));
  }
  const int corrections = request.corrections.value_or(impl_->options.corrections);
  check_corrections(corrections, "ExtractRequest");
  const Deadline deadline = deadline_after(impl_->options.call_timeout);

  CallSpec call{.output_name = contract->name(), .output = &contract->wire(), .mode = request.mode};
  if (!request.system.empty())
    call.turns.push_back(Turn{.role = Turn::Role::system, .text = request.system});
  call.turns.push_back(Turn{.role = Turn::Role::user, .text = request.prompt});

  Trace trace;
  for (int attempt_no = 0;; ++attempt_no) {
    auto exchanged = exchange(call, deadline);
    auto& [attempt, reply] = exchanged;
    trace.usage += attempt.usage;
    if (auto error = detail::reply_error(exchanged, request.mode)) {
      trace.attempts.push_back(std::move(attempt));
      error->trace = std::move(trace);
      detail::redact(*error, *this);
      return *std::move(error);
    }
    // The trace is redacted once, when the call ends; the model hears the issues as found.
    auto judged = detail::judge_text(reply.text, contract->wire().lowering, contract->validator());
    attempt.issues = judged.issues;
    trace.attempts.push_back(std::move(attempt));
    if (judged.issues.empty()) {
      detail::redact(trace, *this);
      return Extraction<nlohmann::json>{std::move(judged.value), std::move(trace)};
    }
    if (attempt_no >= corrections) {
      const std::size_t attempts = trace.attempts.size();  // read before the trace moves
      auto error = detail::invalid_after(attempts, judged.issues, std::move(trace));
      detail::redact(error, *this);
      return error;
    }
    detail::append_correction(call.turns, reply, judged.issues, request.mode, contract->name());
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
