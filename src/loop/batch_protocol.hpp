#pragma once
// The two providers' batch protocols behind one interface: OpenAI (upload a JSONL file, create a
// batch on it, read its output and error files) and Anthropic Message Batches (create with the
// requests inline, read the results URL). Only the wire; the loop around it is batch.cpp's.

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "accord/http.hpp"

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

class BatchProtocol {
 public:
  // `api_url`: where the client is configured to send its calls; the credentials in `headers`
  // go to that origin only.
  BatchProtocol(std::string api_url, Headers headers, BatchSend send, BatchRedact redact)
      : api_url_(std::move(api_url)),
        headers_(std::move(headers)),
        send_(std::move(send)),
        redact_(std::move(redact)) {}
  virtual ~BatchProtocol() = default;
  BatchProtocol(const BatchProtocol&) = delete;
  BatchProtocol& operator=(const BatchProtocol&) = delete;
  // Creates the batch (OpenAI uploads its file first) and returns its first state.
  [[nodiscard]] virtual BatchState submit(const std::vector<BatchItem>& items) = 0;
  [[nodiscard]] virtual BatchState poll(const std::string& id) = 0;
  // Asks the provider to stop the batch; returns the state its reply reports (the batch may take
  // a while to end, and keeps the answers it already has).
  virtual BatchState cancel(const std::string& id) = 0;
  // Reads one results file as it arrives, a line at a time, into the answers not read yet: memory
  // is bounded by `max_line_bytes`, and a longer line, a line that is not JSON or a line of a
  // shape not expected costs only its own item. Throws BatchFailure when the download fails;
  // what was read before stays in `answers`. A file on another origin than the API's is fetched
  // without credentials.
  void read_results(const std::string& url, BatchAnswers& answers,
                    std::size_t max_line_bytes) const;

 protected:
  // One line of a results file (an object); may throw nlohmann's exceptions on a shape it does
  // not expect, which read_results turns into the item's answer.
  [[nodiscard]] virtual BatchAnswer answer_in(const nlohmann::ordered_json& line) const = 0;
  [[nodiscard]] HttpResponse get(std::string url) const;
  [[nodiscard]] HttpResponse post(std::string url, std::string content_type,
                                  std::string body) const;

 private:
  std::string api_url_;
  Headers headers_;  // the credentials and version headers a direct call sends
  BatchSend send_;
  BatchRedact redact_;
};

// For "openai-chat" / "openai-responses" / "anthropic"; nullptr for a provider without batches.
// `base_url` is the client's; `call` one item as a direct call would send it (its URL and
// headers say where and how the provider is reached); `redact` the client's redaction.
[[nodiscard]] std::unique_ptr<BatchProtocol> make_batch_protocol(std::string_view provider,
                                                                 const std::string& base_url,
                                                                 const HttpRequest& call,
                                                                 BatchSend send,
                                                                 BatchRedact redact);

}  // namespace accord::detail
