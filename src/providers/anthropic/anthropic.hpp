#pragma once
// Anthropic Messages: its stream of message and content-block events, Message Batches, and its
// capability table (its codec is codec.cpp's alone).

#include <memory>
#include <string_view>

#include "accord/request_parameters.hpp"

#include "providers/batch_protocol.hpp"
#include "providers/stream_assembly.hpp"

namespace accord::detail {

[[nodiscard]] std::unique_ptr<StreamAssembler> make_anthropic_stream(OutputMode mode);
// What Anthropic's structured outputs accept (Claude on Bedrock takes the same).
[[nodiscard]] const SchemaCapabilities& anthropic_schema_capabilities();
[[nodiscard]] std::unique_ptr<BatchProtocol> make_anthropic_batches(const BatchSetup& setup);
// Whether the conversation ends in an assistant turn: a prefill the model continues.
[[nodiscard]] inline bool ends_in_prefill(const CallSpec& call) {
  return !call.turns.empty() && call.turns.back().role == Turn::Role::assistant;
}
// Throws std::invalid_argument, naming `provider`, for what Claude refuses beside extended
// thinking (a prefill, a temperature other than 1, a top_p below 0.95, max_tokens not above the
// thinking budget), before anything is sent.
void check_beside_thinking(const CallSpec& call, std::string_view provider);

}  // namespace accord::detail
