// Any other OpenAI-compatible server: Chat Completions with the whole JSON Schema. Which keywords
// its grammar keeps is not known, so each value constraint is sent and also stated in words, and
// the Report says none is known to be enforced (providers.md, "Local servers").

#include "providers/generic/local_server.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

// The value constraints, where grammar converters differ: which of them this server enforces is
// not known. Structure (type, properties, required, enum, const, anyOf, items) every converter
// compiles.
SchemaCapabilities generic_capabilities() {
  auto c = full_schema_capabilities("OpenAI-compatible servers");
  for (const char* keyword : {"minimum",
                              "maximum",
                              "exclusiveMinimum",
                              "exclusiveMaximum",
                              "multipleOf",
                              "minLength",
                              "maxLength",
                              "pattern",
                              "minItems",
                              "maxItems",
                              "uniqueItems",
                              "contains",
                              "minContains",
                              "maxContains",
                              "minProperties",
                              "maxProperties",
                              "not",
                              "if",
                              "dependentRequired",
                              "dependentSchemas",
                              "propertyNames",
                              "patternProperties"}) {
    c.keyword_handling.emplace(keyword, KeywordHandling::unknown);
  }
  c.other_formats = KeywordHandling::unknown;
  c.lengths = LengthSupport::not_guaranteed;
  c.size_limits = "not known; each server has its own grammar limits";
  // The tool choice is sent; whether the server honours it is not known.
  c.forces_tool = false;
  return c;
}

const SchemaCapabilities kGeneric = generic_capabilities();

// llama.cpp's server default port.
const LocalServerProfile kGenericProfile{
    .name = "generic",
    .api_key_env = "ACCORD_GENERIC_API_KEY",
    .base_url_env = "ACCORD_GENERIC_BASE_URL",
    .default_base_url = "http://127.0.0.1:8080/v1",
    .capabilities = &kGeneric,
};

}  // namespace

const ProviderParts& generic_parts() {
  static const ProviderParts kParts = local_server_parts(
      "generic",
      []() -> std::unique_ptr<Provider> { return std::make_unique<LocalServer>(kGenericProfile); });
  return kParts;
}

}  // namespace accord::detail
