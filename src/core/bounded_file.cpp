#include "accord/bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace accord {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw std::runtime_error("cannot read " + path + ": " + why);
}

// Why a file of this kind is not read, or empty when it is.
std::string refused_kind(mode_t mode, bool pipes) {
  if (S_ISREG(mode)) return "";
  if (S_ISFIFO(mode)) return pipes ? "" : "it is a FIFO, not a regular file";
  if (S_ISDIR(mode)) return "it is a directory";
  return "it is a device or a socket, not a regular file";
}

std::string too_big(std::size_t max_bytes) {
  return "it holds more than " + std::to_string(max_bytes) + " bytes, the limit for this file";
}

struct OpenFile {
  explicit OpenFile(int descriptor) : fd(descriptor) {}
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
  int fd;
};

std::string read_within(int fd, const std::string& path, std::size_t max_bytes,
                        std::size_t expected) {
  std::string text;
  text.reserve(std::min(expected, max_bytes));
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) return text;
    if (got < 0) {
      if (errno == EINTR) continue;
      refuse(path, std::strerror(errno));
    }
    if (text.size() + static_cast<std::size_t>(got) > max_bytes) refuse(path, too_big(max_bytes));
    text.append(buffer, static_cast<std::size_t>(got));
  }
}

}  // namespace

int open_checked_file(const std::string& path, bool pipes) {
  if (path == "-") return ::dup(STDIN_FILENO);
  // stat() first: it does not open, so a FIFO is refused without waiting for a writer.
  struct stat before {};
  if (::stat(path.c_str(), &before) != 0) refuse(path, std::strerror(errno));
  if (auto why = refused_kind(before.st_mode, pipes); !why.empty()) refuse(path, why);
  // Not blocking on open unless a pipe is allowed: the path may have become a FIFO since stat().
  const int flags = O_RDONLY | O_CLOEXEC | (pipes ? 0 : O_NONBLOCK);
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) refuse(path, std::strerror(errno));
  OpenFile closer(fd);
  struct stat opened {};
  if (::fstat(fd, &opened) != 0) refuse(path, std::strerror(errno));
  if (auto why = refused_kind(opened.st_mode, pipes); !why.empty()) refuse(path, why);
  closer.fd = -1;
  return fd;
}

std::string read_bounded_file(const std::string& path, const FileBounds& bounds) {
  if (path == "-") return read_within(STDIN_FILENO, "standard input", bounds.max_bytes, 0);
  const OpenFile opened_file(open_checked_file(path, bounds.pipes));
  const int fd = opened_file.fd;
  struct stat opened {};
  if (::fstat(fd, &opened) != 0) refuse(path, std::strerror(errno));
  const auto size = static_cast<std::size_t>(opened.st_size);
  if (S_ISREG(opened.st_mode) && size > bounds.max_bytes) refuse(path, too_big(bounds.max_bytes));
  return read_within(fd, path, bounds.max_bytes, S_ISREG(opened.st_mode) ? size : 0);
}

}  // namespace accord
