#include <map>

#include "accord/json_text.hpp"
#include "providers/anthropic/anthropic.hpp"

namespace accord::detail {
namespace {

// Anthropic Messages: message_start, content_block_start / _delta / _stop per block,
// message_delta (stop_reason, output tokens), message_stop; `error` events in between.
class AnthropicStream final : public TypedEventStream {
 public:
  explicit AnthropicStream(OutputMode mode) : mode_(mode) {}

  void on_event(const std::string& type, ojson& data, Taken& taken) override {
    const auto index = count_at(data, "index");
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
      } else if (delta_type == "thinking_delta") {
        // Kept whole with its signature: a correction echoes this turn, and with thinking on
        // Anthropic wants it to open with the signed thinking block.
        block.content["thinking"] =
            string_or_empty(block.content, "thinking") + string_or_empty(*delta, "thinking");
      } else if (delta_type == "signature_delta") {
        block.content["signature"] = string_or_empty(*delta, "signature");
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

std::unique_ptr<StreamAssembler> make_anthropic_stream(OutputMode mode) {
  return std::make_unique<AnthropicStream>(mode);
}

}  // namespace accord::detail
