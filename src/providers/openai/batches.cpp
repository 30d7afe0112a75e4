// The OpenAI Batch API: upload the calls as a JSONL file, create a batch on it, poll it, and read
// its output and error files (providers.md §1).

#include <fmt/format.h>

#include <array>
#include <random>

#include "providers/openai/openai.hpp"

namespace accord::detail {
namespace {

using nlohmann::ordered_json;

class OpenAiBatches final : public BatchProtocol {
 public:
  explicit OpenAiBatches(const BatchSetup& setup)
      : BatchProtocol(setup.base_url, setup), base_url_(setup.base_url) {}

  BatchState submit(const std::vector<BatchItem>& items) override {
    // Every item goes to one endpoint: the batch names it, and each line repeats it.
    const std::string endpoint = "/v1" + items.front().request->url.substr(base_url_.size());
    std::string jsonl;
    for (const auto& item : items) {
      const ordered_json line = {{"custom_id", item.custom_id},
                                 {"method", "POST"},
                                 {"url", endpoint},
                                 {"body", ordered_json::parse(item.request->body)}};
      jsonl += line.dump() + "\n";
    }
    const auto file = batch_reply(upload(jsonl), "file upload");
    const ordered_json create = {{"input_file_id", string_or_empty(file, "id")},
                                 {"endpoint", endpoint},
                                 {"completion_window", "24h"}};
    return state(batch_reply(post(base_url_ + "/batches", "application/json", create.dump()),
                             "batch creation"));
  }

  BatchState poll(const std::string& id) override {
    return state(batch_reply(get(base_url_ + "/batches/" + id), "batch status"));
  }

  BatchState cancel(const std::string& id) override {
    return state(batch_reply(
        post(base_url_ + "/batches/" + id + "/cancel", "application/json", "{}"), "batch cancel"));
  }

  BatchAnswer answer_in(const ordered_json& line) const override {
    BatchAnswer answer;
    const auto response = line.find("response");
    if (response != line.end() && response->is_object()) {
      const auto status = response->find("status_code");
      if (status != response->end() && status->is_number_integer()) {
        const auto body = response->find("body");
        answer.response = HttpResponse{
            status->get<long>(), {}, body_text(body == response->end() ? ordered_json() : *body)};
        return answer;
      }
    }
    const auto error = line.find("error");
    if (error != line.end() && error->is_object()) {
      answer.unanswered =
          string_or_empty(*error, "code") + ": " + string_or_empty(*error, "message");
    } else if (error != line.end() && error->is_string()) {
      answer.unanswered = error->get<std::string>();
    } else {
      answer.unanswered = "no response";
    }
    return answer;
  }

 private:
  // multipart/form-data with `purpose` and the JSONL `file`, under a boundary absent from it.
  [[nodiscard]] HttpResponse upload(const std::string& jsonl) const {
    std::random_device random;
    std::string boundary;
    do {
      boundary = fmt::format("accord-batch-{:08x}{:08x}", random(), random());
    } while (jsonl.find(boundary) != std::string::npos);
    std::string body = fmt::format(
        "--{0}\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n"
        "--{0}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"batch.jsonl\"\r\n"
        "Content-Type: application/jsonl\r\n\r\n",
        boundary);
    body += jsonl;
    body += fmt::format("\r\n--{}--\r\n", boundary);
    return post(base_url_ + "/files", "multipart/form-data; boundary=" + boundary, std::move(body));
  }

  [[nodiscard]] BatchState state(const ordered_json& batch) const {
    BatchState state{.id = string_or_empty(batch, "id"),
                     .status = string_or_empty(batch, "status")};
    if (state.id.empty()) throw BatchFailure("the batch reply has no id");
    // failed: the input was rejected; completed, expired, cancelled: results may be partial.
    static constexpr std::array kEnded = {"failed", "completed", "expired", "cancelled"};
    for (const char* word : kEnded) state.ended = state.ended || state.status == word;
    const auto counts = batch.value("request_counts", ordered_json::object());
    state.failed = count_at(counts, "failed");
    state.finished = count_at(counts, "completed") + state.failed;
    if (state.status == "failed") {
      state.failure = "the batch failed validation";
      const auto errors = batch.value("errors", ordered_json::object());
      if (errors.is_object() && errors.contains("data") && errors["data"].is_array()) {
        for (const auto& error : errors["data"]) {
          if (error.is_object()) state.failure += "; " + string_or_empty(error, "message");
        }
      }
    }
    for (const char* file : {"output_file_id", "error_file_id"}) {
      const std::string id = string_or_empty(batch, file);
      if (state.ended && !id.empty())
        state.result_urls.push_back(base_url_ + "/files/" + id + "/content");
    }
    return state;
  }

  std::string base_url_;
};

}  // namespace

std::unique_ptr<BatchProtocol> make_openai_batches(const BatchSetup& setup) {
  return std::make_unique<OpenAiBatches>(setup);
}

}  // namespace accord::detail
