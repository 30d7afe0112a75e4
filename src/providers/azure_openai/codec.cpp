// Azure OpenAI: Chat Completions through a resource's deployment URLs (`api-version`, `api-key`)
// or its `/openai/v1` surface (a bearer token, no api-version), with the content filter's signals
// read as content_filtered (docs/providers.md, "Azure OpenAI").

#include <cctype>
#include <cstdlib>

#include "providers/azure_openai/azure_openai.hpp"
#include "providers/lowering.hpp"
#include "providers/openai_chat/chat_completions.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

// The latest GA data-plane version when this was written; structured outputs need 2024-08-01-
// preview or later. OPENAI_API_VERSION (what the official SDKs read) overrides it.
constexpr const char* kDefaultApiVersion = "2024-10-21";

// Azure's structured-outputs guide still lists the first strict subset: no string formats,
// lengths, patterns' bounds, numeric bounds or item counts ("Unsupported type-specific
// keywords"), every property required, closed objects, anyOf, $defs and recursion, and the older
// size limits (../shared/docs/providers.md §3.1).
const SchemaCapabilities kAzureStrict{
    .family = "Azure OpenAI strict schemas",
    .formats = {},
    .numeric_bounds = false,
    .lengths = LengthSupport::words,
    .max_min_items = 0,
    .max_items = false,
    .all_of = false,
    .recursion = true,
    .defaults = false,
    .complex_patterns = false,
    .structured_enums = false,
    .all_required = true,
    .rule_branches = true,
    .size_limits =
        "100 properties, 5 levels of nesting, 15,000 characters of names and values, "
        "500 enum values (a string enum over 250 values: 7,500 characters)",
};

}  // namespace

const SchemaCapabilities& azure_strict_capabilities() {
  return kAzureStrict;
}

Reply with_azure_prompt_filter(Reply reply) {
  // A prompt the filter blocks is refused with 400 and code content_filter (innererror
  // ResponsibleAIPolicyViolation): the filter's verdict, not a failed request.
  if (reply.status == ReplyStatus::http_error && reply.error_code == "content_filter")
    reply.status = ReplyStatus::content_filtered;
  return reply;
}

bool azure_v1_surface(const CallSpec& call) {
  return call.base_url.ends_with("/openai/v1");
}

Headers azure_headers(const CallSpec& call) {
  // An Entra ID token (a JWT: "eyJ...") is always a bearer token; the v1 surface takes the key
  // that way too. Deployment URLs take a key in `api-key`.
  if (azure_v1_surface(call) || call.api_key.starts_with("eyJ")) return openai_headers(call);
  Headers headers{{"content-type", "application/json"}};
  if (!call.api_key.empty()) headers.emplace_back("api-key", call.api_key);
  return headers;
}

std::string azure_api_version(const char* fallback) {
  const char* version = std::getenv("OPENAI_API_VERSION");
  return version != nullptr && *version != '\0' ? version : fallback;
}

namespace {

// Does any category of a filter-results object say filtered (content_filter_results: hate,
// sexual, violence, self_harm, jailbreak, protected_material_*, ...)?
bool says_filtered(JsonView results) {
  for (const JsonMember& category : results.members_as_written()) {
    const auto filtered = category.value.find("filtered");
    if (filtered && filtered->get_bool()) return true;  // true only for `true`
  }
  return false;
}

bool prompt_filtered(JsonView body) {
  const auto prompts = body.find("prompt_filter_results");
  if (!prompts) return false;
  for (const JsonView prompt : prompts->items()) {
    if (const auto results = prompt.find("content_filter_results");
        results && says_filtered(*results))
      return true;
  }
  return false;
}

// learn.microsoft.com, "Use vision-enabled chat models": images of up to 20 MB, 10 a chat
// request, as a URL or a data: URL; no document input in Chat Completions.
const PartRules kAzureParts{
    .source = "Azure OpenAI's vision-enabled chat models page",
    .image_types = {"image/png", "image/jpeg", "image/webp", "image/gif"},
    .max_image_bytes = 20 * kMiB,
    .max_images = 10,
};

class AzureOpenAI final : public AzureResource<ChatCompletions> {
 public:
  AzureOpenAI() : api_version_(azure_api_version(kDefaultApiVersion)) {}

  [[nodiscard]] std::string_view name() const override { return "azure-openai"; }

  // OpenAI's, but for the service tier, which Azure's deployments set instead.
  [[nodiscard]] const ParameterPlaces& parameter_places() const override {
    static const ParameterPlaces kPlaces = [] {
      auto places = openai_chat_parameter_places();
      places.service_tier = nullptr;
      return places;
    }();
    return kPlaces;
  }

  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode mode) const override {
    return with_azure_prompt_filter(ChatCompletions::decode(response, mode));
  }

 protected:
  [[nodiscard]] const PartRules& part_rules() const override { return kAzureParts; }
  [[nodiscard]] std::string url(const CallSpec& call) const override {
    if (azure_v1_surface(call)) return call.base_url + "/chat/completions";
    return call.base_url + "/openai/deployments/" + path_segment(call.model) +
           "/chat/completions?api-version=" + api_version_;
  }

  [[nodiscard]] Headers headers(const CallSpec& call) const override { return azure_headers(call); }

  // A reply can also be stopped by the filter without finish_reason saying so: the choice's or
  // the prompt's annotations say filtered.
  [[nodiscard]] Ending ending(JsonView body, JsonView choice, std::string_view reason,
                              bool refused) const override {
    const Ending said = ChatCompletions::ending(body, choice, reason, refused);
    if (said != Ending::finished) return said;
    const auto results = choice.find("content_filter_results");
    const bool filtered = (results && says_filtered(*results)) || prompt_filtered(body);
    return filtered ? Ending::filtered : said;
  }

 private:
  std::string api_version_;
};

}  // namespace

// Streams as Chat Completions does; its Batch API is batches.cpp's.
const ProviderParts& azure_openai_parts() {
  static const ProviderParts kParts{
      .name = "azure-openai",
      .make = []() -> std::unique_ptr<Provider> { return std::make_unique<AzureOpenAI>(); },
      .stream = make_chat_stream,
      .ask_for_stream = ask_for_chat_stream,
      .batches = make_azure_batches,
  };
  return kParts;
}

}  // namespace accord::detail
