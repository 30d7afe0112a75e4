#pragma once
// Writing JSON text as nlohmann's dump() writes it (compact, no ensure_ascii), from a string or a
// parsed document's view, so every writer of the project escapes alike.

#include <string>
#include <string_view>

#include "accord/json_view.hpp"

namespace accord::detail {

// `text`, valid UTF-8, escaped for a JSON string without the quotes: the short escapes
// (\" \\ \b \f \n \r \t), \u00xx in lower case for the other control characters, everything
// else (DEL and non-ASCII included) as it is.
void append_escaped_utf8(std::string_view text, std::string& out);

// `text`, any bytes, as dump() with the replace handler writes it inside a JSON string, without
// the quotes: valid UTF-8 as append_escaped_utf8 writes it, else each invalid sequence replaced by
// U+FFFD.
void append_json_escaped(std::string_view text, std::string& out);
// The same, in quotes: a JSON string as dump() with the replace handler writes it.
void append_json_string(std::string_view text, std::string& out);

// Which order an object's members are written in: by key (JsonView::dump, nlohmann::json's), or
// as the text gave them (nlohmann::ordered_json's).
enum class MemberOrder { key, text };

void dump_value(JsonView value, MemberOrder order, std::string& out);

}  // namespace accord::detail
