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
struct BatchAnswer {
  std::optional<HttpResponse> response;
  std::string unanswered;
};

// An HTTP exchange of the batch API: a 2xx response, or a thrown BatchFailure.
using BatchSend = std::function<HttpResponse(HttpRequest)>;

struct BatchFailure : std::runtime_error {
  explicit BatchFailure(const std::string& what, bool transient = false)
      : std::runtime_error(what), transient(transient) {}
  // No answer, or a 429 / 5xx after the transport retries: the same request may work later.
  bool transient;
};

class BatchProtocol {
 public:
  BatchProtocol(Headers headers, BatchSend send)
      : headers_(std::move(headers)), send_(std::move(send)) {}
  virtual ~BatchProtocol() = default;
  BatchProtocol(const BatchProtocol&) = delete;
  BatchProtocol& operator=(const BatchProtocol&) = delete;
  // Creates the batch (OpenAI uploads its file first) and returns its first state.
  [[nodiscard]] virtual BatchState submit(const std::vector<BatchItem>& items) = 0;
  [[nodiscard]] virtual BatchState poll(const std::string& id) = 0;
  virtual void cancel(const std::string& id) = 0;
  // Every answer found in the state's result files, by custom_id.
  [[nodiscard]] std::map<std::string, BatchAnswer> results(const BatchState& state);

 protected:
  // One line of a results file.
  [[nodiscard]] virtual BatchAnswer answer_in(const nlohmann::ordered_json& line) const = 0;
  [[nodiscard]] HttpResponse get(std::string url) const;
  [[nodiscard]] HttpResponse post(std::string url, std::string content_type,
                                  std::string body) const;

 private:
  Headers headers_;  // the credentials and version headers a direct call sends
  BatchSend send_;
};

// For "openai-chat" / "openai-responses" / "anthropic"; nullptr for a provider without batches.
// `base_url` is the client's; `call` one item as a direct call would send it (its URL and
// headers say where and how the provider is reached).
[[nodiscard]] std::unique_ptr<BatchProtocol> make_batch_protocol(std::string_view provider,
                                                                 const std::string& base_url,
                                                                 const HttpRequest& call,
                                                                 BatchSend send);

}  // namespace accord::detail
