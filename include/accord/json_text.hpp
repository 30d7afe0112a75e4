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
};

struct ParsedJson {
  std::optional<nlohmann::json> value;  // set when the text parsed
  Issues issues;                        // one invalid_json issue otherwise, saying where and why
};

// Never throws on bad input; numbers too large for a double become an issue, not an exception.
[[nodiscard]] ParsedJson parse_json(std::string_view text, ParseLimits limits = {});

}  // namespace accord
