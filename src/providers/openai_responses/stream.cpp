#include <map>

#include "accord/json_text.hpp"
#include "providers/openai_responses/openai_responses.hpp"

namespace accord::detail {
namespace {

// The Responses API: typed events (`response.output_text.delta`, ...) ending with
// `response.completed`, `response.incomplete` or `response.failed`, which carry the whole
// response; the pieces are kept for a stream that stops before that.
class ResponsesStream final : public TypedEventStream {
 public:
  explicit ResponsesStream(OutputMode mode) : mode_(mode) {}

  void on_event(const std::string& type, ojson& data, Taken& taken) override {
    const auto index = count_at(data, "output_index");
    if (type == "response.completed" || type == "response.incomplete" ||
        type == "response.failed") {
      const auto response = data.find("response");
      if (response == data.end() || !response->is_object()) {
        taken.problem = "a " + type + " event without its response";
        return;
      }
      final_ = *response;
    } else if (type == "error") {
      ojson error{{"message", string_or_empty(data, "message")}};
      if (auto code = string_or_empty(data, "code"); !code.empty()) error["code"] = code;
      final_ = ojson{{"error", std::move(error)}};
    } else if (type == "response.output_item.added" || type == "response.output_item.done") {
      const auto item = data.find("item");
      if (item == data.end() || !item->is_object()) return;
      items_[index] = *item;
      if (string_or_empty(*item, "type") == "function_call" && !first_call_) first_call_ = index;
    } else if (type == "response.output_text.delta" || type == "response.refusal.delta") {
      const std::string delta = string_or_empty(data, "delta");
      const bool refusal = type == "response.refusal.delta";
      auto& part =
          text_part(index, count_at(data, "content_index"), refusal ? "refusal" : "output_text");
      part[refusal ? "refusal" : "text"] =
          string_or_empty(part, refusal ? "refusal" : "text") + delta;
      if (!refusal && mode_ == OutputMode::response_format) taken.output = delta;
    } else if (type == "response.function_call_arguments.delta") {
      const std::string delta = string_or_empty(data, "delta");
      auto& item = items_[index];
      item["arguments"] = string_or_empty(item, "arguments") + delta;
      if (mode_ == OutputMode::forced_tool && first_call_ == index) taken.output = delta;
    }
  }

  [[nodiscard]] bool ended() const override { return !final_.is_null(); }

  [[nodiscard]] ojson body(const nlohmann::json* /*partial_output*/) const override {
    if (!final_.is_null()) return final_;
    ojson output = ojson::array();
    for (const auto& [index, item] : items_) output.push_back(item);
    return ojson{{"object", "response"}, {"status", "in_progress"}, {"output", std::move(output)}};
  }

 private:
  ojson& text_part(std::size_t item_index, std::size_t content_index, const char* type) {
    auto& item = items_[item_index];
    if (!item.is_object()) item = ojson{{"type", "message"}, {"role", "assistant"}};
    if (!item.contains("content") || !item["content"].is_array()) item["content"] = ojson::array();
    auto& content = item["content"];
    while (content.size() <= content_index) content.push_back(ojson{{"type", type}});
    if (!content[content_index].is_object()) content[content_index] = ojson{{"type", type}};
    return content[content_index];
  }

  OutputMode mode_;
  ojson final_;
  std::map<std::size_t, ojson> items_;
  std::optional<std::size_t> first_call_;
};

}  // namespace

std::unique_ptr<StreamAssembler> make_responses_stream(OutputMode mode) {
  return std::make_unique<ResponsesStream>(mode);
}

}  // namespace accord::detail
