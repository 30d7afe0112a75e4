#pragma once
// Issues written as JSON text straight into a string: what to_json(issues) dumps, without building
// the tree (`accord validate --json` writes one array a document).

#include <string>

#include "accord/issue.hpp"

namespace accord {

// to_json(issues).dump(-1, ' ', false, error_handler_t::replace), appended to `out`: compact,
// bytes that are not UTF-8 replaced by U+FFFD as that dump replaces them.
void append_json(const Issues& issues, std::string& out);

}  // namespace accord
