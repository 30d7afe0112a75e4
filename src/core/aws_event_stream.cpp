#include "core/aws_event_stream.hpp"

#include <array>
#include <nlohmann/json.hpp>

namespace accord::detail {
namespace {

// The framing's limits (AWS: a message is at most 16 MiB, its headers at most 128 KiB).
constexpr std::size_t kPreludeBytes = 12;
constexpr std::size_t kCrcBytes = 4;
constexpr std::size_t kMaxMessageBytes = 16 * 1024 * 1024;
constexpr std::size_t kMaxHeaderBytes = 128 * 1024;

constexpr std::array<std::uint32_t, 256> kCrcTable = [] {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}();

std::uint32_t read_u32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i)
    value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

std::size_t read_u16(std::string_view bytes, std::size_t at) {
  return (static_cast<std::size_t>(static_cast<unsigned char>(bytes[at])) << 8) |
         static_cast<unsigned char>(bytes[at + 1]);
}

void put_u32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
}

// The fixed size of a header value of `type` (its value types 0-9), or 0 for the
// length-prefixed ones (6 bytes, 7 string), or -1 for an unknown type.
int value_bytes(unsigned char type) {
  static constexpr std::array<int, 10> kSizes = {0, 0, 1, 2, 4, 8, 0, 0, 8, 16};
  if (type >= kSizes.size()) return -1;
  return kSizes[type];
}

}  // namespace

std::uint32_t crc32(std::string_view bytes, std::uint32_t crc) {
  crc = ~crc;
  for (const char b : bytes)
    crc = kCrcTable[(crc ^ static_cast<unsigned char>(b)) & 0xFFU] ^ (crc >> 8);
  return ~crc;
}

std::vector<SseEvent> AwsEventStreamReader::feed(std::string_view bytes) {
  std::vector<SseEvent> out;
  if (!problem_.empty()) return out;
  pending_ += bytes;
  std::size_t at = 0;
  while (pending_.size() - at >= kPreludeBytes) {
    const std::string_view rest = std::string_view(pending_).substr(at);
    const std::uint32_t total = read_u32(rest, 0);
    const std::uint32_t headers = read_u32(rest, 4);
    if (crc32(rest.substr(0, 8)) != read_u32(rest, 8)) {
      problem_ =
          "an event-stream frame whose prelude CRC does not match (not AWS event-stream framing)";
      break;
    }
    if (total < kPreludeBytes + kCrcBytes + headers || total > kMaxMessageBytes ||
        headers > kMaxHeaderBytes) {
      problem_ = "an event-stream frame with impossible lengths (" + std::to_string(total) +
                 " bytes, " + std::to_string(headers) + " of headers)";
      break;
    }
    if (rest.size() < total) break;
    if (!take_message(rest.substr(0, total), out)) break;
    at += total;
  }
  pending_.erase(0, at);
  return out;
}

bool AwsEventStreamReader::take_message(std::string_view message, std::vector<SseEvent>& out) {
  const std::size_t end = message.size() - kCrcBytes;
  if (crc32(message.substr(0, end)) != read_u32(message, end)) {
    problem_ = "an event-stream frame whose message CRC does not match";
    return false;
  }
  const std::size_t headers_end = kPreludeBytes + read_u32(message, 4);
  std::string message_type;
  std::string event_type;
  std::string exception_type;
  std::string error_message;
  for (std::size_t at = kPreludeBytes; at < headers_end;) {
    const std::size_t name_bytes = static_cast<unsigned char>(message[at]);
    if (at + 1 + name_bytes + 1 > headers_end) {
      problem_ = "an event-stream header runs past its frame's headers";
      return false;
    }
    const std::string_view name = message.substr(at + 1, name_bytes);
    at += 1 + name_bytes;
    const auto type = static_cast<unsigned char>(message[at++]);
    const int fixed = value_bytes(type);
    std::size_t size = static_cast<std::size_t>(fixed);
    if (fixed < 0) {
      problem_ = "an event-stream header of unknown type " + std::to_string(type);
      return false;
    }
    if (type == 6 || type == 7) {
      if (at + 2 > headers_end) {
        problem_ = "an event-stream header runs past its frame's headers";
        return false;
      }
      size = read_u16(message, at);
      at += 2;
    }
    if (at + size > headers_end) {
      problem_ = "an event-stream header runs past its frame's headers";
      return false;
    }
    if (type == 7) {
      const std::string value(message.substr(at, size));
      if (name == ":message-type") message_type = value;
      if (name == ":event-type") event_type = value;
      if (name == ":exception-type" || name == ":error-code") exception_type = value;
      if (name == ":error-message") error_message = value;
    }
    at += size;
  }
  std::string payload(message.substr(headers_end, end - headers_end));
  if (message_type == "exception" || message_type == "error") {
    if (message_type == "error") payload = nlohmann::json{{"message", error_message}}.dump();
    out.push_back(
        SseEvent{std::string(kExceptionEventPrefix) + exception_type, std::move(payload)});
  } else {
    out.push_back(SseEvent{std::move(event_type), std::move(payload)});
  }
  return true;
}

std::string aws_event_stream_message(
    const std::vector<std::pair<std::string, std::string>>& headers, std::string_view payload) {
  std::string header_bytes;
  for (const auto& [name, value] : headers) {
    header_bytes.push_back(static_cast<char>(name.size()));
    header_bytes += name;
    header_bytes.push_back(7);  // a string
    header_bytes.push_back(static_cast<char>(value.size() >> 8));
    header_bytes.push_back(static_cast<char>(value.size()));
    header_bytes += value;
  }
  std::string out;
  put_u32(out, static_cast<std::uint32_t>(kPreludeBytes + header_bytes.size() + payload.size() +
                                          kCrcBytes));
  put_u32(out, static_cast<std::uint32_t>(header_bytes.size()));
  put_u32(out, crc32(out));
  out += header_bytes;
  out += payload;
  put_u32(out, crc32(out));
  return out;
}

}  // namespace accord::detail
