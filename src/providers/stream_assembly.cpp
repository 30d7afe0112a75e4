#include "providers/stream_assembly.hpp"

#include "accord/json_text.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

std::optional<ojson> event_object(const SseEvent& event, StreamAssembler::Taken& taken) {
  ojson data = parse_ordered_json(event.data, false);
  if (data.is_discarded() || !data.is_object()) {
    taken.problem = "a malformed server-sent event (its data is not a JSON object): " + event.data;
    return std::nullopt;
  }
  return data;
}

StreamAssembler::Taken TypedEventStream::take(const SseEvent& event) {
  Taken taken;
  auto data = event_object(event, taken);
  if (!data) return taken;
  std::string type = string_or_empty(*data, "type");
  if (type.empty()) type = event.event;
  on_event(type, *data, taken);
  return taken;
}

std::unique_ptr<StreamAssembler> make_stream_assembler(std::string_view provider, OutputMode mode) {
  const ProviderParts* parts = provider_parts(provider);
  return parts != nullptr && parts->stream != nullptr ? parts->stream(mode) : nullptr;
}

StreamFraming stream_framing(std::string_view provider) {
  const ProviderParts* parts = provider_parts(provider);
  return parts != nullptr ? parts->framing : StreamFraming::server_sent_events;
}

std::string_view media_type(StreamFraming framing) {
  switch (framing) {
    case StreamFraming::aws_event_stream:
      return "application/vnd.amazon.eventstream";
    case StreamFraming::json_lines:
      return "application/x-ndjson";
    case StreamFraming::server_sent_events:
      break;
  }
  return "text/event-stream";
}

void ask_for_stream(HttpRequest& request, std::string_view provider) {
  const ProviderParts* parts = provider_parts(provider);
  if (parts != nullptr && parts->stream_request != nullptr) {
    parts->stream_request(request);
    return;
  }
  ojson body = parse_ordered_json(request.body, false);
  if (!body.is_object()) return;
  body["stream"] = true;
  if (parts != nullptr && parts->ask_for_stream != nullptr) parts->ask_for_stream(body);
  request.body = serialize(body);
}

}  // namespace accord::detail
