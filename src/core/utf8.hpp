#pragma once
// Text that came off the wire is not always UTF-8 (a hostile body, a cut at a byte limit); JSON
// output of it must never throw, so records are made valid before they are kept or rendered.

#include <optional>
#include <string>
#include <string_view>

namespace accord::detail {

[[nodiscard]] bool is_valid_utf8(std::string_view text);
// The code points of `text`; nullopt when it is not well-formed UTF-8.
[[nodiscard]] std::optional<std::u32string> decode_utf8(std::string_view text);
// `text` with every ill-formed sequence replaced by U+FFFD; unchanged when already valid.
[[nodiscard]] std::string valid_utf8(std::string_view text);

}  // namespace accord::detail
