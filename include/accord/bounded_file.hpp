#pragma once
// Files read because a command line or a schema names them (a schema file, a `$ref` under a
// SchemaRegistry directory, a documents file): read within bounds, so a FIFO cannot block the
// reader forever and a device (/dev/zero) or a huge file cannot take all memory.

#include <cstddef>
#include <string>

namespace accord {

// A schema file, or a document a schema's `$ref` reaches: far above any real schema.
inline constexpr std::size_t kMaxSchemaFileBytes = 16 * 1024 * 1024;
// A file of documents or a prompt the user names: they are read whole, so bounded too.
inline constexpr std::size_t kMaxDocumentsFileBytes = std::size_t{1} << 30;

struct FileBounds {
  std::size_t max_bytes = kMaxSchemaFileBytes;
  // Whether a pipe (a FIFO, `<(...)`) may be read: a path a user types may name one on purpose;
  // a path a schema leads to may not (opening a FIFO waits for a writer that may never come).
  bool pipes = false;
};

// The bytes of `path` ("-": standard input, whatever it is, within max_bytes). Throws
// std::runtime_error naming the path and why: it cannot be opened, it is a directory, a device or
// a socket (or a pipe `bounds` does not allow), or it holds more than max_bytes.
[[nodiscard]] std::string read_bounded_file(const std::string& path, const FileBounds& bounds);

// A descriptor open on `path` ("-": a duplicate of standard input) after the checks
// read_bounded_file makes of its kind, for a reader that keeps one piece at a time (so no size
// bound). Throws as read_bounded_file does; the caller closes the descriptor.
[[nodiscard]] int open_checked_file(const std::string& path, bool pipes);

}  // namespace accord
