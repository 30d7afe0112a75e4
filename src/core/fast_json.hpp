#pragma once
// A quick JSON reader for the common case, in front of nlohmann's parser (which is the reference).
// It builds the same nlohmann::json value nlohmann would (same value types: unsigned for
// non-negative integers, signed for negative ones, double otherwise) but gives up, returning
// nullopt, on anything unusual: a byte-order mark, a duplicate key, an integer of 19 or more
// digits, a number out of double range, nesting deeper than `max_depth`, or any syntax or UTF-8
// error. The caller then parses with nlohmann, which produces the value or the error message.
// So a result from here is always what nlohmann returns; the reverse need not hold.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace accord::detail {

[[nodiscard]] std::optional<nlohmann::json> fast_parse_json(std::string_view text,
                                                            std::size_t max_depth);
// The same for an ordered_json (key order kept), as reply envelopes are read; it also gives up on
// an object of more than 64 members, which an ordered object would look up key by key.
[[nodiscard]] std::optional<nlohmann::ordered_json> fast_parse_ordered_json(std::string_view text,
                                                                            std::size_t max_depth);

}  // namespace accord::detail
