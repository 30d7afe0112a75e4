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
#include "providers/wire.hpp"

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

// How a provider's stream frames its events: server-sent events, AWS's binary event-stream
// (core/aws_event_stream.hpp), whose messages are read as events named by their :event-type, or
// one JSON object per line (Ollama's NDJSON, core/json_lines.hpp).
enum class StreamFraming { server_sent_events, aws_event_stream, json_lines };
[[nodiscard]] StreamFraming stream_framing(std::string_view provider);
// The media type a stream of that framing is sent as.
[[nodiscard]] std::string_view media_type(StreamFraming framing);

// The assembler for the provider's event format, as its folder declares it; nullptr when it has
// none.
[[nodiscard]] std::unique_ptr<StreamAssembler> make_stream_assembler(std::string_view provider,
                                                                     OutputMode mode);

// The encoded request asking for a streamed reply: `"stream": true`, and whatever else the
// provider's folder says a stream needs (or the provider's own way of asking).
void ask_for_stream(HttpRequest& request, std::string_view provider);

// For the providers' assemblers.
// An event's data as a JSON object, or nullopt with `taken.problem` quoting the data whole: the
// session redacts it before cutting it short.
[[nodiscard]] std::optional<ojson> event_object(const SseEvent& event,
                                                StreamAssembler::Taken& taken);

// Events named by their data's `type` (or, without one, their `event:` line).
class TypedEventStream : public StreamAssembler {
 public:
  Taken take(const SseEvent& event) final;

 protected:
  virtual void on_event(const std::string& type, ojson& data, Taken& taken) = 0;
};

}  // namespace accord::detail
