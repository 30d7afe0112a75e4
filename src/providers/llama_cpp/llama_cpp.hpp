#pragma once
// What llama.cpp's JSON-Schema-to-grammar conversion keeps, for the servers that use it: the
// llama.cpp server itself and Ollama's `format`.

#include <string>

#include "accord/providers/capabilities.hpp"

namespace accord::detail {

// The table, with `family` naming the server in Report rows and `forces_tool` saying whether
// the server can be asked for one named tool.
[[nodiscard]] SchemaCapabilities llama_grammar_capabilities(std::string family, bool forces_tool);

}  // namespace accord::detail
