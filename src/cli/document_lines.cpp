#include "document_lines.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace accord_cli {
namespace {

bool blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

// Whether reads of `fd` can wait at all: a regular file's never do, so it is not polled.
bool may_wait(int fd) {
  struct stat status {};
  return ::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode);
}

// Whether a read of `fd` now would wait (nothing to read yet, the writer still open).
bool would_wait(int fd) {
  pollfd entry{fd, POLLIN, 0};
  return ::poll(&entry, 1, 0) == 0;
}

// A spare batch without lines whose buffer reads `bytes`. A buffer grown for a long line is cut
// back, so one such line does not keep every batch in flight at its size.
LineBatch spare_batch(const DocumentLineHandlers& handlers, std::size_t bytes) {
  LineBatch batch = handlers.spare();
  batch.lines.clear();
  batch.text.resize(bytes);
  if (batch.text.capacity() > 2 * bytes) batch.text.shrink_to_fit();
  return batch;
}

}  // namespace

void read_document_lines(int fd, const LineBatchSizes& sizes,
                         const DocumentLineHandlers& handlers) {
  const bool poll_first = handlers.before_waiting && may_wait(fd);
  LineBatch batch = spare_batch(handlers, sizes.batch_bytes);
  std::size_t filled = 0;      // bytes read into batch.text
  std::size_t line_start = 0;  // where the line being read begins in batch.text
  std::size_t dropped = 0;     // bytes of that line read and not kept: it is over the limit
  std::size_t number = 0;
  // The line being read ends at `end` (its '\n', or the end of the input).
  auto end_line = [&](std::size_t end) {
    const std::size_t bytes = dropped + (end - line_start);
    ++number;
    if (bytes > sizes.max_line_bytes ||
        !blank(std::string_view(batch.text).substr(line_start, bytes))) {
      batch.lines.push_back({line_start, bytes, number});
    }
    line_start = end + 1;
    dropped = 0;
  };
  // Hands on the batch's lines; the line being read moves to the front of the next one's buffer.
  auto hand_on = [&] {
    if (batch.lines.empty()) return true;
    const std::size_t tail = filled - line_start;
    LineBatch next = spare_batch(handlers, std::max(sizes.batch_bytes, tail));
    std::memcpy(next.text.data(), batch.text.data() + line_start, tail);
    std::swap(batch, next);
    filled = tail;
    line_start = 0;
    return handlers.full(std::move(next));
  };
  for (;;) {
    if (poll_first && would_wait(fd)) {
      if (!hand_on()) return;
      handlers.before_waiting();
    }
    if (filled == batch.text.size()) {  // no room left
      if (!batch.lines.empty()) {
        if (!hand_on()) return;
      } else if (line_start > 0) {  // blank lines before the one being read
        std::memmove(batch.text.data(), batch.text.data() + line_start, filled - line_start);
        filled -= line_start;
        line_start = 0;
      }
      if (filled == batch.text.size()) {  // one line fills the buffer
        if (dropped + filled > sizes.max_line_bytes) {
          dropped += filled;  // only its length is kept from here on
          filled = 0;
        } else {
          batch.text.resize(std::min(2 * batch.text.size(), sizes.max_line_bytes + 1));
        }
      }
    }
    // At most batch_bytes a read, so that the bytes after a batch's last line, which move to the
    // next batch, stay within a batch's buffer also when a long line grew this one.
    const ssize_t got = ::read(fd, batch.text.data() + filled,
                               std::min(batch.text.size() - filled, sizes.batch_bytes));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category());
    }
    if (got == 0) break;
    std::size_t from = filled;
    filled += static_cast<std::size_t>(got);
    while (const void* newline = std::memchr(batch.text.data() + from, '\n', filled - from)) {
      const auto end =
          static_cast<std::size_t>(static_cast<const char*>(newline) - batch.text.data());
      end_line(end);
      from = end + 1;
      // A batch full of lines (many short ones, or a buffer a long line grew) is handed on with
      // the bytes not yet looked at moving to the next one.
      if (batch.lines.size() >= sizes.max_lines || line_start >= sizes.batch_bytes) {
        if (!hand_on()) return;
        from = line_start;
      }
    }
  }
  if (filled > line_start || dropped > 0) end_line(filled);
  if (!batch.lines.empty()) handlers.full(std::move(batch));
}

}  // namespace accord_cli
