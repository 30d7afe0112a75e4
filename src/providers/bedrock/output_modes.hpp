#pragma once
// Which Bedrock models take Converse's native structured output (outputConfig.textFormat) and
// which get the forced toolConfig tool instead.

#include <string_view>

#include "accord/providers/provider.hpp"

namespace accord::detail {

// The foundation model a Converse model id names: an ARN's resource after its last '/', without
// a cross-region inference profile's geography ("us.", "eu.", "global.", ...). An application
// inference profile or a provisioned model's ARN names none of its own: returned as given.
[[nodiscard]] std::string_view bedrock_foundation_model(std::string_view model_id);

// Native structured output for the models listed (providers.md, "bedrock"), the forced tool
// for every other one, with the reason in words.
[[nodiscard]] ModelOutputMode bedrock_output_mode(std::string_view model_id);

// The toolConfig.toolChoice members a model takes. AWS's ToolChoice reference: `tool` by Claude 3
// and later and Amazon Nova, `any` by Claude 3 and later and Mistral Large; other models refuse
// the field (a ValidationException) and get none, which is `auto`. An id naming no foundation
// model keeps both.
struct BedrockToolChoices {
  bool any = false;
  bool tool = false;
};
[[nodiscard]] BedrockToolChoices bedrock_tool_choices(std::string_view model_id);

}  // namespace accord::detail
