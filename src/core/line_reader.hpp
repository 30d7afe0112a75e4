#pragma once
// A body read as lines while it arrives (a JSONL file of any size): each complete line is handed
// on and forgotten, so memory is bounded by the longest line accepted, not by the body.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "accord/http.hpp"

namespace accord::detail {

class LineReader final : public BodyReader {
 public:
  // `on_line` gets each line up to `max_line_bytes` (without its '\n'); `on_overlong` the first
  // kHeadBytes of each longer one, whose rest is skipped unread.
  static constexpr std::size_t kHeadBytes = 1024;
  using OnLine = std::function<void(std::string_view line)>;
  LineReader(std::size_t max_line_bytes, OnLine on_line, OnLine on_overlong)
      : max_line_bytes_(max_line_bytes),
        on_line_(std::move(on_line)),
        on_overlong_(std::move(on_overlong)) {}

  // A try starts the body again: a line cut short by the last one is dropped.
  void begin() override {
    line_.clear();
    skipping_ = false;
    seen_ = false;
  }
  bool read(std::string_view bytes) override;
  // The last line, when the body does not end with '\n'.
  void finish();
  // Whether any byte arrived (a transport that does not stream hands the body over whole).
  [[nodiscard]] bool untouched() const { return !seen_; }

 private:
  void end_line();

  std::size_t max_line_bytes_;
  OnLine on_line_;
  OnLine on_overlong_;
  std::string line_;       // the line so far; its head only once it is over the bound
  bool skipping_ = false;  // the line is over the bound: the rest of it is not kept
  bool seen_ = false;
};

}  // namespace accord::detail
