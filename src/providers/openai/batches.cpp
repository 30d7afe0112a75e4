// The OpenAI Batch API: upload the calls as a JSONL file, create a batch on it, poll it, and read
// its output and error files (providers.md §1).

#include <fmt/format.h>

#include <array>
#include <random>

#include "providers/openai/openai.hpp"

namespace accord::detail {

using nlohmann::ordered_json;

// multipart/form-data with `purpose` and the JSONL `file`, under a boundary absent from it.
HttpResponse upload_batch_file(const BatchProtocol& protocol, const std::string& url,
                               const std::string& jsonl) {
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
  HttpRequest request{url, protocol.headers(), std::move(body)};
  request.headers.emplace_back("content-type", "multipart/form-data; boundary=" + boundary);
  return protocol.send(std::move(request));
}

BatchAnswer openai_batch_answer(const ordered_json& line) {
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
    answer.unanswered = string_or_empty(*error, "code") + ": " + string_or_empty(*error, "message");
  } else if (error != line.end() && error->is_string()) {
    answer.unanswered = error->get<std::string>();
  } else {
    answer.unanswered = "no response";
  }
  return answer;
}

namespace {

class OpenAiBatches final : public BatchProtocol {
 public:
  OpenAiBatches(const BatchSetup& setup, FilesBatchSurface surface)
      : BatchProtocol(setup.base_url, setup), surface_(std::move(surface)) {}

  BatchState submit(const std::vector<BatchItem>& items) override {
    const auto file =
        batch_reply(upload_batch_file(*this, at("/files"), input_file(items)), "file upload");
    return state(batch_reply(
        post(at("/batches"), "application/json", create_body(string_or_empty(file, "id"))),
        "batch creation"));
  }

  BatchState poll(const std::string& id) override {
    return state(batch_reply(get(at("/batches/" + id)), "batch status"));
  }

  BatchState cancel(const std::string& id) override {
    return state(batch_reply(post(at("/batches/" + id + "/cancel"), "application/json", "{}"),
                             "batch cancel"));
  }

  BatchAnswer answer_in(const ordered_json& line) const override {
    return openai_batch_answer(line);
  }

 private:
  // The URL of `path` under the surface's root, with its query.
  [[nodiscard]] std::string at(const std::string& path) const {
    return surface_.root + path + surface_.query;
  }

  // The JSONL input: a line per call, naming the endpoint it goes to.
  [[nodiscard]] std::string input_file(const std::vector<BatchItem>& items) const {
    std::string jsonl;
    for (const auto& item : items) {
      const ordered_json line = {{"custom_id", item.custom_id},
                                 {"method", "POST"},
                                 {"url", surface_.endpoint},
                                 {"body", ordered_json::parse(item.request->body)}};
      jsonl += line.dump() + "\n";
    }
    return jsonl;
  }

  [[nodiscard]] std::string create_body(const std::string& file_id) const {
    return ordered_json{
        {"input_file_id", file_id}, {"endpoint", surface_.endpoint}, {"completion_window", "24h"}}
        .dump();
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
      if (state.ended && !id.empty()) state.result_urls.push_back(at("/files/" + id + "/content"));
    }
    return state;
  }

  FilesBatchSurface surface_;
};

}  // namespace

std::unique_ptr<BatchProtocol> make_files_batches(const BatchSetup& setup,
                                                  FilesBatchSurface surface) {
  return std::make_unique<OpenAiBatches>(setup, std::move(surface));
}

std::unique_ptr<BatchProtocol> make_openai_batches(const BatchSetup& setup) {
  // Every item goes to one endpoint, named as OpenAI names it: the call's path under /v1.
  const std::string& call = setup.call_url;
  const std::string path = call.starts_with(setup.base_url) ? call.substr(setup.base_url.size())
                                                            : call.substr(call.rfind('/'));
  return make_files_batches(setup, {.root = setup.base_url, .query = "", .endpoint = "/v1" + path});
}

}  // namespace accord::detail
