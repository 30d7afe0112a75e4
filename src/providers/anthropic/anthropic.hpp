#pragma once
// Anthropic Messages: its stream of message and content-block events, and Message Batches (its
// codec is codec.cpp's alone).

#include <memory>

#include "providers/batch_protocol.hpp"
#include "providers/stream_assembly.hpp"

namespace accord::detail {

[[nodiscard]] std::unique_ptr<StreamAssembler> make_anthropic_stream(OutputMode mode);
[[nodiscard]] std::unique_ptr<BatchProtocol> make_anthropic_batches(const BatchSetup& setup);

}  // namespace accord::detail
