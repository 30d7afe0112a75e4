#pragma once
// Schema lowering shared by the provider profiles: a pure JSON -> JSON rewrite of what emit()
// writes (see EMIT_SPEC), recording every change in the Report. It never looks at the DSL.

#include <nlohmann/json.hpp>
#include <string>

#include "accord/providers/provider.hpp"

namespace accord::detail {

enum class LoweringTarget {
  openai_strict,  // OpenAI Structured Outputs with strict: true (chat and responses)
  anthropic,      // Anthropic structured outputs / strict tools
  generic,        // OpenAI-compatible local servers: the full schema, strict is a hint
};

// `stage` is the provider name written into the Report entries the lowering adds or changes.
[[nodiscard]] WireSchema lower_schema(const nlohmann::ordered_json& emitted, Report report,
                                      LoweringTarget target, const std::string& stage);

}  // namespace accord::detail
