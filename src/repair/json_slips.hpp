#pragma once
// Reading JSON as its author meant it when it carries the slips JSON5 allows (trailing commas,
// comments, single-quoted strings, unquoted keys) and writing it out as strict JSON. Anything
// with a second reading or no JSON equivalent (NaN, Infinity, hex, a leading `+`) is refused.
#include <optional>
#include <string>
#include <string_view>

#include "accord/repair.hpp"

namespace accord::repair {

struct SlipRead {
  std::string json;     // the value as strict JSON text (not yet checked by a strict parser)
  std::size_t end = 0;  // just past the value in the text read
  Repairs slips;        // each slip written out, in text order
};

// The one JSON value starting at `at` in `text` (whitespace and comments before it skipped), or
// nullopt when none starts there or it cannot be read without guessing.
[[nodiscard]] std::optional<SlipRead> read_with_slips(std::string_view text, std::size_t at);

// `text` shortened for a Repair record: at most 120 bytes, cut on a UTF-8 boundary, with "…".
[[nodiscard]] std::string shortened(std::string_view text);

}  // namespace accord::repair
