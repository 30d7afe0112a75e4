#pragma once
// The extraction loop as steps, so the blocking Client::extract and the asynchronous
// extract_async run one loop: send call(), hand the answer to on_exchange(), repeat until it
// returns the Result. Also the two halves of Client::exchange around the transport.

#include <optional>

#include "accord/client.hpp"
#include "stream_session.hpp"

namespace accord::detail {

// An exchange before its delivery: the HTTP request and the attempt's record so far.
struct PreparedExchange {
  HttpRequest request;
  Attempt attempt;
  OutputMode mode = OutputMode::response_format;
  std::shared_ptr<StreamSession> stream;  // a streamed attempt's reader; null otherwise
};

struct ClientInternals {
  // Encodes `call` with the client's base URL, key, model and max_tokens; asks for a streamed
  // reply when `stream` is given.
  [[nodiscard]] static PreparedExchange prepare(const Client& client, CallSpec call,
                                                const StreamSetup* stream = nullptr);
  // Records the tries and decodes the last one's reply (redacted whole first).
  [[nodiscard]] static Exchange finish(const Client& client, PreparedExchange prepared,
                                       Delivery delivery);
  [[nodiscard]] static const ClientOptions& options(const Client& client);
  [[nodiscard]] static Transport& transport(const Client& client);
  // Another handle on the same client: an asynchronous call keeps it alive until it ends.
  [[nodiscard]] static Client share(const Client& client);
  // The API base URL the client sends to (no trailing slash).
  [[nodiscard]] static const std::string& base_url(const Client& client);
};

class ExtractionLoop {
 public:
  // Throws std::invalid_argument for a null Contract, one made for another provider, or
  // corrections outside 0..kMaxCorrections. `client` must outlive the loop.
  ExtractionLoop(const Client& client, const ExtractRequest& request);

  // The next attempt to send.
  [[nodiscard]] const CallSpec& call() const { return call_; }
  // How the next attempt is streamed; nullopt when it is not.
  [[nodiscard]] std::optional<StreamSetup> stream() const;
  // When the whole call must be over (ClientOptions::call_timeout from the start).
  [[nodiscard]] Deadline deadline() const { return deadline_; }
  // The call's Result once it is decided; nullopt when call() now carries the corrective turn.
  [[nodiscard]] std::optional<Result<nlohmann::json>> on_exchange(Exchange exchanged);
  // Ends the call early with `error`, carrying the attempts so far.
  [[nodiscard]] Result<nlohmann::json> end_with(Error error);
  // The same after an attempt that was sent but never answered (a batch item the provider let
  // expire): the attempt is kept in the trace.
  [[nodiscard]] Result<nlohmann::json> end_with(Error error, Attempt unanswered);

 private:
  const Client& client_;
  std::shared_ptr<const Contract> contract_;
  OutputMode mode_;
  int corrections_ = 0;
  int corrections_sent_ = 0;
  Deadline deadline_;
  CallSpec call_;
  Trace trace_;
  StreamOptions stream_;
  PartialValueCallback on_partial_;
};

}  // namespace accord::detail
