#include "accord/printable.hpp"

#include <fmt/format.h>

#include "core/utf8.hpp"

namespace accord {

std::string printable(std::string_view text) {
  const std::string valid = detail::valid_utf8(text);
  std::string out;
  out.reserve(valid.size());
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const auto c = static_cast<unsigned char>(valid[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else if (c == 0xC2 && i + 1 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) <= 0x9F) {
      // U+0080..U+009F: C1 controls (0x9B is a one-byte CSI on some terminals).
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(valid[i + 1]));
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

Issues printable(Issues issues) {
  for (auto& issue : issues) {
    issue.message = printable(issue.message);
    std::vector<PathSegment> segments = issue.path.segments();
    for (auto& segment : segments) {
      if (auto* key = std::get_if<std::string>(&segment)) *key = printable(*key);
    }
    issue.path = Path(std::move(segments));
  }
  return issues;
}

std::string prettify_printable(const Issues& issues, std::string_view indent) {
  std::string out(indent);
  for (const char c : prettify(printable(issues))) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

}  // namespace accord
