#include "providers/gemini/gemini.hpp"

namespace accord::detail {
namespace {

// `:streamGenerateContent?alt=sse`: each event's data is a GenerateContentResponse whose
// candidate holds only the parts added since the last event; the last one adds finishReason and
// the usage. A blocked prompt is one event with promptFeedback; an error mid-stream is an event
// holding Google's error envelope.
class GeminiStream final : public StreamAssembler {
 public:
  explicit GeminiStream(OutputMode mode) : mode_(mode) {}

  Taken take(const SseEvent& event) override {
    Taken taken;
    auto data = event_object(event, taken);
    if (!data) return taken;
    if (data->contains("error")) {
      error_ = std::move(*data);
      return taken;
    }
    for (auto& [key, value] : data->items()) {
      if (key != "candidates") response_[key] = value;
    }
    if (const auto f = data->find("promptFeedback"); f != data->end() && f->is_object()) {
      blocked_ = !string_or_empty(*f, "blockReason").empty();
    }
    const auto candidates = data->find("candidates");
    if (candidates == data->end() || !candidates->is_array() || candidates->empty() ||
        !candidates->front().is_object()) {
      return taken;
    }
    auto& candidate = candidates->front();
    for (auto& [key, value] : candidate.items()) {
      if (key != "content") candidate_[key] = value;
    }
    finished_ = !string_or_empty(candidate_, "finishReason").empty();
    const auto content = candidate.find("content");
    if (content == candidate.end() || !content->is_object()) return taken;
    const auto parts = content->find("parts");
    if (parts == content->end() || !parts->is_array()) return taken;
    for (auto& part : *parts) add(std::move(part), taken);
    return taken;
  }

  [[nodiscard]] bool ended() const override { return finished_ || blocked_ || !error_.is_null(); }

  [[nodiscard]] ojson body(const nlohmann::json*) const override {
    if (!error_.is_null()) return error_;
    ojson out = response_.is_object() ? response_ : ojson::object();
    if (blocked_ && parts_.empty()) return out;
    ojson candidate = candidate_.is_object() ? candidate_ : ojson::object();
    candidate["content"] = {{"parts", parts_}, {"role", "model"}};
    out["candidates"] = ojson::array({std::move(candidate)});
    return out;
  }

 private:
  static bool is_thought(const ojson& part) {
    const auto t = part.find("thought");
    return t != part.end() && *t == true;
  }

  void add(ojson part, Taken& taken) {
    if (!part.is_object()) {
      parts_.push_back(std::move(part));  // decode() names it
      return;
    }
    const auto text = part.find("text");
    if (text != part.end() && text->is_string()) {
      const std::string piece = text->get<std::string>();
      if (mode_ == OutputMode::response_format && !is_thought(part)) taken.output = piece;
      // Pieces of one text (or one thought) join, as the whole reply has them.
      if (!parts_.empty() && parts_.back().contains("text") &&
          is_thought(parts_.back()) == is_thought(part)) {
        auto& last = parts_.back();
        last["text"] = string_or_empty(last, "text") + piece;
        for (auto& [key, value] : part.items()) {
          if (key != "text") last[key] = value;
        }
        return;
      }
    } else if (const auto call = part.find("functionCall");
               call != part.end() && call->is_object() && mode_ == OutputMode::forced_tool &&
               !called_) {
      // A call arrives whole, in one event.
      called_ = true;
      const auto args = call->find("args");
      taken.output = args == call->end() ? "{}" : serialize(*args);
    }
    parts_.push_back(std::move(part));
  }

  OutputMode mode_;
  ojson response_;
  ojson candidate_;
  ojson parts_ = ojson::array();
  ojson error_;
  bool finished_ = false;
  bool blocked_ = false;
  bool called_ = false;
};

}  // namespace

std::unique_ptr<StreamAssembler> make_gemini_stream(OutputMode mode) {
  return std::make_unique<GeminiStream>(mode);
}

void ask_for_gemini_stream(HttpRequest& request) {
  const std::string_view whole = ":generateContent";
  if (const auto at = request.url.rfind(whole); at != std::string::npos) {
    request.url.replace(at, whole.size(), ":streamGenerateContent?alt=sse");
  }
}

}  // namespace accord::detail
