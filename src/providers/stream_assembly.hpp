#pragma once
// A streamed reply (server-sent events) folded back, event by event, into the body the same
// provider sends without streaming, so one decode() reads both: a refusal, a cut-off or a content
// filter is named the same way whichever way the reply came. Each event also yields the piece of
// output it adds (the answer's text, or the forced tool's arguments) for reading as it arrives.

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/sse.hpp"
#include "accord/providers/provider.hpp"

namespace accord::detail {

class StreamAssembler {
 public:
  virtual ~StreamAssembler() = default;
  struct Taken {
    std::string output;  // the output text the event adds (often none)
    // Set when the event is not the provider's (a malformed event); may quote the event whole.
    std::string problem;
  };
  [[nodiscard]] virtual Taken take(const SseEvent& event) = 0;
  // The provider's last event arrived (or its error event): nothing more is expected, and
  // nothing after it is taken.
  [[nodiscard]] virtual bool ended() const = 0;
  // The non-streamed body made of what arrived so far. `partial_output`, when given, is the
  // output read so far as a value, for a provider whose tool input must be an object even when
  // the stream stopped inside it (Anthropic).
  [[nodiscard]] virtual nlohmann::ordered_json body(
      const nlohmann::json* partial_output = nullptr) const = 0;
};

// The assembler for a provider's event format; nullptr when it has none (accord streams
// openai-chat, generic, openai-responses and anthropic).
[[nodiscard]] std::unique_ptr<StreamAssembler> make_stream_assembler(std::string_view provider,
                                                                     OutputMode mode);

// The encoded request asking for a streamed reply (`"stream": true`, and usage in the last chunk
// on Chat Completions).
void ask_for_stream(HttpRequest& request, std::string_view provider);

}  // namespace accord::detail
