#pragma once
// Bedrock Converse's native structured output as accord-mock checks it: outputConfig.textFormat
// of type json_schema whose structure.jsonSchema carries the schema as a JSON string and a name.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace accord_mock {

// The ValidationException message for an outputConfig Bedrock would refuse; nullopt for a
// well-formed one, or none.
[[nodiscard]] std::optional<std::string> refused_output_config(const nlohmann::json& request);

}  // namespace accord_mock
