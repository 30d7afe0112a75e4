#include "converse_output.hpp"

namespace accord_mock {

namespace {

using nlohmann::json;

// The object at `key` of `parent`, or nullptr when either is not an object.
const json* object_at(const json* parent, const char* key) {
  if (parent == nullptr || !parent->is_object()) return nullptr;
  const auto found = parent->find(key);
  return found != parent->end() && found->is_object() ? &*found : nullptr;
}

}  // namespace

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
