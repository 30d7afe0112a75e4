#pragma once
// The documents of a JSONL stream (a file, a FIFO, standard input) read as the bytes arrive, in
// batches of whole lines: each read lands in the batch's own buffer, so a line is never copied
// (only a line cut at a batch's end moves to the next batch), and memory holds the batches in
// flight, never the stream.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace accord_cli {

// Lines that share one buffer. Its buffer and line list are meant to be used again: a batch the
// caller is done with goes back to the reader through DocumentLineHandlers::spare.
struct LineBatch {
  struct Line {
    std::size_t offset = 0;  // in text
    std::size_t bytes = 0;   // its length without '\n'; over max_line_bytes, the text was not kept
    std::size_t number = 0;  // from 1, as an editor numbers lines (blank ones included)
  };
  std::string text;  // the buffer reads go to; only the bytes lines point at are meaningful
  std::vector<Line> lines;

  [[nodiscard]] std::string_view line_text(const Line& line) const {
    return std::string_view(text).substr(line.offset, line.bytes);
  }
};

struct DocumentLineHandlers {
  // A batch to fill, without lines (its buffers kept from an earlier batch, or new).
  std::function<LineBatch()> spare;
  // Each batch of lines that are not blank, in order, when its buffer is full, when it holds
  // max_lines or batch_bytes of lines, before a wait and at the end; false stops the reading.
  std::function<bool(LineBatch&& batch)> full;
  // Called before a read that would wait for more input (a pipe or a terminal), after the lines
  // read so far were handed on: what is judged so far can be printed, so a reader on the other
  // end sees verdicts while it still writes.
  std::function<void()> before_waiting;
};

struct LineBatchSizes {
  std::size_t batch_bytes;     // a batch's buffer (a longer line grows it, up to max_line_bytes)
  std::size_t max_line_bytes;  // a longer line is handed on with its length only
  // A batch's lines at most: what is made per line (verdicts, issues) stays this many lines' worth
  // however short the lines are.
  std::size_t max_lines;
};

// Reads `fd` to its end (or until handlers.full says stop). Throws std::system_error on a read
// error (and passes on what the handlers throw).
void read_document_lines(int fd, const LineBatchSizes& sizes, const DocumentLineHandlers& handlers);

}  // namespace accord_cli
