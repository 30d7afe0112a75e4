#pragma once
// Server-sent events (the WHATWG event-stream format) read from bytes as they arrive: a line may
// be split anywhere between two reads, and lines end with LF, CRLF or CR.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace accord::detail {

struct SseEvent {
  std::string event;  // the `event:` field; empty when the stream names none
  std::string data;   // the `data:` lines joined with '\n'
};

class SseReader {
 public:
  // The events the bytes complete, in order; the rest waits for the next call.
  [[nodiscard]] std::vector<SseEvent> feed(std::string_view bytes);
  // Bytes of an unfinished line or event held back: a stream that ends with some has been cut.
  [[nodiscard]] bool holds_partial_event() const {
    return !line_.empty() || !data_.empty() || has_data_;
  }

 private:
  void take_line(std::string_view line, std::vector<SseEvent>& out);
  std::string line_;
  std::string event_;
  std::string data_;
  bool has_data_ = false;
  bool after_cr_ = false;  // a CR ended the last line: an LF right after it belongs to it
};

}  // namespace accord::detail
