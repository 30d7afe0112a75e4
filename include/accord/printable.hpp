#pragma once
// Text from outside (a reply, a provider's error message, a document's keys) made safe to print
// on a terminal or in a log: nothing in it can move the cursor, ring the bell, cut a line short
// or start a line of its own that looks like one of ours ("attempt 1: ...").

#include <string>
#include <string_view>

#include "accord/issue.hpp"

namespace accord {

// Valid UTF-8 (U+FFFD for bad bytes) with C0 controls, DEL and C1 controls escaped: newline,
// carriage return and tab as \n \r \t, the rest as \xHH (C1 as \u00HH). Printable text, including
// non-ASCII letters, is unchanged.
[[nodiscard]] std::string printable(std::string_view text);

// The issues with their messages and path keys made printable, for prettify() on a terminal.
[[nodiscard]] Issues printable(Issues issues);

// prettify() of the printable issues with every line starting with `indent`: a block of issues
// under a heading of its own ("line 3: invalid", "attempt 1: ...").
[[nodiscard]] std::string prettify_printable(const Issues& issues, std::string_view indent);

}  // namespace accord
