#pragma once
// The OpenAI Responses API's stream of typed events (its codec is codec.cpp's alone).

#include <memory>

#include "providers/stream_assembly.hpp"

namespace accord::detail {

// `response.*` events, ending with one that carries the whole response.
[[nodiscard]] std::unique_ptr<StreamAssembler> make_responses_stream(OutputMode mode);

}  // namespace accord::detail
