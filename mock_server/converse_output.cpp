#include "converse_output.hpp"

#include <charconv>

namespace accord_mock {

namespace {

using nlohmann::json;

// The object at `key` of `parent`, or nullptr when either is not an object.
const json* object_at(const json* parent, const char* key) {
  if (parent == nullptr || !parent->is_object()) return nullptr;
  const auto found = parent->find(key);
  return found != parent->end() && found->is_object() ? &*found : nullptr;
}

// The model id in /model/{id}/converse, its percent-escapes decoded.
std::string model_in(std::string_view target) {
  constexpr std::string_view kModel = "/model/";
  if (!target.starts_with(kModel)) return {};
  target.remove_prefix(kModel.size());
  target = target.substr(0, target.find('/'));
  std::string id;
  for (std::size_t i = 0; i < target.size(); ++i) {
    unsigned byte = 0;
    if (target[i] == '%' && i + 2 < target.size() &&
        std::from_chars(target.data() + i + 1, target.data() + i + 3, byte, 16).ptr ==
            target.data() + i + 3) {
      id += static_cast<char>(byte);
      i += 2;
    } else {
      id += target[i];
    }
  }
  return id;
}

}  // namespace

std::optional<std::string> refused_tool_choice(std::string_view target, const json& request) {
  const json* choice = object_at(object_at(&request, "toolConfig"), "toolChoice");
  if (choice == nullptr || choice->contains("auto")) return std::nullopt;
  const std::string id = model_in(target);
  // An ARN's resource, or an id without a provider ("test-model"), could be any model: allowed.
  const std::string model = id.substr(id.rfind('/') == std::string::npos ? 0 : id.rfind('/') + 1);
  if (model.find('.') == std::string::npos) return std::nullopt;
  // ToolChoice in AWS's Bedrock API reference: `any` for Claude 3+ and Mistral Large, `tool`
  // for Claude 3+ and Amazon Nova.
  const bool claude = model.find("anthropic.claude") != std::string::npos;
  const bool takes_any = claude || model.find("mistral.mistral-large") != std::string::npos;
  const bool takes_tool = claude || model.find("amazon.nova") != std::string::npos;
  if (choice->contains("any") && !takes_any)
    return "toolConfig.toolChoice.any is not supported by " + id;
  if (choice->contains("tool") && !takes_tool)
    return "toolConfig.toolChoice.tool is not supported by " + id;
  return std::nullopt;
}

std::optional<std::string> refused_output_config(const json& request) {
  const auto config = request.find("outputConfig");
  if (config == request.end()) return std::nullopt;
  if (!config->is_object() || !config->contains("textFormat")) {
    return "outputConfig must be an object with a textFormat";
  }
  const json* format = object_at(&*config, "textFormat");
  if (format == nullptr || format->value("type", json()) != "json_schema") {
    return "outputConfig.textFormat must be an object of type json_schema";
  }
  const json* definition = object_at(object_at(format, "structure"), "jsonSchema");
  if (definition == nullptr) return "outputConfig.textFormat.structure.jsonSchema is required";
  // JsonSchemaDefinition.schema is a String: the schema serialised, not an object.
  const auto schema = definition->find("schema");
  if (schema == definition->end() || !schema->is_string()) {
    return "outputConfig.textFormat.structure.jsonSchema.schema must be a string";
  }
  const json parsed = json::parse(schema->get<std::string>(), nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return "outputConfig.textFormat.structure.jsonSchema.schema is not a JSON Schema object";
  }
  const auto name = definition->find("name");
  if (name == definition->end() || !name->is_string() || name->get<std::string>().empty()) {
    return "outputConfig.textFormat.structure.jsonSchema.name is required";
  }
  return std::nullopt;
}

}  // namespace accord_mock
