// The Gemini Batch API: `models/{m}:batchGenerateContent` with the calls inline, each tagged
// with its item's id as `metadata.key`; the batch is a long-running operation (`batches/{id}`)
// polled until done, whose output holds the responses inline or names a JSONL file
// (providers.md, "Gemini"; docs/batch.md).

#include <fmt/format.h>

#include <array>
#include <charconv>

#include "providers/gemini/gemini.hpp"

namespace accord::detail {
namespace {

using nlohmann::ordered_json;

constexpr std::string_view kCallMethod = ":generateContent";

// A batch's request counts are int64 values, which Google's JSON mapping writes as strings.
std::size_t stat_at(const ordered_json& stats, const char* key) {
  const auto found = stats.find(key);
  if (found == stats.end()) return 0;
  if (found->is_string()) {
    const auto& text = found->get_ref<const std::string&>();
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() ? value : 0;
  }
  return count_at(stats, key);
}

// The HTTP status an item's google.rpc.Status stands for, so the reply decoder reads it as it
// would read the same error from a direct call (the mapping of google.rpc.Code to HTTP that
// Google's APIs document). A code of 100 or more is already an HTTP status.
long http_status_of(long code) {
  static constexpr std::array<std::pair<long, long>, 14> kStatuses = {{
      {2, 500},   // UNKNOWN
      {3, 400},   // INVALID_ARGUMENT
      {5, 404},   // NOT_FOUND
      {6, 409},   // ALREADY_EXISTS
      {7, 403},   // PERMISSION_DENIED
      {8, 429},   // RESOURCE_EXHAUSTED
      {9, 400},   // FAILED_PRECONDITION
      {10, 409},  // ABORTED
      {11, 400},  // OUT_OF_RANGE
      {12, 501},  // UNIMPLEMENTED
      {13, 500},  // INTERNAL
      {14, 503},  // UNAVAILABLE
      {15, 500},  // DATA_LOSS
      {16, 401},  // UNAUTHENTICATED
  }};
  if (code >= 100) return code;
  for (const auto& [rpc, http] : kStatuses) {
    if (rpc == code) return http;
  }
  return 500;
}

class GeminiBatches final : public BatchProtocol {
 public:
  // The batch API sits beside the models, wherever the direct call goes.
  explicit GeminiBatches(const BatchSetup& setup)
      : BatchProtocol(setup.call_url, setup),
        call_url_(setup.call_url),
        root_(setup.call_url.substr(0, setup.call_url.rfind("/models/"))) {}

  BatchState submit(const std::vector<BatchItem>& items) override {
    // Vertex AI batches through its own batchPredictionJobs resource (inputs in Cloud Storage or
    // BigQuery), which this protocol does not speak.
    if (call_url_.find("/publishers/google/models/") != std::string::npos) {
      throw BatchFailure(
          "Vertex AI's batch prediction jobs are not supported; use the Gemini API's base URL");
    }
    ordered_json requests = ordered_json::array();
    for (const auto& item : items) {
      requests.push_back({{"request", ordered_json::parse(item.request->body)},
                          {"metadata", {{"key", item.custom_id}}}});
    }
    const ordered_json body = {
        {"batch",
         {{"displayName", "accord-batch"},
          {"inputConfig", {{"requests", {{"requests", std::move(requests)}}}}}}}};
    std::string url = items.front().request->url;
    const auto method = url.rfind(kCallMethod);
    if (method == std::string::npos) throw BatchFailure("the call URL names no generateContent");
    url.replace(method, kCallMethod.size(), ":batchGenerateContent");
    return state(batch_reply(post(url, "application/json", body.dump()), "batch creation"));
  }

  BatchState poll(const std::string& id) override {
    return state(batch_reply(get(root_ + "/" + id), "batch status"));
  }

  // The cancel's reply is an empty object: the batch's state comes with the next poll.
  BatchState cancel(const std::string& id) override {
    (void)batch_reply(post(root_ + "/" + id + ":cancel", "application/json", "{}"), "batch cancel");
    return {.id = id, .status = "cancel requested"};
  }

  // A line of the results (inline or from the file): {"key", "response" | "error"}.
  BatchAnswer answer_in(const ordered_json& line) const override {
    BatchAnswer answer;
    if (const auto response = line.find("response");
        response != line.end() && response->is_object()) {
      answer.response = HttpResponse{200, {}, response->dump()};
      return answer;
    }
    const auto error = line.find("error");
    if (error == line.end() || !error->is_object()) {
      answer.unanswered = "no response";
      return answer;
    }
    const auto code = error->find("code");
    const long rpc = code != error->end() && code->is_number_integer() ? code->get<long>() : 2;
    const std::string status = string_or_empty(*error, "status");
    // CANCELLED and DEADLINE_EXCEEDED: the item never ran, like an expired or cancelled item of
    // the other batch APIs.
    if (rpc == 1 || rpc == 4 || status == "CANCELLED" || status == "DEADLINE_EXCEEDED") {
      answer.unanswered =
          (status.empty() ? std::string(rpc == 1 ? "CANCELLED" : "DEADLINE_EXCEEDED") : status) +
          ": " + string_or_empty(*error, "message");
      return answer;
    }
    const long http = http_status_of(rpc);
    ordered_json envelope = *error;
    envelope["code"] = http;
    answer.response = HttpResponse{http, {}, ordered_json{{"error", envelope}}.dump()};
    return answer;
  }

  [[nodiscard]] const char* id_member() const override { return "key"; }

 private:
  // An Operation: `name`, `metadata` (the GenerateContentBatch: state, batchStats, output),
  // `done`, and once done `response` (the output) or `error`.
  [[nodiscard]] BatchState state(const ordered_json& operation) const {
    const auto metadata = operation.value("metadata", ordered_json::object());
    const auto batch = metadata.is_object() ? metadata : ordered_json::object();
    BatchState state{.id = string_or_empty(operation, "name"),
                     .status = string_or_empty(batch, "state")};
    if (state.id.empty()) state.id = string_or_empty(batch, "name");
    if (state.id.empty()) throw BatchFailure("the batch reply has no name");
    const auto done_member = operation.find("done");
    const bool done =
        done_member != operation.end() && done_member->is_boolean() && done_member->get<bool>();
    static constexpr std::array kEnded = {"BATCH_STATE_SUCCEEDED", "BATCH_STATE_FAILED",
                                          "BATCH_STATE_CANCELLED", "BATCH_STATE_EXPIRED"};
    state.ended = done;
    for (const char* word : kEnded) state.ended = state.ended || state.status == word;
    if (state.status.empty()) state.status = done ? "done" : "running";
    const auto stats = batch.value("batchStats", ordered_json::object());
    if (stats.is_object()) {
      state.failed = stat_at(stats, "failedRequestCount");
      state.finished = stat_at(stats, "successfulRequestCount") + state.failed;
    }
    if (!state.ended) return state;
    // The output: the operation's response, or the batch's own output field.
    auto output = operation.value("response", ordered_json());
    if (!output.is_object()) output = batch.value("output", ordered_json());
    const bool has_output = output.is_object() && (output.contains("inlinedResponses") ||
                                                   output.contains("responsesFile"));
    if (has_output) read_output(output, state);
    const auto error = operation.value("error", ordered_json());
    if (!has_output &&
        (state.status == "BATCH_STATE_FAILED" || state.status == "BATCH_STATE_EXPIRED")) {
      state.failure = state.status == "BATCH_STATE_EXPIRED"
                          ? "it expired before it ran, with no results"
                          : "it failed with no results";
      if (error.is_object()) state.failure += ": " + string_or_empty(error, "message");
    }
    return state;
  }

  void read_output(const ordered_json& output, BatchState& state) const {
    const auto inlined = output.value("inlinedResponses", ordered_json());
    const auto responses =
        inlined.is_object() ? inlined.value("inlinedResponses", ordered_json()) : ordered_json();
    if (responses.is_array()) {
      for (const auto& response : responses) {
        // One line in the file's shape: the key beside the response or error.
        ordered_json line = ordered_json::object();
        const auto metadata =
            response.is_object() ? response.value("metadata", ordered_json()) : ordered_json();
        if (metadata.is_object() && metadata.contains("key")) line["key"] = metadata["key"];
        if (response.is_object()) {
          for (const char* member : {"response", "error"}) {
            if (response.contains(member)) line[member] = response[member];
          }
        }
        state.inline_results.push_back(std::move(line));
      }
    }
    // The file form: `files/{id}`, downloaded from the API's /download surface.
    const std::string file = string_or_empty(output, "responsesFile");
    if (!file.empty()) {
      const auto version = root_.rfind('/');
      state.result_urls.push_back(fmt::format("{}/download{}/{}:download?alt=media",
                                              root_.substr(0, version), root_.substr(version),
                                              file));
    }
  }

  std::string call_url_;
  std::string root_;  // the versioned API root: {root}/models/..., {root}/batches/...
};

}  // namespace

std::unique_ptr<BatchProtocol> make_gemini_batches(const BatchSetup& setup) {
  return std::make_unique<GeminiBatches>(setup);
}

}  // namespace accord::detail
