#include "core/json_lines.hpp"

namespace accord::detail {
namespace {

// A line without its CR and surrounding blanks; nullopt when nothing is left.
std::optional<SseEvent> event_of(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (line.empty()) return std::nullopt;
  return SseEvent{{}, std::string(line)};
}

}  // namespace

std::vector<SseEvent> JsonLinesReader::feed(std::string_view bytes) {
  std::vector<SseEvent> out;
  for (std::size_t end = bytes.find('\n'); end != std::string_view::npos; end = bytes.find('\n')) {
    line_ += bytes.substr(0, end);
    if (auto event = event_of(line_)) out.push_back(*std::move(event));
    line_.clear();
    bytes.remove_prefix(end + 1);
  }
  line_ += bytes;
  return out;
}

std::optional<SseEvent> JsonLinesReader::finish() {
  auto event = event_of(line_);
  line_.clear();
  return event;
}

}  // namespace accord::detail
