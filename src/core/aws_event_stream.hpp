#pragma once
// The AWS event-stream binary framing (application/vnd.amazon.eventstream) read from bytes as
// they arrive: each message is a prelude (total length, headers length, CRC32 of the two), its
// headers, its payload and a CRC32 of the whole. Bedrock's ConverseStream sends its events so.
// Each message becomes an SseEvent, so the providers' stream assemblers read either framing.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/sse.hpp"

namespace accord::detail {

// CRC-32 (IEEE 802.3, as zlib's crc32) of `bytes`, continuing from `crc`.
[[nodiscard]] std::uint32_t crc32(std::string_view bytes, std::uint32_t crc = 0);

// An event's name for a frame whose :message-type is `exception` (or `error`): this prefix and
// the frame's :exception-type (or :error-code). An `error` frame's payload is made
// {"message": <its :error-message>}.
inline constexpr std::string_view kExceptionEventPrefix = "exception:";

class AwsEventStreamReader {
 public:
  // The events the bytes complete (event = the :event-type header, data = the payload), in
  // order; the rest waits for the next call. After a frame that breaks the framing (a CRC that
  // does not match, impossible lengths) nothing more is read and problem() says why.
  [[nodiscard]] std::vector<SseEvent> feed(std::string_view bytes);
  [[nodiscard]] const std::string& problem() const { return problem_; }

 private:
  bool take_message(std::string_view message, std::vector<SseEvent>& out);
  std::string pending_;
  std::string problem_;
};

// One message in the framing: the headers (each a string-typed header) and the payload, with
// both CRCs. For tests and stand-in servers.
[[nodiscard]] std::string aws_event_stream_message(
    const std::vector<std::pair<std::string, std::string>>& headers, std::string_view payload);

}  // namespace accord::detail
