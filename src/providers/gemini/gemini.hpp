#pragma once
// The Gemini API (generateContent): its stream of whole-response chunks and its Batch API (its
// codec is codec.cpp's alone).

#include <memory>

#include "providers/batch_protocol.hpp"
#include "providers/stream_assembly.hpp"

namespace accord::detail {

// `:streamGenerateContent?alt=sse`: each event is a GenerateContentResponse holding the parts
// added since the last one; the one with a finishReason is the last.
[[nodiscard]] std::unique_ptr<StreamAssembler> make_gemini_stream(OutputMode mode);
// A stream is asked for by its URL, not a body member.
void ask_for_gemini_stream(HttpRequest& request);
// The Gemini Batch API (batches.cpp).
[[nodiscard]] std::unique_ptr<BatchProtocol> make_gemini_batches(const BatchSetup& setup);

}  // namespace accord::detail
