#pragma once
// A provider's batch API behind one interface: create a batch of calls, poll it, cancel it, and
// read one result line as the answer to one call. Each provider with a batch API implements it in
// its own folder (providers/README.md). Only the wire: reading the results files is
// loop/batch_results.cpp's, and the loop around it batch.cpp's.

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "accord/http.hpp"
#include "providers/wire.hpp"

namespace accord::detail {

// One item of a batch: its id within the batch and the call as it would be sent alone.
struct BatchItem {
  std::string custom_id;
  const HttpRequest* request = nullptr;
};

struct BatchState {
  std::string id;
  std::string status;  // the provider's own word
  bool ended = false;  // no more polling: whatever results exist can be read
  std::size_t finished = 0;
  std::size_t failed = 0;
  std::string failure;                   // why the batch as a whole ran nothing (e.g. validation)
  std::vector<std::string> result_urls;  // JSONL files of per-item results, once ended
  // Results the status reply carries itself once ended (Gemini's inlined responses), each a line
  // as answer_in reads it; one without an id stands at its item's position in the batch.
  std::vector<nlohmann::ordered_json> inline_results;
};

// One item's answer: the provider's HTTP reply to the call, or why there is none ("expired").
// Neither set: no answer was read for it (yet).
struct BatchAnswer {
  std::optional<HttpResponse> response;
  std::string unanswered;
  [[nodiscard]] bool read() const { return response || !unanswered.empty(); }
};

// The answers of one batch by custom_id: a key for every item submitted, so a result line for
// any other id is ignored.
using BatchAnswers = std::map<std::string, BatchAnswer>;

// An HTTP exchange of the batch API: a 2xx response (its body redacted), or a thrown
// BatchFailure.
using BatchSend = std::function<HttpResponse(HttpRequest)>;
// The client's redaction of its key, for text the batch API hands over piece by piece.
using BatchRedact = std::function<std::string(std::string)>;

struct BatchFailure : std::runtime_error {
  explicit BatchFailure(const std::string& what, bool transient = false)
      : std::runtime_error(what), transient(transient) {}
  // No answer, or a 429 / 5xx after the transport retries: the same request may work later.
  bool transient;
};

// Where and how a provider's batch API is reached, from the client and one item as a direct call
// would send it.
struct BatchSetup {
  std::string base_url;  // the client's
  std::string call_url;  // where the direct call goes
  Headers headers;       // the direct call's credentials and version headers (no content-type)
  BatchSend send;
  BatchRedact redact;
};

class BatchProtocol {
 public:
  // `api_url`: where the client is configured to send its calls; the credentials in the setup's
  // headers go to that origin only.
  BatchProtocol(std::string api_url, const BatchSetup& setup)
      : api_url_(std::move(api_url)),
        headers_(setup.headers),
        send_(setup.send),
        redact_(setup.redact) {}
  virtual ~BatchProtocol() = default;
  BatchProtocol(const BatchProtocol&) = delete;
  BatchProtocol& operator=(const BatchProtocol&) = delete;
  // Creates the batch (OpenAI uploads its file first) and returns its first state.
  [[nodiscard]] virtual BatchState submit(const std::vector<BatchItem>& items) = 0;
  [[nodiscard]] virtual BatchState poll(const std::string& id) = 0;
  // Asks the provider to stop the batch; returns the state its reply reports (the batch may take
  // a while to end, and keeps the answers it already has).
  virtual BatchState cancel(const std::string& id) = 0;
  // One line of a results file (an object); may throw nlohmann's exceptions on a shape it does
  // not expect, which read_results (loop/batch_results.hpp) turns into the item's answer.
  [[nodiscard]] virtual BatchAnswer answer_in(const nlohmann::ordered_json& line) const = 0;
  // The member of a result line that names its item (Gemini's lines say "key").
  [[nodiscard]] virtual const char* id_member() const { return "custom_id"; }

  // For the results reader: where the credentials may go, the credentials, the exchange and the
  // client's redaction.
  [[nodiscard]] const std::string& api_url() const { return api_url_; }
  [[nodiscard]] const Headers& headers() const { return headers_; }
  [[nodiscard]] HttpResponse send(HttpRequest request) const { return send_(std::move(request)); }
  [[nodiscard]] std::string redact(std::string text) const { return redact_(std::move(text)); }

 protected:
  [[nodiscard]] HttpResponse get(std::string url) const;
  [[nodiscard]] HttpResponse post(std::string url, std::string content_type,
                                  std::string body) const;

 private:
  std::string api_url_;
  Headers headers_;  // the credentials and version headers a direct call sends
  BatchSend send_;
  BatchRedact redact_;
};

// Reading the batch API's replies, for the protocols.
// The body of a batch API reply as a JSON object; a body that is not is the provider breaking
// its protocol (a BatchFailure naming `what`).
[[nodiscard]] nlohmann::ordered_json batch_reply(const HttpResponse& response,
                                                 std::string_view what);
// An answer's body as the provider's own reply would carry it.
[[nodiscard]] std::string body_text(const nlohmann::ordered_json& body);

// The batch protocol of the provider named, as its folder declares it; nullptr for a provider
// without batches. `base_url` is the client's; `call` one item as a direct call would send it
// (its URL and headers say where and how the provider is reached); `redact` the client's
// redaction.
[[nodiscard]] std::unique_ptr<BatchProtocol> make_batch_protocol(std::string_view provider,
                                                                 const std::string& base_url,
                                                                 const HttpRequest& call,
                                                                 BatchSend send,
                                                                 BatchRedact redact);

}  // namespace accord::detail
