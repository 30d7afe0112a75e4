// vLLM's OpenAI-compatible server: Chat Completions at /v1/chat/completions, response_format
// json_schema through its structured-output backend. With xgrammar, a schema holding a keyword
// xgrammar cannot compile fails the request (vllm/v1/structured_output/backend_xgrammar.py,
// has_xgrammar_unsupported_json_features), so those keywords are never sent: they go to words.

#include "providers/generic/local_server.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

std::map<std::string, KeywordHandling, std::less<>> vllm_handling() {
  std::map<std::string, KeywordHandling, std::less<>> handling;
  // Rejected by the check above: multipleOf on numbers, uniqueItems and contains on arrays,
  // propertyNames and patternProperties beside properties.
  for (const char* keyword : {"multipleOf", "uniqueItems", "contains", "minContains", "maxContains",
                              "propertyNames", "patternProperties"}) {
    handling.emplace(keyword, KeywordHandling::rejected);
  }
  // Not among the keywords xgrammar's "Supported JSON Schema" page lists; not rejected by vLLM's
  // check, so compiled without them.
  for (const char* keyword :
       {"not", "if", "dependentSchemas", "dependentRequired", "minProperties", "maxProperties"}) {
    handling.emplace(keyword, KeywordHandling::skipped);
  }
  return handling;
}

SchemaCapabilities vllm_capabilities() {
  auto c = full_schema_capabilities("vLLM servers");
  c.keyword_handling = vllm_handling();
  // STRING_SUPPORTED_FORMATS there; any other format is rejected.
  c.formats = {"date",         "date-time",    "duration",
               "email",        "hostname",     "ipv4",
               "ipv6",         "json-pointer", "relative-json-pointer",
               "time",         "uri",          "uri-reference",
               "uri-template", "uuid"};
  c.other_formats = KeywordHandling::rejected;
  // "A string mixing a generative constraint (pattern or format) with explicit length bounds"
  // is rejected: xgrammar would drop the lengths.
  c.lengths_beside_pattern = KeywordHandling::rejected;
  // A named tool_choice is enforced by constraining to the tool's parameter schema.
  c.forces_tool = true;
  return c;
}

const SchemaCapabilities kVllm = vllm_capabilities();

// vLLM's multimodal inputs (docs.vllm.ai, "Multimodal Inputs"): image_url parts with an http(s)
// URL or a base64 data: URL; no document parts.
const PartRules kVllmParts{
    .source = "vLLM's multimodal inputs page",
    .image_types = {"image/png", "image/jpeg", "image/webp", "image/gif"},
};

const LocalServerProfile kVllmProfile{
    .name = "vllm",
    .api_key_env = "VLLM_API_KEY",
    .base_url_env = "VLLM_BASE_URL",
    .default_base_url = "http://127.0.0.1:8000/v1",
    .capabilities = &kVllm,
    .parts = &kVllmParts,
};

}  // namespace

const ProviderParts& vllm_parts() {
  static const ProviderParts kParts = local_server_parts("vllm", []() -> std::unique_ptr<Provider> {
    return std::make_unique<LocalServer>(kVllmProfile);
  });
  return kParts;
}

}  // namespace accord::detail
