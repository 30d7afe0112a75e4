#pragma once
// Schema lowering shared by the provider profiles: a pure JSON -> JSON rewrite of what emit()
// writes (see EMIT_SPEC), recording every change in the Report. It never looks at the DSL.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "accord/providers/capabilities.hpp"
#include "accord/providers/lowering_bound.hpp"
#include "accord/providers/provider.hpp"

namespace accord::detail {

// A {"type": "null"} schema, and the index of X in a nullable wrapper {"anyOf": [X, {"type":
// "null"}]} (either order).
[[nodiscard]] bool is_null_schema(const nlohmann::ordered_json& node);
[[nodiscard]] std::optional<std::size_t> nullable_inner(const nlohmann::ordered_json& node);

// `stage` is the provider name written into the Report entries the lowering adds or changes.
// Throws SchemaError when inlining references would pass `bound`.
[[nodiscard]] WireSchema lower_schema(const nlohmann::ordered_json& emitted, Report report,
                                      const SchemaCapabilities& capabilities,
                                      const std::string& stage, const LoweringBound& bound = {});

}  // namespace accord::detail
