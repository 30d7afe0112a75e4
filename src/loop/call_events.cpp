#include "loop/call_events.hpp"

#include <atomic>

#include "loop/client.hpp"
#include "loop/loop.hpp"
#include "transport/url_origin.hpp"

namespace accord::detail {
namespace {

std::atomic<std::uint64_t> next_call_id{1};

// A hook runs inside the loop; what it throws is the hook's failure, not the call's.
template <class Event>
void fire(const Client& client, const std::function<void(const Event&)>& hook, const Event& event) {
  if (!hook) return;
  try {
    hook(event);
  } catch (...) {
    Client::Internals::hook_threw(client);
  }
}

// "https://api.openai.com:443" -> host and port.
void set_server(CallIdentity& identity, const std::string& origin) {
  const auto scheme_end = origin.find("://");
  const auto port_at = origin.rfind(':');
  if (scheme_end == std::string::npos || port_at <= scheme_end + 3) return;
  identity.server = origin.substr(scheme_end + 3, port_at - scheme_end - 3);
  identity.port = std::atoi(origin.c_str() + port_at + 1);
}

}  // namespace

CallEvents::CallEvents(const Client& client, std::string schema_name)
    : client_(&client),
      current_(&client),
      hooks_(&Client::Internals::options(client).hooks),
      started_(std::chrono::steady_clock::now()) {
  identity_.id = next_call_id.fetch_add(1);
  identity_.schema = std::move(schema_name);
  switch_to(client);
}

void CallEvents::switch_to(const Client& client) {
  current_ = &client;
  // Only hooks read the identity; with none set, a call skips parsing its endpoint for it.
  const Hooks& hooks = *hooks_;
  if (!hooks.on_request_sent && !hooks.on_reply_received && !hooks.on_issues_found &&
      !hooks.on_correction_sent && !hooks.on_retry_scheduled && !hooks.on_call_finished) {
    return;
  }
  identity_.provider = std::string(client.provider().name());
  identity_.system = std::string(client.provider().telemetry_name());
  identity_.model = Client::Internals::model(client);
  identity_.server.clear();
  identity_.port = 0;
  set_server(identity_, origin_of(Client::Internals::base_url(client)));
}

RequestSent CallEvents::request(std::size_t attempt, AttemptRole role, const CallSpec& call,
                                bool streamed) const {
  const int cap =
      call.output_cap > 0 ? call.output_cap : Client::Internals::options(*client_).max_tokens;
  RequestSent sent{identity_, attempt, role, cap, streamed};
  // As the request carries them: the call's over the client's.
  const auto parameters = merged(Client::Internals::options(*current_).parameters, call.parameters);
  sent.temperature = parameters.temperature;
  sent.top_p = parameters.top_p;
  sent.seed = parameters.seed;
  return sent;
}

void CallEvents::request_sent(std::size_t attempt, AttemptRole role, const CallSpec& call,
                              bool streamed) {
  if (hooks_->on_request_sent)
    fire(*client_, hooks_->on_request_sent, request(attempt, role, call, streamed));
}

void CallEvents::correction_sent(std::size_t attempt, AttemptRole role, const CallSpec& call) {
  if (hooks_->on_correction_sent)
    fire(*client_, hooks_->on_correction_sent, request(attempt, role, call, false));
}

void CallEvents::reply_received(std::size_t attempt, const Attempt& answered) {
  if (!hooks_->on_reply_received) return;
  fire(*client_, hooks_->on_reply_received,
       ReplyReceived{identity_, attempt, answered.role, answered.http_status, answered.status,
                     answered.usage, answered.elapsed, answered.transport_log.size()});
}

void CallEvents::issues_found(std::size_t attempt, const Issues& issues, const Repairs& repairs) {
  if (!hooks_->on_issues_found || issues.empty()) return;
  IssuesFound event{identity_, attempt, issues, repairs};
  redact(event.issues, *current_);
  redact(event.repairs, *current_);
  fire(*client_, hooks_->on_issues_found, event);
}

void CallEvents::finished(const Trace& trace, const Error* error) {
  if (!hooks_->on_call_finished) return;
  CallFinished event{identity_, std::nullopt, trace.attempts.size(), trace.usage,
                     std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - started_)};
  if (error != nullptr) event.error = error->kind;
  fire(*client_, hooks_->on_call_finished, event);
}

RetryObserver CallEvents::retries(std::size_t attempt) const {
  if (!hooks_->on_retry_scheduled) return {};
  return [client = client_, current = current_, hooks = hooks_, identity = identity_, attempt](
             const TransportResult& failed, const RetryDecision& decision, std::size_t next_try) {
    const long status = failed.response ? failed.response->status : 0;
    fire(*client, hooks->on_retry_scheduled,
         RetryScheduled{identity, attempt, next_try, status, decision.wait,
                        current->redacted(decision.reason)});
  };
}

}  // namespace accord::detail
