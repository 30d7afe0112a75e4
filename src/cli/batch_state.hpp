#pragma once
// The state file of `accord batch`: the job's BatchRecord kept beside its output from the moment a
// batch is created, so an interrupted job is resumed (--resume) instead of paid for twice.

#include <accord/batch.hpp>

#include <optional>
#include <string>

namespace accord_cli {

class BatchStateFile {
 public:
  explicit BatchStateFile(std::string path) : path_(std::move(path)) {}

  // Without --state: "<output>.batch-state.json", else "<input>.batch-state.json" when the results
  // go to stdout; empty when both are stdin/stdout (there is then nowhere to keep it).
  [[nodiscard]] static std::string default_path(const std::string& output,
                                                const std::string& input);

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] bool exists() const;
  // The record in the file; throws std::runtime_error saying why it cannot be read.
  [[nodiscard]] accord::BatchRecord read() const;
  // Replaces the file whole (a temporary file renamed over it), so a reader never sees half a
  // record; throws std::runtime_error when it cannot be written.
  void write(const accord::BatchRecord& record) const;
  // Throws std::runtime_error when write() would fail for the directory, before anything is sent.
  void check_writable() const;
  void remove() const;

 private:
  [[nodiscard]] std::string temporary() const { return path_ + ".tmp"; }
  std::string path_;
};

}  // namespace accord_cli
