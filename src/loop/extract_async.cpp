// Client::extract_async: the extraction loop driven by Transport::post_async callbacks instead of
// a blocked thread. Each step (a transport try, its retry wait, a corrective turn) is one
// callback; the loop's rules are ExtractionLoop's and DeliverySteps', shared with extract().

#include <memory>
#include <optional>

#include "accord/client.hpp"
#include "loop/client.hpp"
#include "loop/extraction_loop.hpp"
#include "transport/delivery_steps.hpp"

namespace accord {
namespace {

class AsyncExtraction : public std::enable_shared_from_this<AsyncExtraction> {
 public:
  using Done = std::function<void(detail::Outcome)>;

  AsyncExtraction(const Client& client, const ExtractRequest& request, Done done)
      : client_(Client::Internals::share(client)),
        loop_(client_, request),
        done_(std::move(done)),
        cancelled_(std::make_shared<std::atomic<bool>>(false)) {}

  [[nodiscard]] CallHandle handle() const { return CallHandle(cancelled_); }

  void send_attempt() {
    prepared_ = loop_.prepare();
    loop_.sending();
    steps_.emplace(std::move(prepared_->request), Client::Internals::options(client_).retry,
                   loop_.deadline(), loop_.retries());
    send_try(std::chrono::milliseconds{0});
  }

 private:
  void send_try(std::chrono::milliseconds wait) {
    auto request = steps_->next_try(wait);
    if (!request) return end_attempt();  // the deadline leaves no room: recorded as a timeout
    Client::Internals::transport(client_).post_async(
        AsyncPost{.request = *std::move(request),
                  .delay = wait,
                  .cancelled = cancelled_,
                  .done = [self = shared_from_this()](TransportResult result) {
                    self->on_try(std::move(result));
                  }});
  }

  // On the transport's thread, where an exception would end the process and every call in
  // flight: what the call's next step throws (a custom transport's post_async, a request refused
  // before sending) ends this call instead, delivered to `done` with the attempts so far. The
  // caller of extract_async has returned by then, so there is no one to throw to.
  void on_try(TransportResult result) {
    try {
      const RetryDecision& decision = steps_->record(std::move(result));
      if (decision.retry && !cancelled_->load()) return send_try(decision.wait);
      end_attempt();
    } catch (const std::exception& e) {
      deliver(loop_.end_with(
          Error{ErrorKind::transport, std::string("the call could not go on: ") + e.what(), {}}));
    } catch (...) {
      deliver(loop_.end_with(
          Error{ErrorKind::transport, "the call could not go on: an unknown exception", {}}));
    }
  }

  void end_attempt() {
    auto exchanged =
        Client::Internals::finish(loop_.client(), *std::move(prepared_), steps_->take());
    auto result = loop_.on_exchange(std::move(exchanged));
    if (!result && cancelled_->load()) {
      // Cancelled between attempts: no corrective turn is sent.
      return deliver(
          loop_.end_with(Error{ErrorKind::cancelled, "cancelled before the corrective turn", {}}));
    }
    if (!result) return send_attempt();
    if (Error* error = result->error(); error != nullptr && cancelled_->load()) {
      error->kind = ErrorKind::cancelled;
      error->message = "cancelled: " + error->message;
    }
    deliver(*std::move(result));
  }

  // A callback that throws on the transport's thread would end the process and every call in
  // flight with it: the exception goes to the client's hook instead.
  void deliver(detail::Outcome result) {
    try {
      done_(std::move(result));
    } catch (...) {
      Client::Internals::callback_threw(client_, std::current_exception());
    }
  }

  Client client_;  // shares the caller's client, which may be gone before this call ends
  detail::ExtractionLoop loop_;
  Done done_;
  std::shared_ptr<std::atomic<bool>> cancelled_;
  std::optional<detail::PreparedExchange> prepared_;
  std::optional<DeliverySteps> steps_;
};

}  // namespace

namespace {

CallHandle start_extraction(const Client& client, const ExtractRequest& request,
                            AsyncExtraction::Done done) {
  auto call = std::make_shared<AsyncExtraction>(client, request, std::move(done));
  call->send_attempt();
  return call->handle();
}

}  // namespace

CallHandle Client::extract_async(const ExtractRequest& request,
                                 std::function<void(Result<nlohmann::json>)> done) const {
  return start_extraction(*this, request, [done = std::move(done)](detail::Outcome outcome) {
    done(std::move(outcome).with_tree());
  });
}

CallHandle Client::extract_judged_async(const ExtractRequest& request,
                                        std::function<void(Result<JudgedValue>)> done) const {
  return start_extraction(*this, request, [done = std::move(done)](detail::Outcome outcome) {
    done(std::move(outcome).as_judged());
  });
}

std::future<Result<nlohmann::json>> Client::extract_async(const ExtractRequest& request) const {
  return as_future<Result<nlohmann::json>>(
      [&](auto done) { return extract_async(request, std::move(done)); });
}

}  // namespace accord
