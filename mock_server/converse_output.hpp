#pragma once
// Bedrock Converse's native structured output as accord-mock checks it: outputConfig.textFormat
// of type json_schema whose structure.jsonSchema carries the schema as a JSON string and a name.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace accord_mock {

// The ValidationException message for an outputConfig Bedrock would refuse; nullopt for a
// well-formed one, or none.
[[nodiscard]] std::optional<std::string> refused_output_config(const nlohmann::json& request);

// The ValidationException message for a toolConfig.toolChoice the model in `target` (the
// request's path, /model/{id}/converse) would refuse; nullopt when it takes it, or none is sent.
[[nodiscard]] std::optional<std::string> refused_tool_choice(std::string_view target,
                                                             const nlohmann::json& request);

}  // namespace accord_mock
