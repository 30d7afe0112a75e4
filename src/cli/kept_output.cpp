#include "kept_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

namespace accord_cli {
namespace {

namespace fs = std::filesystem;

// Whether `text` went whole to `path`; `why` says what failed.
bool write_whole(const std::string& path, const std::string& text, std::string& why) {
  errno = 0;
  if (path == "-") {
    std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
    std::cout.flush();
    if (std::cout) return true;
  } else {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (out) return true;
  }
  why = errno != 0 ? std::strerror(errno) : "the write failed";
  return false;
}

// A new file in `dir` holding `text`, made by mkstemp: a name no one can guess and claim first (a
// symlink planted in a shared /tmp), created only by us and readable only by us, since it holds
// extracted data. The path, or nothing when it could not be written whole.
std::optional<std::string> write_new_private(const fs::path& dir, const std::string& stem,
                                             const std::string& text) {
  std::string path = (dir / (stem + "-XXXXXX")).string();
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return std::nullopt;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) break;
    done += static_cast<std::size_t>(wrote);
  }
  const bool whole = done == text.size() && ::close(fd) == 0;
  if (whole) return path;
  if (done != text.size()) ::close(fd);
  ::unlink(path.c_str());
  return std::nullopt;
}

bool is_regular_or_new(const std::string& path) {
  std::error_code error;
  const auto status = fs::status(path, error);
  return status.type() == fs::file_type::regular || status.type() == fs::file_type::not_found;
}

}  // namespace

std::optional<std::string> unwritable(const std::string& path) {
  if (path.empty() || path == "-") return std::nullopt;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISCHR(info.st_mode)) {
    const int device = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    const bool refused = device < 0 || (::isatty(device) == 0 && ::write(device, "\n", 1) != 1);
    const int error = errno;
    if (device >= 0) ::close(device);
    if (refused) return "cannot write " + path + ": " + std::strerror(error);
    return std::nullopt;
  }
  std::ofstream probe(path, std::ios::binary | std::ios::app);
  if (!probe) return "cannot write " + path;
  return std::nullopt;
}

std::string write_or_rescue(const std::string& path, const std::string& text) {
  std::string why;
  if (write_whole(path, text, why)) return {};
  const std::string stem =
      "accord-unsaved-" + fs::path(path == "-" ? "stdout" : path).filename().string();
  std::vector<fs::path> dirs;
  if (path != "-" && is_regular_or_new(path)) {
    const auto beside = fs::path(path).parent_path();
    dirs.push_back(beside.empty() ? fs::path(".") : beside);
  }
  std::error_code error;
  const auto temporary = fs::temp_directory_path(error);
  if (!error) dirs.push_back(temporary);
  const std::string what =
      "cannot write " + (path == "-" ? "standard output" : path) + " (" + why + ")";
  for (const auto& dir : dirs) {
    if (const auto rescue = write_new_private(dir, stem, text))
      return what + "; what it should hold is in " + *rescue;
  }
  std::cerr << text;
  return what + "; what it should hold is above, on standard error";
}

}  // namespace accord_cli
