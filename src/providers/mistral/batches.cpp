// Mistral's batch jobs: the calls uploaded as a JSONL file (`/v1/files`, purpose `batch`, a line
// `{custom_id, body}` each), a job on it at `/v1/batch/jobs` naming the model and endpoint,
// polled until its status is final, and its output and error files read as OpenAI's are
// (docs/providers.md, "Mistral").

#include <array>

#include "providers/mistral/mistral.hpp"
#include "providers/openai/openai.hpp"

namespace accord::detail {
namespace {

using nlohmann::ordered_json;

class MistralBatches final : public BatchProtocol {
 public:
  explicit MistralBatches(const BatchSetup& setup)
      : BatchProtocol(setup.base_url, setup),
        root_(setup.base_url),
        jobs_(setup.base_url + "/batch/jobs") {}

  BatchState submit(const std::vector<BatchItem>& items) override {
    // The job names the model once; each line's body is the call without it.
    std::string model;
    std::string jsonl;
    for (const auto& item : items) {
      auto body = ordered_json::parse(item.request->body);
      if (model.empty()) model = string_or_empty(body, "model");
      body.erase("model");
      jsonl += ordered_json{{"custom_id", item.custom_id}, {"body", std::move(body)}}.dump() + "\n";
    }
    const auto file = batch_reply(upload_batch_file(*this, root_ + "/files", jsonl), "file upload");
    const ordered_json job = {{"input_files", ordered_json::array({string_or_empty(file, "id")})},
                              {"endpoint", "/v1/chat/completions"},
                              {"model", model}};
    return state(batch_reply(post(jobs_, "application/json", job.dump()), "batch creation"));
  }

  BatchState poll(const std::string& id) override {
    return state(batch_reply(get(jobs_ + "/" + id), "batch status"));
  }

  BatchState cancel(const std::string& id) override {
    return state(
        batch_reply(post(jobs_ + "/" + id + "/cancel", "application/json", "{}"), "batch cancel"));
  }

  BatchAnswer answer_in(const ordered_json& line) const override {
    return openai_batch_answer(line);
  }

 private:
  [[nodiscard]] BatchState state(const ordered_json& job) const {
    BatchState state{.id = string_or_empty(job, "id"), .status = string_or_empty(job, "status")};
    if (state.id.empty()) throw BatchFailure("the batch job reply has no id");
    // QUEUED, RUNNING and CANCELLATION_REQUESTED are still under way.
    static constexpr std::array kEnded = {"SUCCESS", "FAILED", "TIMEOUT_EXCEEDED", "CANCELLED"};
    for (const char* word : kEnded) state.ended = state.ended || state.status == word;
    state.failed = count_at(job, "failed_requests");
    state.finished = count_at(job, "succeeded_requests") + state.failed;
    bool has_files = false;
    for (const char* file : {"output_file", "error_file"}) {
      const std::string id = string_or_empty(job, file);
      has_files = has_files || !id.empty();
      if (state.ended && !id.empty())
        state.result_urls.push_back(root_ + "/files/" + id + "/content");
    }
    // A job that failed without files ran nothing: its errors say why.
    if (state.status == "FAILED" && !has_files) {
      state.failure = "the batch job failed";
      const auto errors = job.value("errors", ordered_json::array());
      if (errors.is_array()) {
        for (const auto& error : errors) {
          if (error.is_object()) state.failure += "; " + string_or_empty(error, "message");
        }
      }
    }
    return state;
  }

  std::string root_;
  std::string jobs_;
};

}  // namespace

std::unique_ptr<BatchProtocol> make_mistral_batches(const BatchSetup& setup) {
  return std::make_unique<MistralBatches>(setup);
}

}  // namespace accord::detail
