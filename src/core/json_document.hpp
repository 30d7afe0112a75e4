#pragma once
// What the library builds JsonDocuments from beyond accord/json_view.hpp's API.

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "accord/json_view.hpp"

namespace accord::detail {

// A tree whose objects keep their members in the order the text gave them (an ordered_json, as
// reply envelopes are read) to a tape in that order: a dump in text order (core/json_dump.hpp)
// writes the members back as they came, while members() still gives them in key order. A key
// repeated in the text is already one member there (nlohmann keeps the last value, at the place
// of the first).
[[nodiscard]] JsonDocument document_from_ordered_json(const nlohmann::ordered_json& value);

// parse_document(text, limits) into `into`, which holds the document when the text parsed (its
// buffers from the thread's pool: JsonDocument::Pool) and nothing otherwise: a caller that keeps
// the document in an optional of its own (a ValidationResult) moves it once, into that optional.
[[nodiscard]] Issues parse_document_into(std::string_view text, ParseLimits limits,
                                         std::optional<JsonDocument>& into);

// parse_document(text, limits) for a document read only through find(), items() and
// members_as_written(), as a reply's envelope is (its codec picks a few members out): the
// members of an object of up to 16 are left in the text's order, not put in key order, so
// members() gives them in that order there and is not to be called on this document. A key
// repeated in an object is caught all the same (its keys are sorted, or their shape known, as
// parse_document's are), and the text then read by nlohmann, as parse_document reads it.
// members() (and what walks it: validation, to_json(), dump() in key order) would give such an
// object's members in the text's order and a larger one's in key order: only find() and
// members_as_written() are exact.
[[nodiscard]] ParsedDocument parse_document_unordered(std::string_view text, ParseLimits limits);

}  // namespace accord::detail
