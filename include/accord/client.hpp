#pragma once
// The loop: send, check the reply's status, parse, validate against the original rules, and on
// failure send the issues back (one correction by default) before giving up loudly.

#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "accord/call_handle.hpp"
#include "accord/error.hpp"
#include "accord/fallback.hpp"
#include "accord/hooks.hpp"
#include "accord/json_schema.hpp"
#include "accord/judged_value.hpp"
#include "accord/loop_options.hpp"
#include "accord/price_table.hpp"
#include "accord/providers/provider.hpp"
#include "accord/repair.hpp"
#include "accord/result.hpp"
#include "accord/retry.hpp"
#include "accord/schema.hpp"
#include "accord/streaming.hpp"
#include "accord/trace.hpp"
#include "accord/transport.hpp"
#include "accord/typed_value.hpp"
#include "accord/validate.hpp"

namespace accord {

// The most corrective retries a call may ask for: each one resends the whole conversation, so
// the upload grows with the square of the count; more rarely helps a model that failed 10 times.
inline constexpr int kMaxCorrections = 10;

struct ClientOptions {
  std::string provider = "openai-chat";
  std::string model;     // empty: the provider profile's default
  std::string base_url;  // empty: the provider's base-URL variable, else its public endpoint
  // Empty: the provider's key variable. May stay empty only for a loopback base URL (accord-mock, a
  // local model) or the generic provider; otherwise every call throws std::invalid_argument
  // before sending (Provider::needs_api_key).
  std::string api_key;
  int max_tokens = 1024;
  // Corrective requests after an invalid reply, a scoped one and its whole fallback counting
  // as two; 0 to kMaxCorrections.
  int corrections = 1;
  // What of a loosely written reply is repaired before it is judged (docs/loop.md#repairs): each
  // repair is in the Trace (Attempt::repairs); a reply that repairs make valid needs no correction.
  RepairPolicy repair = RepairPolicy::lossless;
  CorrectionPolicy correction;    // scoped to the failing fields by default
  TokenBudget budget;             // no cap by default
  TruncationRecovery truncation;  // on by default
  RetryPolicy retry;
  // The whole of one extract() (every attempt, transport try and wait between them), or of one
  // exchange(); a call past it ends as a `transport` timeout. 0: no limit but the transport's
  // per-try `total_timeout`.
  std::chrono::milliseconds call_timeout{300'000};
  TransportOptions transport;
  std::shared_ptr<Transport> custom_transport;  // instead of a CurlTransport
  StreamOptions stream;  // streamed replies (off by default); docs/loop.md#streaming
  // What an extract_async callback threw, handed over on the transport's thread: the exception
  // is caught there (the other calls in flight go on) and counted in
  // Client::callback_exceptions(); this hook, when set, is how to hear what it was. A hook that
  // throws in turn is ignored.
  std::function<void(std::exception_ptr)> on_callback_exception;
  // Callbacks on each request, reply, issue, correction, retry and the call's end
  // (docs/configuration.md#hooks; accord/telemetry.hpp for OpenTelemetry spans). What a hook
  // throws is caught and counted in Client::hook_exceptions().
  Hooks hooks;
  // Tried in order when this provider, after its retries, is unavailable or refuses (the
  // policy says which: accord/fallback.hpp, docs/loop.md#fallbacks). Each shares this client's
  // transport and options but its own provider, model, endpoint and key.
  std::vector<Fallback> fallbacks;
  FallbackPolicy fallback_policy;
  // Sampling, reasoning, caching, extra headers and body for every request
  // (docs/configuration.md#request-parameters); ExtractRequest::parameters override them field by
  // field. One the provider does not take makes each call throw std::invalid_argument.
  RequestParameters parameters;
  // Prices per model: each call's Trace::cost. None: no cost.
  std::shared_ptr<const PriceTable> prices;
  // How structured output is asked for when a call leaves it (ExtractRequest::mode per_model):
  // per_model lets the provider choose by model (Provider::output_mode_for; Bedrock's native
  // structured output only for the models AWS lists it for, else a forced tool).
  OutputMode mode = OutputMode::per_model;
};

// A schema made ready for one provider: emitted, lowered and compiled once, then reused.
class Contract {
 public:
  Contract(const Schema& schema, std::string name, const Provider& provider);
  // A schema emitted or imported beforehand, with the Validator of its original rules; for a JSON
  // Schema document: Contract(imported, Validator::from_json_schema(imported.json), ...), where
  // `imported` is import_json_schema(document).
  Contract(const EmittedSchema& schema, Validator validator, std::string name,
           const Provider& provider);
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const std::string& provider_name() const { return provider_; }
  [[nodiscard]] const WireSchema& wire() const { return wire_; }
  // The wire schema as JSON text, serialised once here rather than in every request body.
  [[nodiscard]] const std::string& wire_text() const { return wire_text_; }
  [[nodiscard]] const Report& report() const { return wire_.report; }
  [[nodiscard]] const Validator& validator() const { return validator_; }
  // The schema as emitted or imported, before lowering: what a reply's scalars are repaired to.
  [[nodiscard]] const nlohmann::ordered_json& json_schema() const { return json_schema_; }
  // The same schema and rules lowered for another provider (a fallback's): a Contract keeps the
  // schema as emitted, so one made from a JSON Schema file needs nothing more to move.
  [[nodiscard]] Contract for_provider(const Provider& provider) const;

 private:
  std::string name_;
  std::string provider_;
  WireSchema wire_;
  std::string wire_text_;
  Validator validator_;
  nlohmann::ordered_json json_schema_;
  Report emitted_report_;  // the emission's lines, before this provider's lowering added its own
};

struct ExtractRequest {
  // What to extract: a DSL Schema (its Contract is built once per name and cached by the client),
  // or a ready Contract for this client's provider (e.g. from a JSON Schema file).
  std::variant<Schema, std::shared_ptr<const Contract>> schema;
  std::string prompt;  // the user turn: the text to extract from, with instructions
  std::string system;  // optional system instructions
  // The schema's name on the wire ([A-Za-z0-9_-], <= 64); a Contract carries its own.
  std::string name = "result";
  // per_model: ClientOptions::mode, and when that is per_model too, the provider's choice for
  // the model (Provider::output_mode_for); either of the others is this call's whatever the model.
  OutputMode mode = OutputMode::per_model;
  std::optional<int> corrections;  // overrides ClientOptions::corrections (0 to kMaxCorrections)
  std::optional<RepairPolicy> repair;  // overrides ClientOptions::repair
  // Override the client's ClientOptions::correction, budget and truncation for this call.
  std::optional<CorrectionPolicy> correction;
  std::optional<TokenBudget> budget;
  std::optional<TruncationRecovery> truncation;
  std::optional<StreamOptions> stream;  // overrides ClientOptions::stream
  PartialValueCallback on_partial;      // parts of a streamed output as they close
  // Overrides ClientOptions::fallbacks for this call (an empty list: none). A ready Contract is
  // rebuilt for each fallback provider from its own JSON Schema (Contract::for_provider).
  std::optional<std::vector<Fallback>> fallbacks;
  // A conversation (system, user, assistant and tool-result turns; user turns may carry images
  // and documents) instead of, or around, the one-prompt shorthand: `system` when set goes
  // first, `prompt` when set goes last as a user turn. The conversation must end with a user or
  // tool-results turn; corrections are appended after it (docs/configuration.md#conversations).
  std::vector<Turn> messages;
  RequestParameters parameters;  // over ClientOptions::parameters, field by field
};

// One request and its decoded reply, with transport retries done.
struct Exchange {
  Attempt attempt;  // issues left empty: judging the content is the caller's job
  Reply reply;
};

class Client {
 public:
  explicit Client(ClientOptions options);
  ~Client();
  Client(Client&&) noexcept;
  Client& operator=(Client&&) noexcept;

  [[nodiscard]] const Provider& provider() const;
  // Why every call would throw std::invalid_argument before sending (no API key for an endpoint
  // off this machine: Provider::needs_api_key; for a ClientOptions::fallbacks entry, named as
  // "fallback PROVIDER: ..."), or nullopt; lets a program refuse before it starts work of its own.
  [[nodiscard]] std::optional<std::string> unusable_reason() const;
  // The contract for a schema under this client's provider, built once per schema and cached.
  [[nodiscard]] std::shared_ptr<const Contract> contract(const Schema& schema,
                                                         const std::string& name) const;

  // Throws std::invalid_argument for a null Contract, one made for another provider,
  // corrections outside 0..kMaxCorrections, or no API key for an endpoint off this machine (the
  // client's or a fallback's).
  [[nodiscard]] Result<nlohmann::json> extract(const ExtractRequest& request) const;

  // The building block under extract() and run_tools(): sends `call` (base URL, key, model and
  // max_tokens filled in from this client) with transport retries and decodes the reply.
  // ClientOptions::call_timeout bounds it. Throws std::invalid_argument, sending nothing, when
  // the client has no API key for an endpoint off this machine.
  [[nodiscard]] Exchange exchange(CallSpec call) const;
  // `text` with this client's API key replaced by "[redacted]", written plainly or with JSON
  // `\uXXXX` escapes: what every record and message the library keeps passes through, since a
  // provider or a hostile server can echo the key. A reply body is redacted whole on arrival,
  // before anything decodes or cuts it.
  [[nodiscard]] std::string redacted(std::string text) const;
  // Starts an extraction and returns at once: the same loop as extract() (corrective turns,
  // transport retries, ClientOptions::call_timeout), with every HTTP try on the transport's own
  // thread, so thousands can be in flight from one caller thread. `done` gets the Result on that
  // thread and must not block. The call keeps what it needs alive: the Client may be destroyed
  // first. Throws std::invalid_argument as extract() does, before anything is sent.
  CallHandle extract_async(const ExtractRequest& request,
                           std::function<void(Result<nlohmann::json>)> done) const;
  // The same, with the Result delivered through a future.
  [[nodiscard]] std::future<Result<nlohmann::json>> extract_async(
      const ExtractRequest& request) const;
  // How many extract_async callbacks (`done`) have thrown since this client was made; each was
  // caught and handed to ClientOptions::on_callback_exception.
  [[nodiscard]] std::uint64_t callback_exceptions() const;
  // Exceptions thrown by ClientOptions::hooks, each caught where the hook was called.
  [[nodiscard]] std::uint64_t hook_exceptions() const;
  // Throws ExtractError (carrying the Error and its Trace) instead of returning it.
  [[nodiscard]] Extraction<nlohmann::json> extract_or_throw(const ExtractRequest& request) const;

  // The value as a T: a type typed_types.hpp knows (a described struct, usually with the schema
  // typed<T>() or schema_of<T>() gives), read after the schema's defaults are filled in; any
  // other type through nlohmann's from_json. A valid value that does not fit T ends as
  // ErrorKind::conversion with the path of the part that did not fit; no exception escapes.
  // The value is read from the parsed reply in place: no nlohmann::json is built for it unless
  // a repair, a scoped correction's merge or unlowering made one (accord/judged_value.hpp).
  template <class T>
  [[nodiscard]] Result<T> extract(const ExtractRequest& request) const {
    return typed_result<T>(dsl_schema(request), extract_judged(request));
  }
  // extract_async() with the value read as extract<T> reads it, converted on the transport's
  // thread before `done` gets it.
  template <class T>
  CallHandle extract_async(const ExtractRequest& request,
                           std::function<void(Result<T>)> done) const {
    return extract_judged_async(
        request, [schema = dsl_schema(request), done = std::move(done)](
                     const Result<JudgedValue>& result) { done(typed_result<T>(schema, result)); });
  }
  template <class T>
  [[nodiscard]] std::future<Result<T>> extract_async(const ExtractRequest& request) const {
    return as_future<Result<T>>(
        [&](auto done) { return extract_async<T>(request, std::move(done)); });
  }

  // The library's own access to a client (src/loop/client.hpp): declared here so the library can
  // reach inside, complete only there; no part of the API.
  struct Internals;

 private:
  // The DSL schema a typed call reads its value with (for its defaults); none for a Contract.
  [[nodiscard]] static std::optional<Schema> dsl_schema(const ExtractRequest& request) {
    if (const auto* schema = std::get_if<Schema>(&request.schema)) return *schema;
    return std::nullopt;
  }

  // What extract<T> and extract_async<T> read their value from: the same loop as extract(), its
  // value handed out as judged, in place when the reply needed no tree. Defined with the loop.
  [[nodiscard]] Result<JudgedValue> extract_judged(const ExtractRequest& request) const;
  CallHandle extract_judged_async(const ExtractRequest& request,
                                  std::function<void(Result<JudgedValue>)> done) const;

  // `value` as a T, read in place from the document or from the tree alike.
  template <class T>
  [[nodiscard]] static Converted<T> read_typed(const std::optional<Schema>& schema,
                                               const JudgedValue& value) {
    const auto read = [&schema](const auto& in) {
      return schema ? from_json_value<T>(*schema, in) : from_json_value<T>(in);
    };
    if (const auto* document = value.document()) return read(document->root());
    return read(*value.tree());
  }

  // A validated value as a T, for extract<T> and extract_async<T> alike: a type typed_types.hpp
  // knows through from_json_value (defaults filled in), any other through nlohmann's from_json. A
  // value that does not fit T is ErrorKind::conversion with the path of the part that did not fit.
  template <class T>
  [[nodiscard]] static Result<T> typed_result(const std::optional<Schema>& schema,
                                              const Result<JudgedValue>& result) {
    if (!result.ok()) return result.error();
    if constexpr (KnownType<T>) {
      auto converted = read_typed<T>(schema, result.value());
      if (!converted)
        return conversion_error(converted.error().path, converted.error().message, result.trace());
      return Extraction<T>{std::move(converted).value(), result.trace()};
    } else {
      try {
        return Extraction<T>{result.value().to_json().template get<T>(), result.trace()};
      } catch (const nlohmann::json::exception& e) {
        return conversion_error(Path{}, e.what(), result.trace());
      }
    }
  }

  // A call started with a callback, its Result delivered through a future instead.
  template <class R, class Start>
  [[nodiscard]] static std::future<R> as_future(const Start& start) {
    auto promise = std::make_shared<std::promise<R>>();
    auto future = promise->get_future();
    (void)start([promise](R result) { promise->set_value(std::move(result)); });
    return future;
  }

  struct Impl;
  explicit Client(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  // Shared with the asynchronous calls still running, which may outlive this handle.
  std::shared_ptr<Impl> impl_;
};

}  // namespace accord
