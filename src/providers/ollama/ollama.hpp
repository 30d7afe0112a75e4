#pragma once
// Ollama's native API: POST /api/chat with `format` (a JSON Schema), and its stream, one JSON
// object per line (NDJSON).

#include <memory>

#include "providers/stream_assembly.hpp"

namespace accord::detail {

// The lines of a streamed /api/chat folded back into the body a whole reply has.
[[nodiscard]] std::unique_ptr<StreamAssembler> make_ollama_stream(OutputMode mode);

}  // namespace accord::detail
