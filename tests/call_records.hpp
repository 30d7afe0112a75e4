#pragma once
// What a test reads of a finished call: everything the library keeps about it, as one text to
// search (for a key that must not be there, a note that must).

#include <accord/client.hpp>
#include <string>

namespace call_records {

// The trace (JSON and text) and, for a failure, the error's message.
inline std::string records(const accord::Result<nlohmann::json>& result) {
  std::string out = result.trace().to_json().dump() + result.trace().to_text();
  if (!result.ok()) out += result.error().message;
  return out;
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace call_records
