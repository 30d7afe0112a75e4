#pragma once
// The documents of a JSONL stream (a file, a FIFO, standard input) read one line at a time as the
// bytes arrive: memory holds the read buffer and the current line, never the stream.

#include <cstddef>
#include <functional>
#include <string_view>

namespace accord_cli {

struct DocumentLine {
  std::string_view text;   // without its '\n'; empty when the line is over the limit
  std::size_t number = 0;  // from 1, as an editor numbers lines (blank ones included)
  std::size_t bytes = 0;   // its length; over max_line_bytes, the text was not kept
};

struct DocumentLineHandlers {
  // Each line that is not blank, in order; false stops the reading.
  std::function<bool(const DocumentLine& line)> line;
  // Called before a read that would wait for more input (a pipe or a terminal): what is judged
  // so far can be printed, so a reader on the other end sees verdicts while it still writes.
  std::function<void()> before_waiting;
};

// Reads `fd` to its end (or until handlers.line says stop). Throws std::system_error on a read
// error (and passes on what the handlers throw).
void read_document_lines(int fd, std::size_t max_line_bytes, const DocumentLineHandlers& handlers);

}  // namespace accord_cli
