// llama.cpp's server (llama-server): Chat Completions at /v1/chat/completions, response_format
// json_schema compiled into a GBNF grammar. Its converter (common/json-schema-to-grammar.cpp in
// ggml-org/llama.cpp, and the "known limitations" in its grammars/README.md) skips what it cannot
// do without an error, so those keywords go to words here, never silently relied on.

#include "providers/generic/local_server.hpp"
#include "providers/llama_cpp/llama_cpp.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

SchemaCapabilities llama_grammar_capabilities(std::string family, bool forces_tool) {
  std::map<std::string, KeywordHandling, std::less<>> handling;
  // Not in the converter at all: no rule is generated for them (README: "unsupported features
  // are skipped silently"; uniqueItems, contains, not, if/then/else, dependentSchemas,
  // patternProperties by name). prefixItems: "broken" there; a 2020-12 tuple's `items` wins.
  for (const char* keyword :
       {"multipleOf", "uniqueItems", "contains", "minContains", "maxContains", "not", "if",
        "dependentSchemas", "dependentRequired", "patternProperties", "propertyNames",
        "minProperties", "maxProperties", "prefixItems", "unevaluatedProperties",
        "unevaluatedItems"}) {
    handling.emplace(keyword, KeywordHandling::skipped);
  }
  auto c = full_schema_capabilities(std::move(family));
  c.keyword_handling = std::move(handling);
  // STRING_FORMAT_RULES and the uuid rule: the only formats with a grammar.
  c.formats = {"date", "date-time", "time", "uuid"};
  c.other_formats = KeywordHandling::skipped;
  // README: minimum/maximum/exclusive* "only supported for type integer".
  c.bounds_beside_numbers = KeywordHandling::skipped;
  // "Pattern must start with '^' and end with '$'": a conversion error fails the request.
  c.unanchored_patterns = KeywordHandling::rejected;
  // One rule per string node: a pattern or a known format wins over minLength/maxLength.
  c.lengths_beside_pattern = KeywordHandling::skipped;
  c.size_limits = "none documented; bounds and repeat counts grow the grammar";
  c.forces_tool = forces_tool;
  return c;
}

namespace {

// A named tool_choice is not among the choices its chat templates document ("auto", "none",
// "required"), so a forced tool is not known to be honoured.
const SchemaCapabilities kLlamaCpp = llama_grammar_capabilities("llama.cpp servers", false);

// llama-server's multimodal support (tools/server/README.md, tools/mtmd): images in image_url as
// base64 data: URLs, with a vision model loaded; no documents.
const PartRules kLlamaCppParts{
    .source = "llama-server's README",
    .image_types = {"image/png", "image/jpeg", "image/webp", "image/gif"},
    .image_urls = false,
};

const LocalServerProfile kLlamaCppProfile{
    .name = "llama-cpp",
    .api_key_env = "LLAMA_API_KEY",
    .base_url_env = "LLAMA_CPP_BASE_URL",
    .default_base_url = "http://127.0.0.1:8080/v1",
    .capabilities = &kLlamaCpp,
    .parts = &kLlamaCppParts,
};

}  // namespace

const ProviderParts& llama_cpp_parts() {
  static const ProviderParts kParts =
      local_server_parts("llama-cpp", []() -> std::unique_ptr<Provider> {
        return std::make_unique<LocalServer>(kLlamaCppProfile);
      });
  return kParts;
}

}  // namespace accord::detail
