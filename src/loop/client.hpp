#pragma once
// The library's side of a Client (accord/client.hpp): what the extraction loop, extract_async and
// batches reach inside a client for, and the two halves of an exchange around the transport, so
// a blocking call, an asynchronous one and a batch send the same requests and read the same
// replies.

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/client.hpp"
#include "loop/stream_session.hpp"
#include "transport/redaction.hpp"

namespace accord {

namespace detail {

// An exchange before its delivery: the HTTP request and the attempt's record so far.
struct PreparedExchange {
  HttpRequest request;
  Attempt attempt;
  OutputMode mode = OutputMode::response_format;
  std::shared_ptr<StreamSession> stream;  // a streamed attempt's reader; null otherwise
  // The values of extra headers named like credentials, the call's and the client's own, each
  // once: kept out of every record as the key is.
  std::vector<std::string> header_secrets;
};

}  // namespace detail

struct Client::Internals {
  // Encodes `call` with the client's base URL, key, model and max_tokens; asks for a streamed
  // reply when `stream` is given.
  [[nodiscard]] static detail::PreparedExchange prepare(
      const Client& client, CallSpec call, const detail::StreamSetup* stream = nullptr);
  // prepare() on the caller's own `call`, which is left as it was sent (the client's settings
  // written into it): a caller that keeps its call lends it instead of copying its turns. The
  // parameters are replaced (the client's written in, or merged with the call's) unless neither
  // the call nor the client sets any; when they are, the call's own are moved into
  // `own_parameters` first (when given), so the caller can give them back however this ends.
  [[nodiscard]] static detail::PreparedExchange prepare_sent(
      const Client& client, CallSpec& call, const detail::StreamSetup* stream = nullptr,
      std::optional<RequestParameters>* own_parameters = nullptr);
  // Records the tries and decodes the last one's reply (redacted whole first).
  // Taken by reference, as send() takes it: an exchange moved from call to call was two moves of
  // its request and record per attempt.
  [[nodiscard]] static Exchange finish(const Client& client, detail::PreparedExchange&& prepared,
                                       Delivery&& delivery);
  // The transport's tries of a prepared exchange within `deadline`, then finish(): one blocking
  // exchange. Prepared first, so what a request refused before sending reports is not "sent".
  [[nodiscard]] static Exchange send(const Client& client, detail::PreparedExchange&& prepared,
                                     Deadline deadline, const RetryObserver& on_retry = {});
  // When a call started now must be over (ClientOptions::call_timeout; none when it is 0).
  [[nodiscard]] static Deadline call_deadline(const Client& client);
  // Throws std::invalid_argument, naming `where`, for corrections outside 0..kMaxCorrections.
  static void check_corrections(int corrections, std::string_view where);
  [[nodiscard]] static const ClientOptions& options(const Client& client);
  // Whether `parameters` set any (compared with one kept, not one built per call).
  [[nodiscard]] static bool sets_parameters(const RequestParameters& parameters);
  [[nodiscard]] static Transport& transport(const Client& client);
  // Another handle on the same client: an asynchronous call keeps it alive until it ends.
  [[nodiscard]] static Client share(const Client& client);
  // Counts what a caller's callback threw and hands it to ClientOptions::on_callback_exception.
  static void callback_threw(const Client& client, std::exception_ptr thrown) noexcept;
  // Counts an exception a ClientOptions::hooks callback threw.
  static void hook_threw(const Client& client) noexcept;
  // The model requests name when the call does not (ClientOptions::model or the provider's).
  [[nodiscard]] static const std::string& model(const Client& client);
  // How a call asking `asked` gets structured output from this client: `asked` unless it is
  // OutputMode::per_model, then ClientOptions::mode, then the provider's choice for `model`.
  [[nodiscard]] static ModelOutputMode output_mode(const Client& client, OutputMode asked,
                                                   std::string_view model);
  // Where the client's key occurs in `text` (see secret_spans).
  [[nodiscard]] static detail::Spans key_spans(const Client& client, std::string_view text);
  // The clients a call falls back to, in order: made from `per_call` when the call names its own
  // list, else the client's (ClientOptions::fallbacks, made once). Each shares this client's
  // transport.
  [[nodiscard]] static std::shared_ptr<const std::vector<Client>> fallbacks(
      const Client& client, const std::optional<std::vector<Fallback>>& per_call);
  // The API base URL the client sends to (no trailing slash).
  [[nodiscard]] static const std::string& base_url(const Client& client);
  // `given` lowered for `provider` (Contract::for_provider), made once per Contract and provider
  // name and kept by `client` while `given` lives: a call that may fall back needs it on every
  // call, and extract_async runs many at once.
  [[nodiscard]] static std::shared_ptr<const Contract> contract_for(
      const Client& client, const std::shared_ptr<const Contract>& given, const Provider& provider);
};

}  // namespace accord
