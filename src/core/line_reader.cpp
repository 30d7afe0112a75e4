#include "core/line_reader.hpp"

#include <algorithm>

namespace accord::detail {

bool LineReader::read(std::string_view bytes) {
  seen_ = seen_ || !bytes.empty();
  while (!bytes.empty()) {
    const auto newline = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, newline);
    if (!skipping_) {
      if (line_.size() + piece.size() > max_line_bytes_) {
        // Over the bound: only the head is kept, to say which item the line was.
        line_.append(piece.substr(0, kHeadBytes - std::min(kHeadBytes, line_.size())));
        line_.resize(std::min(line_.size(), kHeadBytes));
        line_.shrink_to_fit();
        skipping_ = true;
      } else {
        line_.append(piece);
      }
    }
    if (newline == std::string_view::npos) break;
    end_line();
    bytes.remove_prefix(newline + 1);
  }
  return true;
}

void LineReader::finish() {
  if (!line_.empty() || skipping_) end_line();
}

void LineReader::end_line() {
  if (skipping_) {
    on_overlong_(line_);
  } else {
    on_line_(line_);
  }
  line_.clear();
  skipping_ = false;
}

}  // namespace accord::detail
