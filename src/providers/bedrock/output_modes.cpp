// The models AWS's Bedrock user guide ("Get validated JSON results from models", its supported
// models) lists for structured outputs, as their foundation model ids begin; checked model by
// model against models.dev's Bedrock entries, which follow that page. A model not listed keeps
// the forced tool, which every Converse model with tool use takes.

#include "providers/bedrock/output_modes.hpp"

#include <array>
#include <string>

namespace accord::detail {

namespace {

// Each entry is a foundation model id or the start of one up to a '-', ':' or the end, so
// "anthropic.claude-opus-4-5" takes "anthropic.claude-opus-4-5-20251101-v1:0" but not a
// "...-4-50".
constexpr std::array<std::string_view, 13> kNativeModels = {
    "anthropic.claude-haiku-4-5",
    "anthropic.claude-sonnet-4-5",
    "anthropic.claude-opus-4-5",
    "anthropic.claude-opus-4-6",
    "deepseek.v3-v1",  // DeepSeek-V3.1
    "google.gemma-3-27b-it",
    "mistral.magistral-small-2509",
    "mistral.ministral-3-8b-instruct",
    "mistral.mistral-large-3-675b-instruct",
    "mistral.voxtral-small-24b-2507",
    "moonshot.kimi-k2-thinking",
    "nvidia.nemotron-nano-12b-v2",
    "qwen.qwen3-32b",
};

bool entry_names(std::string_view entry, std::string_view model) {
  if (!model.starts_with(entry)) return false;
  const std::string_view rest = model.substr(entry.size());
  return rest.empty() || rest.front() == '-' || rest.front() == ':';
}

// Cross-region inference profiles put a geography before the provider's name.
constexpr std::array<std::string_view, 8> kGeographies = {"us.", "eu.", "apac.", "global.",
                                                          "jp.", "au.", "ca.",   "us-gov."};

}  // namespace

std::string_view bedrock_foundation_model(std::string_view model_id) {
  if (model_id.starts_with("arn:")) {
    const auto slash = model_id.rfind('/');
    if (slash == std::string_view::npos) return model_id;
    model_id.remove_prefix(slash + 1);
  }
  for (const std::string_view geography : kGeographies) {
    if (model_id.starts_with(geography)) return model_id.substr(geography.size());
  }
  return model_id;
}

ModelOutputMode bedrock_output_mode(std::string_view model_id) {
  const std::string_view model = bedrock_foundation_model(model_id);
  for (const std::string_view entry : kNativeModels) {
    if (entry_names(entry, model)) {
      return {OutputMode::response_format,
              "bedrock: " + std::string(model_id) + " takes native structured output"};
    }
  }
  const auto choices = bedrock_tool_choices(model_id);
  const std::string how =
      choices.any || choices.tool
          ? "forced tool: "
          : "output tool, offered without a toolChoice (the model takes none): ";
  return {OutputMode::forced_tool, "bedrock: " + how + std::string(model_id) +
                                       " is not listed for native structured output"};
}

BedrockToolChoices bedrock_tool_choices(std::string_view model_id) {
  const std::string_view model = bedrock_foundation_model(model_id);
  // An id that names no foundation model ("provider.model"), such as an application inference
  // profile, may stand for Claude: it keeps both, as a forced tool is what it most likely takes.
  if (model.find('.') == std::string_view::npos) return {.any = true, .tool = true};
  if (model.starts_with("anthropic.claude-")) return {.any = true, .tool = true};
  if (model.starts_with("mistral.mistral-large")) return {.any = true, .tool = false};
  if (model.starts_with("amazon.nova-")) return {.any = false, .tool = true};
  return {};
}

}  // namespace accord::detail
