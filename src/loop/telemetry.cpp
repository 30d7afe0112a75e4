#include "accord/telemetry.hpp"

#include <map>
#include <mutex>

namespace accord {
namespace {

// The GenAI conventions' finish reasons, as OpenAI spells them; none for a reply that never
// came.
std::vector<std::string> finish_reasons(ReplyStatus status) {
  switch (status) {
    case ReplyStatus::ok:
    case ReplyStatus::empty:
      return {"stop"};
    case ReplyStatus::truncated:
      return {"length"};
    case ReplyStatus::refusal:
      return {"refusal"};
    case ReplyStatus::content_filtered:
      return {"content_filter"};
    case ReplyStatus::tool_calls:
      return {"tool_calls"};
    case ReplyStatus::http_error:
    case ReplyStatus::bad_reply:
      return {};
  }
  return {};
}

// error.type for an attempt that got no usable reply: the HTTP status where there is one (as
// the HTTP conventions do), else what went wrong.
std::string attempt_error(const ReplyReceived& reply) {
  if (reply.status == ReplyStatus::http_error && reply.http_status != 0)
    return std::to_string(reply.http_status);
  return std::string(to_string(reply.status));
}

bool answered(ReplyStatus status) {
  return status == ReplyStatus::ok || status == ReplyStatus::tool_calls;
}

void set_usage(Span& span, const Usage& usage) {
  span.set_attribute("gen_ai.usage.input_tokens", usage.input_tokens);
  span.set_attribute("gen_ai.usage.output_tokens", usage.output_tokens);
  // The conventions' cache attributes, only when the provider reported cached input.
  if (usage.cache_read_input_tokens > 0)
    span.set_attribute("gen_ai.usage.cache_read.input_tokens", usage.cache_read_input_tokens);
  if (usage.cache_write_input_tokens > 0)
    span.set_attribute("gen_ai.usage.cache_creation.input_tokens", usage.cache_write_input_tokens);
}

Attributes common(const CallIdentity& call) {
  return {{"gen_ai.operation.name", std::string("chat")},
          {"gen_ai.provider.name", call.system},
          {"gen_ai.request.model", call.model},
          {"server.address", call.server},
          {"server.port", static_cast<std::int64_t>(call.port)}};
}

struct CallSpans {
  std::unique_ptr<Span> call;
  std::unique_ptr<Span> attempt;  // the request in flight, or the last one answered
};

// The spans of the calls in flight, by call id; hooks of several calls may run at once.
class SpanBook {
 public:
  explicit SpanBook(std::shared_ptr<Tracer> tracer) : tracer_(std::move(tracer)) {}

  void request_sent(const RequestSent& sent) {
    std::lock_guard lock(mutex_);
    auto& spans = calls_[sent.call.id];
    if (!spans.call) {
      auto attributes = common(sent.call);
      attributes.emplace_back("accord.schema", sent.call.schema);
      attributes.emplace_back("accord.provider", sent.call.provider);
      spans.call =
          tracer_->start_span("extract " + sent.call.schema, std::move(attributes), nullptr);
    }
    if (spans.attempt) spans.attempt->end();
    auto attributes = common(sent.call);
    attributes.emplace_back("gen_ai.request.max_tokens",
                            static_cast<std::int64_t>(sent.max_tokens));
    // The sampling attributes only when the request sets them: a provider's default is unknown.
    if (sent.temperature) attributes.emplace_back("gen_ai.request.temperature", *sent.temperature);
    if (sent.top_p) attributes.emplace_back("gen_ai.request.top_p", *sent.top_p);
    if (sent.seed) attributes.emplace_back("gen_ai.request.seed", *sent.seed);
    attributes.emplace_back("accord.attempt", static_cast<std::int64_t>(sent.attempt));
    attributes.emplace_back("accord.attempt.role", std::string(to_string(sent.role)));
    attributes.emplace_back("accord.stream", sent.streamed);
    spans.attempt =
        tracer_->start_span("chat " + sent.call.model, std::move(attributes), spans.call.get());
  }

  void retry_scheduled(const RetryScheduled& retry) {
    std::lock_guard lock(mutex_);
    if (auto* span = attempt_span(retry.call.id)) {
      span->add_event("accord.retry",
                      {{"accord.retry.next_try", static_cast<std::int64_t>(retry.next_try)},
                       {"http.response.status_code", static_cast<std::int64_t>(retry.http_status)},
                       {"accord.retry.wait_ms", static_cast<std::int64_t>(retry.wait.count())},
                       {"accord.retry.reason", retry.reason}});
    }
  }

  void reply_received(const ReplyReceived& reply) {
    std::lock_guard lock(mutex_);
    auto* span = attempt_span(reply.call.id);
    if (span == nullptr) return;
    set_usage(*span, reply.usage);
    if (reply.http_status != 0)
      span->set_attribute("http.response.status_code",
                          static_cast<std::int64_t>(reply.http_status));
    if (auto reasons = finish_reasons(reply.status); !reasons.empty())
      span->set_attribute("gen_ai.response.finish_reasons", std::move(reasons));
    span->set_attribute("accord.transport.tries", static_cast<std::int64_t>(reply.transport_tries));
    if (!answered(reply.status))
      span->set_error(attempt_error(reply), std::string(to_string(reply.status)));
  }

  void issues_found(const IssuesFound& found) {
    std::lock_guard lock(mutex_);
    auto* span = attempt_span(found.call.id);
    if (span == nullptr) return;
    span->set_attribute("accord.issues", static_cast<std::int64_t>(found.issues.size()));
    span->set_attribute("accord.repairs", static_cast<std::int64_t>(found.repairs.size()));
    span->set_error("invalid_output", found.issues.front().message);
  }

  void call_finished(const CallFinished& finished) {
    std::unique_lock lock(mutex_);
    const auto found = calls_.find(finished.call.id);
    if (found == calls_.end()) return;
    CallSpans spans = std::move(found->second);
    calls_.erase(found);
    lock.unlock();
    if (spans.attempt) spans.attempt->end();
    if (!spans.call) return;
    set_usage(*spans.call, finished.usage);
    spans.call->set_attribute("accord.attempts", static_cast<std::int64_t>(finished.attempts));
    if (finished.error) {
      const auto kind = std::string(to_string(*finished.error));
      spans.call->set_error(kind, kind);
    }
    spans.call->end();
  }

 private:
  Span* attempt_span(std::uint64_t id) {
    const auto found = calls_.find(id);
    return found != calls_.end() ? found->second.attempt.get() : nullptr;
  }

  std::shared_ptr<Tracer> tracer_;
  std::mutex mutex_;
  std::map<std::uint64_t, CallSpans> calls_;
};

// `first`, then `then` when it is set.
template <class Event>
std::function<void(const Event&)> both(std::function<void(const Event&)> first,
                                       std::function<void(const Event&)> then) {
  if (!then) return first;
  return [first = std::move(first), then = std::move(then)](const Event& event) {
    first(event);
    then(event);
  };
}

}  // namespace

Hooks genai_tracing(std::shared_ptr<Tracer> tracer, Hooks chained) {
  auto book = std::make_shared<SpanBook>(std::move(tracer));
  Hooks hooks;
  hooks.on_request_sent = both<RequestSent>(
      [book](const RequestSent& event) { book->request_sent(event); }, chained.on_request_sent);
  hooks.on_reply_received =
      both<ReplyReceived>([book](const ReplyReceived& event) { book->reply_received(event); },
                          chained.on_reply_received);
  hooks.on_issues_found = both<IssuesFound>(
      [book](const IssuesFound& event) { book->issues_found(event); }, chained.on_issues_found);
  hooks.on_correction_sent = chained.on_correction_sent;
  hooks.on_retry_scheduled =
      both<RetryScheduled>([book](const RetryScheduled& event) { book->retry_scheduled(event); },
                           chained.on_retry_scheduled);
  hooks.on_call_finished = both<CallFinished>(
      [book](const CallFinished& event) { book->call_finished(event); }, chained.on_call_finished);
  return hooks;
}

}  // namespace accord
