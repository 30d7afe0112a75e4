#include "providers/ollama/ollama.hpp"

namespace accord::detail {
namespace {

// NDJSON: objects with a piece of message.content each, tool calls whole in one line, and a
// last line with "done": true, done_reason and the token counts. An {"error": ...} line ends it.
class OllamaStream final : public StreamAssembler {
 public:
  Taken take(const SseEvent& event) override {
    Taken taken;
    auto line = event_object(event, taken);
    if (!line) return taken;
    if (line->contains("error")) {
      error_ = std::move(*line);
      done_ = true;
      return taken;
    }
    if (const auto message = line->find("message");
        message != line->end() && message->is_object()) {
      if (const auto c = message->find("content"); c != message->end() && c->is_string()) {
        content_ += c->get<std::string>();
        // The output comes through `format` in either mode.
        taken.output = c->get<std::string>();
      }
      if (const auto calls = message->find("tool_calls");
          calls != message->end() && calls->is_array()) {
        for (const auto& call : *calls) calls_.push_back(call);
      }
    }
    if (const auto done = line->find("done"); done != line->end() && *done == true) {
      last_ = std::move(*line);
      done_ = true;
    }
    return taken;
  }

  [[nodiscard]] bool ended() const override { return done_; }

  [[nodiscard]] ojson body(const nlohmann::json* /*partial_output*/) const override {
    if (!error_.is_null()) return error_;
    ojson out = last_.is_object() ? last_ : ojson{{"done", false}};
    ojson message{{"role", "assistant"}, {"content", content_}};
    if (!calls_.empty()) message["tool_calls"] = calls_;
    out["message"] = std::move(message);
    return out;
  }

 private:
  bool done_ = false;
  ojson error_;
  ojson last_;  // the "done" line: done_reason and the counts
  std::string content_;
  ojson calls_ = ojson::array();
};

}  // namespace

std::unique_ptr<StreamAssembler> make_ollama_stream(OutputMode /*mode*/) {
  return std::make_unique<OllamaStream>();
}

}  // namespace accord::detail
