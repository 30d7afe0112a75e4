// Anthropic Message Batches: create with the calls inline, poll, and read the results URL
// (providers.md §4).

#include <array>

#include "providers/anthropic/anthropic.hpp"

namespace accord::detail {
namespace {

using nlohmann::ordered_json;

// The HTTP status an errored batch result stands for, from its error type, so the reply decoder
// reads it as it would read the same error from a direct call.
long anthropic_status(const ordered_json& error) {
  static constexpr std::array<std::pair<std::string_view, long>, 7> kStatuses = {{
      {"invalid_request_error", 400},
      {"authentication_error", 401},
      {"permission_error", 403},
      {"not_found_error", 404},
      {"request_too_large", 413},
      {"rate_limit_error", 429},
      {"overloaded_error", 529},
  }};
  // An error of another shape (a string, an array) stands for a server error.
  const auto inner = error.is_object() ? error.find("error") : error.end();
  const std::string type =
      inner != error.end() && inner->is_object() ? string_or_empty(*inner, "type") : "";
  for (const auto& [name, status] : kStatuses) {
    if (name == type) return status;
  }
  return 500;
}

class AnthropicBatches final : public BatchProtocol {
 public:
  // Anthropic's batches live under the Messages URL, wherever the direct call goes.
  explicit AnthropicBatches(const BatchSetup& setup)
      : BatchProtocol(setup.call_url, setup), batches_url_(setup.call_url + "/batches") {}

  BatchState submit(const std::vector<BatchItem>& items) override {
    ordered_json requests = ordered_json::array();
    for (const auto& item : items) {
      requests.push_back(
          {{"custom_id", item.custom_id}, {"params", ordered_json::parse(item.request->body)}});
    }
    const ordered_json body = {{"requests", std::move(requests)}};
    return state(
        batch_reply(post(batches_url_, "application/json", body.dump()), "batch creation"));
  }

  BatchState poll(const std::string& id) override {
    return state(batch_reply(get(batches_url_ + "/" + id), "batch status"));
  }

  BatchState cancel(const std::string& id) override {
    return state(batch_reply(post(batches_url_ + "/" + id + "/cancel", "application/json", ""),
                             "batch cancel"));
  }

  BatchAnswer answer_in(const ordered_json& line) const override {
    const auto result = line.find("result");
    const bool object = result != line.end() && result->is_object();
    const std::string type = object ? string_or_empty(*result, "type") : "";
    const auto member = [&](const char* key) {
      const auto found = result->find(key);
      return found == result->end() ? ordered_json() : *found;
    };
    BatchAnswer answer;
    if (type == "succeeded") {
      answer.response = HttpResponse{200, {}, body_text(member("message"))};
    } else if (type == "errored") {
      const auto error = member("error");
      answer.response = HttpResponse{anthropic_status(error), {}, body_text(error)};
    } else {
      answer.unanswered = type.empty() ? "no result" : type;  // expired, canceled
    }
    return answer;
  }

 private:
  [[nodiscard]] static BatchState state(const ordered_json& batch) {
    BatchState state{.id = string_or_empty(batch, "id"),
                     .status = string_or_empty(batch, "processing_status")};
    if (state.id.empty()) throw BatchFailure("the batch reply has no id");
    state.ended = state.status == "ended";
    const auto counts = batch.value("request_counts", ordered_json::object());
    state.failed =
        count_at(counts, "errored") + count_at(counts, "canceled") + count_at(counts, "expired");
    state.finished = count_at(counts, "succeeded") + state.failed;
    const std::string results = string_or_empty(batch, "results_url");
    if (state.ended && !results.empty()) state.result_urls.push_back(results);
    return state;
  }

  std::string batches_url_;
};

}  // namespace

std::unique_ptr<BatchProtocol> make_anthropic_batches(const BatchSetup& setup) {
  return std::make_unique<AnthropicBatches>(setup);
}

}  // namespace accord::detail
