#include "providers/stream_assembly.hpp"

#include <map>

#include "accord/json_text.hpp"
#include "providers/wire.hpp"

namespace accord::detail {
namespace {

using Taken = StreamAssembler::Taken;

// An event's data as a JSON object, or the problem, quoting the data whole: the session redacts
// it before cutting it short.
std::optional<ojson> event_object(const SseEvent& event, Taken& taken) {
  ojson data = parse_ordered_json(event.data, false);
  if (data.is_discarded() || !data.is_object()) {
    taken.problem = "a malformed server-sent event (its data is not a JSON object): " + event.data;
    return std::nullopt;
  }
  return data;
}

// An event's `index` or `output_index`; 0 when absent or not a count (a hostile number must not
// throw).
std::size_t index_at(const ojson& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number_unsigned() ? it->get<std::size_t>() : 0;
}

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
        const auto index = index_at(piece, "index");
        auto& call = calls_[index];
        if (auto id = string_or_empty(piece, "id"); !id.empty()) call.id = std::move(id);
        const auto function = piece.find("function");
        if (function == piece.end() || !function->is_object()) continue;
        call.name += string_or_empty(*function, "name");
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

// Responses and Anthropic name each event by its data's `type` (and an `event:` line).
class TypedEventStream : public StreamAssembler {
 public:
  Taken take(const SseEvent& event) final {
    Taken taken;
    auto data = event_object(event, taken);
    if (!data) return taken;
    std::string type = string_or_empty(*data, "type");
    if (type.empty()) type = event.event;
    on_event(type, *data, taken);
    return taken;
  }

 protected:
  virtual void on_event(const std::string& type, ojson& data, Taken& taken) = 0;
};

// The Responses API: typed events (`response.output_text.delta`, ...) ending with
// `response.completed`, `response.incomplete` or `response.failed`, which carry the whole
// response; the pieces are kept for a stream that stops before that.
class ResponsesStream final : public TypedEventStream {
 public:
  explicit ResponsesStream(OutputMode mode) : mode_(mode) {}

  void on_event(const std::string& type, ojson& data, Taken& taken) override {
    const auto index = index_at(data, "output_index");
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
          text_part(index, index_at(data, "content_index"), refusal ? "refusal" : "output_text");
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

// Anthropic Messages: message_start, content_block_start / _delta / _stop per block,
// message_delta (stop_reason, output tokens), message_stop; `error` events in between.
class AnthropicStream final : public TypedEventStream {
 public:
  explicit AnthropicStream(OutputMode mode) : mode_(mode) {}

  void on_event(const std::string& type, ojson& data, Taken& taken) override {
    const auto index = index_at(data, "index");
    if (type == "message_start") {
      if (const auto m = data.find("message"); m != data.end() && m->is_object()) message_ = *m;
    } else if (type == "content_block_start") {
      const auto block = data.find("content_block");
      if (block == data.end() || !block->is_object()) return;
      blocks_[index] = Block{*block, {}};
      if (string_or_empty(*block, "type") == "tool_use" && !first_tool_) first_tool_ = index;
    } else if (type == "content_block_delta") {
      const auto delta = data.find("delta");
      if (delta == data.end() || !delta->is_object()) return;
      auto& block = blocks_[index];
      const std::string delta_type = string_or_empty(*delta, "type");
      if (delta_type == "text_delta") {
        const std::string text = string_or_empty(*delta, "text");
        block.content["text"] = string_or_empty(block.content, "text") + text;
        if (mode_ == OutputMode::response_format) taken.output = text;
      } else if (delta_type == "input_json_delta") {
        const std::string json = string_or_empty(*delta, "partial_json");
        block.input_text += json;
        if (mode_ == OutputMode::forced_tool && first_tool_ == index) taken.output = json;
      }
    } else if (type == "message_delta") {
      if (const auto d = data.find("delta"); d != data.end() && d->is_object()) {
        for (const auto& [key, value] : d->items()) message_[key] = value;
      }
      if (const auto u = data.find("usage"); u != data.end() && u->is_object()) {
        if (!message_["usage"].is_object()) message_["usage"] = ojson::object();
        for (const auto& [key, value] : u->items()) message_["usage"][key] = value;
      }
    } else if (type == "message_stop") {
      stopped_ = true;
    } else if (type == "error") {
      error_ = std::move(data);
    }
  }

  [[nodiscard]] bool ended() const override { return stopped_ || !error_.is_null(); }

  [[nodiscard]] ojson body(const nlohmann::json* partial_output) const override {
    if (!error_.is_null()) return error_;
    ojson out = message_.is_object() ? message_ : ojson{{"type", "message"}};
    ojson content = ojson::array();
    for (const auto& [index, block] : blocks_) {
      ojson piece = block.content;
      if (string_or_empty(piece, "type") == "tool_use") {
        // The input arrives as pieces of JSON text; a block stopped inside it still needs an
        // object: the part read so far, or nothing.
        ojson input = parse_ordered_json(block.input_text.empty() ? "{}" : block.input_text, false);
        if ((input.is_discarded() || !input.is_object()) && partial_output != nullptr &&
            partial_output->is_object() && first_tool_ == index) {
          input = ojson(*partial_output);
        }
        piece["input"] = input.is_discarded() ? ojson::object() : std::move(input);
      }
      content.push_back(std::move(piece));
    }
    out["content"] = std::move(content);
    return out;
  }

 private:
  struct Block {
    ojson content;
    std::string input_text;
  };
  OutputMode mode_;
  ojson message_;
  ojson error_;
  bool stopped_ = false;
  std::map<std::size_t, Block> blocks_;
  std::optional<std::size_t> first_tool_;
};

}  // namespace

std::unique_ptr<StreamAssembler> make_stream_assembler(std::string_view provider, OutputMode mode) {
  if (provider == "openai-chat" || provider == "generic") return std::make_unique<ChatStream>(mode);
  if (provider == "openai-responses") return std::make_unique<ResponsesStream>(mode);
  if (provider == "anthropic") return std::make_unique<AnthropicStream>(mode);
  return nullptr;
}

void ask_for_stream(HttpRequest& request, std::string_view provider) {
  ojson body = parse_ordered_json(request.body, false);
  if (!body.is_object()) return;
  body["stream"] = true;
  // Without it the usage never arrives in a Chat Completions stream.
  if (provider == "openai-chat" || provider == "generic")
    body["stream_options"] = {{"include_usage", true}};
  request.body = serialize(body);
}

}  // namespace accord::detail
