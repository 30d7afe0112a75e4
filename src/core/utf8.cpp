#include "core/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace accord::detail {
namespace {

// Length of the well-formed sequence starting at `at` (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF), or 0 when the bytes there are not one.
std::size_t sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  }
  return length;
}

bool eight_ascii_bytes_at(std::string_view text, std::size_t at) {
  std::uint64_t eight = 0;
  std::memcpy(&eight, text.data() + at, sizeof eight);
  return (eight & 0x8080808080808080ULL) == 0;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    // Eight ASCII bytes at a time: most of what is checked (prompts, replies) is ASCII.
    while (at + 8 <= text.size() && eight_ascii_bytes_at(text, at)) at += 8;
    if (at == text.size()) break;
    const std::size_t length = sequence_length(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

std::optional<std::u32string> decode_utf8(std::string_view text) {
  std::u32string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = sequence_length(text, at);
    if (length == 0) return std::nullopt;
    static constexpr unsigned char kLeadMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    char32_t value = static_cast<unsigned char>(text[at]) & kLeadMask[length];
    for (std::size_t i = 1; i < length; ++i) {
      value = (value << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3F);
    }
    out += value;
    at += length;
  }
  return out;
}

std::string valid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = sequence_length(text, at);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD, one per bad byte
      ++at;
    } else {
      out.append(text.substr(at, length));
      at += length;
    }
  }
  return out;
}

}  // namespace accord::detail
