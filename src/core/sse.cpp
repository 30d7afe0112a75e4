#include "core/sse.hpp"

namespace accord::detail {

std::vector<SseEvent> SseReader::feed(std::string_view bytes) {
  std::vector<SseEvent> out;
  for (const char c : bytes) {
    if (after_cr_) {
      after_cr_ = false;
      if (c == '\n') continue;
    }
    if (c == '\r' || c == '\n') {
      after_cr_ = c == '\r';
      take_line(line_, out);
      line_.clear();
    } else {
      line_ += c;
    }
  }
  return out;
}

void SseReader::take_line(std::string_view line, std::vector<SseEvent>& out) {
  if (line.empty()) {
    // A blank line ends the event; one without data is dropped, as the format says.
    if (has_data_) out.push_back(SseEvent{std::move(event_), std::move(data_)});
    event_.clear();
    data_.clear();
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;  // a comment (servers send them to keep a connection alive)
  const auto colon = line.find(':');
  const std::string_view field = line.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "event") {
    event_ = value;
  } else if (field == "data") {
    if (has_data_) data_ += '\n';
    data_ += value;
    has_data_ = true;
  }
  // id and retry matter to a browser reconnecting, not to one request's reply.
}

}  // namespace accord::detail
