#include <map>

#include "providers/openai_chat/chat_completions.hpp"

namespace accord::detail {
namespace {

using Taken = StreamAssembler::Taken;

// Chat Completions: `chat.completion.chunk` objects with choices[0].delta, then `[DONE]`.
class ChatStream final : public StreamAssembler {
 public:
  explicit ChatStream(OutputMode mode) : mode_(mode) {}

  Taken take(const SseEvent& event) override {
    Taken taken;
    if (event.data == "[DONE]") {
      done_ = true;
      return taken;
    }
    auto chunk = event_object(event, taken);
    if (!chunk) return taken;
    if (chunk->contains("error")) {
      error_ = std::move(*chunk);
      done_ = true;
      return taken;
    }
    if (const auto u = chunk->find("usage"); u != chunk->end() && u->is_object()) usage_ = *u;
    const auto choices = chunk->find("choices");
    if (choices == chunk->end() || !choices->is_array() || choices->empty()) return taken;
    const auto& choice = (*choices)[0];
    if (!choice.is_object()) return taken;
    if (const auto f = choice.find("finish_reason"); f != choice.end() && f->is_string())
      finish_ = f->get<std::string>();
    const auto delta = choice.find("delta");
    if (delta == choice.end() || !delta->is_object()) return taken;
    if (const auto c = delta->find("content"); c != delta->end() && c->is_string()) {
      content_ += c->get<std::string>();
      has_content_ = has_content_ || !c->get_ref<const std::string&>().empty();
      if (mode_ == OutputMode::response_format) taken.output = c->get<std::string>();
    }
    if (const auto r = delta->find("refusal"); r != delta->end() && r->is_string())
      refusal_ += r->get<std::string>();
    if (const auto calls = delta->find("tool_calls"); calls != delta->end() && calls->is_array()) {
      for (const auto& piece : *calls) {
        if (!piece.is_object()) continue;
        const auto index = count_at(piece, "index");
        auto& call = calls_[index];
        if (auto id = string_or_empty(piece, "id"); !id.empty()) call.id = std::move(id);
        const auto function = piece.find("function");
        if (function == piece.end() || !function->is_object()) continue;
        // OpenAI names the function once; Mistral and some servers repeat it in every chunk.
        if (auto name = string_or_empty(*function, "name"); name != call.name) call.name += name;
        const std::string arguments = string_or_empty(*function, "arguments");
        call.arguments += arguments;
        if (mode_ == OutputMode::forced_tool && index == calls_.begin()->first)
          taken.output += arguments;
      }
    }
    return taken;
  }

  [[nodiscard]] bool ended() const override { return done_; }

  [[nodiscard]] ojson body(const nlohmann::json* /*partial_output*/) const override {
    if (!error_.is_null()) return error_;
    ojson message{{"role", "assistant"}};
    message["content"] = has_content_ || calls_.empty() ? ojson(content_) : ojson(nullptr);
    if (!refusal_.empty()) message["refusal"] = refusal_;
    if (!calls_.empty()) {
      ojson calls = ojson::array();
      for (const auto& [index, call] : calls_) {
        calls.push_back({{"id", call.id},
                         {"type", "function"},
                         {"function", {{"name", call.name}, {"arguments", call.arguments}}}});
      }
      message["tool_calls"] = std::move(calls);
    }
    ojson choice{{"index", 0}, {"message", std::move(message)}};
    choice["finish_reason"] = finish_.empty() ? ojson(nullptr) : ojson(finish_);
    ojson out{{"object", "chat.completion"}, {"choices", ojson::array({std::move(choice)})}};
    if (!usage_.is_null()) out["usage"] = usage_;
    return out;
  }

 private:
  struct Call {
    std::string id;
    std::string name;
    std::string arguments;
  };
  OutputMode mode_;
  bool done_ = false;
  ojson error_;
  ojson usage_;
  std::string finish_;
  std::string content_;
  bool has_content_ = false;
  std::string refusal_;
  std::map<std::size_t, Call> calls_;
};

}  // namespace

std::unique_ptr<StreamAssembler> make_chat_stream(OutputMode mode) {
  return std::make_unique<ChatStream>(mode);
}

void ask_for_chat_stream(ojson& body) {
  // Without it the usage never arrives in a Chat Completions stream.
  body["stream_options"] = {{"include_usage", true}};
}

}  // namespace accord::detail
