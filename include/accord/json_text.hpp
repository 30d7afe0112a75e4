#pragma once
// Parsing untrusted JSON text: a depth and size limit before anything else touches the value.

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "accord/issue.hpp"

namespace accord {

struct ParseLimits {
  std::size_t max_depth = 256;              // nesting of arrays and objects
  std::size_t max_bytes = 8 * 1024 * 1024;  // of the text
  // A key repeated in one object makes the text an issue instead of keeping the last value:
  // readers disagree on which one counts (a reply is checked so; see docs/loop.md#streaming).
  bool refuse_repeated_keys = false;
};

struct ParsedJson {
  std::optional<nlohmann::json> value;  // set when the text parsed
  Issues issues;                        // one invalid_json issue otherwise, saying where and why
};

// Never throws on bad input; numbers too large for a double become an issue, not an exception.
[[nodiscard]] ParsedJson parse_json(std::string_view text, ParseLimits limits = {});

// JSON text as an ordered_json (key order kept, as schema files and reply envelopes need) in
// time linear in the number of keys: ordered_json::parse checks each new key against all the
// earlier ones of its object (100,000 keys took 13 s). A repeated key keeps its first place and
// its last value, as ordered_json::parse does. Throws nlohmann::json::parse_error on bad text,
// or returns a discarded value when `allow_exceptions` is false.
[[nodiscard]] nlohmann::ordered_json parse_ordered_json(std::string_view text,
                                                        bool allow_exceptions = true);

}  // namespace accord
