#pragma once
// Following a schema's local `$ref`s ("#/$defs/x", "#/definitions/x", any "#/pointer") to the
// schema they name, for code that walks a JSON Schema document by hand.

#include <nlohmann/json.hpp>

namespace accord::detail {

// `schema` with its `$ref`s followed inside `root`, or nullptr for a ref that leaves the document
// or names nothing there (and for refs that go round).
[[nodiscard]] const nlohmann::ordered_json* resolve_local_ref(const nlohmann::ordered_json* schema,
                                                              const nlohmann::ordered_json& root);

}  // namespace accord::detail
