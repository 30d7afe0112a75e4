#pragma once
// Amazon Bedrock's Converse API: its ConverseStream events (codec.cpp holds the rest).

#include <memory>

#include "providers/stream_assembly.hpp"

namespace accord::detail {

// ConverseStream's events (AWS event-stream framing, read as events named by :event-type)
// folded back into the Converse body.
[[nodiscard]] std::unique_ptr<StreamAssembler> make_bedrock_stream(OutputMode mode);

// A Converse request made a ConverseStream one: the same body at /converse-stream.
void ask_for_bedrock_stream(HttpRequest& request);

}  // namespace accord::detail
