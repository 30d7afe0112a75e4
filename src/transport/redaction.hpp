#pragma once
// The one redaction every record and message passes through. A hostile server can echo a key
// back as plain text or with JSON escapes (`sk\u002d...`, doubly escaped inside content that is
// itself JSON text), so a match allows each character of the secret in either form.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace accord::detail {

inline constexpr std::string_view kRedacted = "[redacted]";

// `text` with every occurrence of `secret` (each character plain or written as a `\uXXXX`
// escape behind one or more backslashes) replaced by "[redacted]". Secrets shorter than 4
// characters (and such parts, see secret_spans) are left alone: replacing them would shred
// ordinary text. Linear in practice:
// a candidate is abandoned at its first differing character.
[[nodiscard]] std::string redact_secret(std::string text, std::string_view secret);
// The same on `text` itself: a record redacted for several secrets is not moved in and out of
// each.
void redact_in_place(std::string& text, std::string_view secret);

// Where redact_secret would replace `secret` in `text`: {start, end} byte spans, in order. A
// secret made of parts joined with ':' (AWS credentials) is also matched part by part.
using Spans = std::vector<std::pair<std::size_t, std::size_t>>;
[[nodiscard]] Spans secret_spans(std::string_view text, std::string_view secret);
// `text` with each of `spans` (in order, apart) replaced by "[redacted]".
[[nodiscard]] std::string redact_spans(std::string_view text, const Spans& spans);

}  // namespace accord::detail
