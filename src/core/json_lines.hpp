#pragma once
// A stream of one JSON object per line (NDJSON, as Ollama streams) read from bytes as they
// arrive: each complete non-empty line is one event, its data the line. A line may be split
// anywhere between two reads and may end with LF or CRLF.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/sse.hpp"

namespace accord::detail {

class JsonLinesReader {
 public:
  // The lines the bytes complete, in order; the rest waits for the next call.
  [[nodiscard]] std::vector<SseEvent> feed(std::string_view bytes);
  // The last line when the stream ended without a line break after it.
  [[nodiscard]] std::optional<SseEvent> finish();

 private:
  std::string line_;
};

}  // namespace accord::detail
