#include "document_lines.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <vector>

namespace accord_cli {
namespace {

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// Whether a read of `fd` now would wait (nothing to read yet, the writer still open).
bool would_wait(int fd) {
  pollfd entry{fd, POLLIN, 0};
  return ::poll(&entry, 1, 0) == 0;
}

}  // namespace

void read_document_lines(int fd, std::size_t max_line_bytes, const DocumentLineHandlers& handlers) {
  std::vector<char> buffer(1 << 20);
  std::string line;       // a line split between two reads, kept while within the limit
  std::size_t bytes = 0;  // the length of that line so far, kept or not
  std::size_t number = 0;
  // Hands on one complete line; false when the reader is to stop.
  auto end_line = [&](std::string_view text, std::size_t length) {
    ++number;
    const bool overlong = length > max_line_bytes;
    if (!overlong && blank(text)) return true;
    return handlers.line(DocumentLine{overlong ? std::string_view{} : text, number, length});
  };
  for (;;) {
    if (handlers.before_waiting && would_wait(fd)) handlers.before_waiting();
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category());
    }
    if (got == 0) break;
    std::string_view rest(buffer.data(), static_cast<std::size_t>(got));
    for (auto newline = rest.find('\n'); newline != std::string_view::npos;
         newline = rest.find('\n')) {
      const auto piece = rest.substr(0, newline);
      rest.remove_prefix(newline + 1);
      bool go = true;
      if (bytes == 0) {
        go = end_line(piece, piece.size());  // the common case: the line is whole in the buffer
      } else {
        if (bytes + piece.size() <= max_line_bytes) line.append(piece);
        go = end_line(line, bytes + piece.size());
        line.clear();
        bytes = 0;
      }
      if (!go) return;
    }
    if (bytes + rest.size() <= max_line_bytes) {
      line.append(rest);
    } else {
      line.clear();  // over the limit: only its length is kept from here on
    }
    bytes += rest.size();
  }
  if (bytes > 0) end_line(line, bytes);
}

}  // namespace accord_cli
