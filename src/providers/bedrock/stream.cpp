#include <map>

#include "accord/json_text.hpp"
#include "core/aws_event_stream.hpp"
#include "providers/bedrock/bedrock.hpp"

namespace accord::detail {
namespace {

// ConverseStream: messageStart, then per content block contentBlockStart (a toolUse's id and
// name), contentBlockDelta (text, or a toolUse's input as pieces of JSON text) and
// contentBlockStop, then messageStop (stopReason) and metadata (usage), the last event. An
// exception frame (throttlingException, modelStreamErrorException, ...) ends the stream.
class BedrockStream final : public StreamAssembler {
 public:
  explicit BedrockStream(OutputMode mode) : mode_(mode) {}

  Taken take(const SseEvent& event) override {
    Taken taken;
    auto data = event_object(event, taken);
    if (!data) return taken;
    const std::string& type = event.event;
    if (type.starts_with(kExceptionEventPrefix)) {
      // The body decode() reads as an error: the message, and the exception's name.
      error_ = {{"message", string_or_empty(*data, "message")},
                {"__type", type.substr(kExceptionEventPrefix.size())}};
      return taken;
    }
    const auto index = count_at(*data, "contentBlockIndex");
    if (type == "contentBlockStart") {
      const auto start = data->find("start");
      if (start == data->end() || !start->is_object()) return taken;
      if (const auto use = start->find("toolUse"); use != start->end() && use->is_object()) {
        blocks_[index].tool_use = *use;
        if (!first_tool_) first_tool_ = index;
      }
    } else if (type == "contentBlockDelta") {
      const auto delta = data->find("delta");
      if (delta == data->end() || !delta->is_object()) return taken;
      auto& block = blocks_[index];
      if (const auto text = delta->find("text"); text != delta->end() && text->is_string()) {
        block.text += text->get<std::string>();
        if (mode_ == OutputMode::response_format) taken.output = text->get<std::string>();
      } else if (const auto use = delta->find("toolUse"); use != delta->end() && use->is_object()) {
        const std::string piece = string_or_empty(*use, "input");
        block.input_text += piece;
        if (mode_ == OutputMode::forced_tool && first_tool_ == index) taken.output = piece;
      }
    } else if (type == "messageStop") {
      stop_reason_ = string_or_empty(*data, "stopReason");
    } else if (type == "metadata") {
      if (const auto u = data->find("usage"); u != data->end()) usage_ = *u;
      ended_ = true;
    }
    // messageStart (the role) and contentBlockStop add nothing to the body.
    return taken;
  }

  [[nodiscard]] bool ended() const override { return ended_ || !error_.is_null(); }

  [[nodiscard]] ojson body(const nlohmann::json* partial_output) const override {
    if (!error_.is_null()) return error_;
    ojson content = ojson::array();
    for (const auto& [index, block] : blocks_) {
      if (block.tool_use.is_object()) {
        ojson use = block.tool_use;
        // A block stopped inside its input still needs an object: the part read so far, or
        // nothing.
        ojson input = parse_ordered_json(block.input_text.empty() ? "{}" : block.input_text, false);
        if ((input.is_discarded() || !input.is_object()) && partial_output != nullptr &&
            partial_output->is_object() && first_tool_ == index) {
          input = ojson(*partial_output);
        }
        use["input"] = input.is_discarded() ? ojson::object() : std::move(input);
        content.push_back({{"toolUse", std::move(use)}});
      } else {
        content.push_back({{"text", block.text}});
      }
    }
    ojson out{{"output", {{"message", {{"role", "assistant"}, {"content", std::move(content)}}}}}};
    if (!stop_reason_.empty()) out["stopReason"] = stop_reason_;
    if (!usage_.is_null()) out["usage"] = usage_;
    return out;
  }

 private:
  struct Block {
    ojson tool_use;  // {toolUseId, name} for a toolUse block; null for text
    std::string text;
    std::string input_text;
  };
  OutputMode mode_;
  std::map<std::size_t, Block> blocks_;
  std::optional<std::size_t> first_tool_;
  std::string stop_reason_;
  ojson usage_;
  ojson error_;
  bool ended_ = false;
};

}  // namespace

std::unique_ptr<StreamAssembler> make_bedrock_stream(OutputMode mode) {
  return std::make_unique<BedrockStream>(mode);
}

}  // namespace accord::detail
