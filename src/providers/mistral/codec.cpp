// Mistral's chat completions (api.mistral.ai/v1): the OpenAI shape with response_format
// json_schema + strict, forced tools through tool_choice, and its own finish reasons
// (docs/providers.md, "Mistral").

#include "providers/lowering.hpp"
#include "providers/mistral/mistral.hpp"
#include "providers/openai_chat/chat_completions.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

// Mistral's Custom Structured Outputs guide documents response_format json_schema with `strict`
// and shows objects with properties, required, items, enum and titles, but publishes no list of
// the keywords its decoder enforces. What it does not document is stated in words and checked
// locally rather than sent to a decoder that may drop it silently; optional properties stay
// optional (its SDKs send Pydantic and Zod schemas with them as they are).
const SchemaCapabilities kMistral{
    .family = "Mistral json_schema",
    .formats = {},
    .numeric_bounds = false,
    .lengths = LengthSupport::words,
    .max_min_items = 0,
    .max_items = false,
    .all_of = false,
    .recursion = false,
    .defaults = false,
    .complex_patterns = false,
    .structured_enums = false,
    .all_required = false,
    .rule_branches = false,
    .size_limits = "none documented",
};

// docs.mistral.ai, Vision (PNG, JPEG, WebP, non-animated GIF; 10 MB an image, 8 a request) and
// Document QnA / OCR (document_url with a URL or a data: URL; 50 MB a document).
const PartRules kMistralParts{
    .source = "Mistral's vision and document QnA guides",
    .image_types = {"image/png", "image/jpeg", "image/webp", "image/gif"},
    .document_types = {"application/pdf"},
    .max_image_bytes = 10 * kMiB,
    .max_document_bytes = 50 * kMiB,
    .max_images = 8,
};

class Mistral final : public ChatCompletions {
 public:
  [[nodiscard]] std::string_view name() const override { return "mistral"; }
  [[nodiscard]] std::string_view telemetry_name() const override { return "mistral_ai"; }
  [[nodiscard]] std::string_view api_key_env() const override { return "MISTRAL_API_KEY"; }
  [[nodiscard]] std::string_view base_url_env() const override { return "MISTRAL_BASE_URL"; }
  [[nodiscard]] std::string_view default_base_url() const override {
    return "https://api.mistral.ai/v1";
  }
  [[nodiscard]] std::string_view default_model() const override { return "mistral-small-latest"; }
  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override { return kMistral; }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override {
    return lower_schema(emitted, std::move(report), kMistral, std::string(name()));
  }

  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode mode) const override {
    Reply reply = ChatCompletions::decode(response, mode);
    // finish_reason "error": the generation failed on Mistral's side; what arrived is not an
    // answer, and the tokens were still spent.
    if (reply.status != ReplyStatus::http_error && reply.status != ReplyStatus::bad_reply &&
        reply.detail == "error") {
      Reply failed =
          bad_reply("the model's generation failed (finish_reason \"error\")", reply.usage);
      failed.error_code = "error";
      return failed;
    }
    return reply;
  }

 protected:
  // Sampling and stop sequences only; the seed is `random_seed`.
  [[nodiscard]] const ParameterPlaces& parameter_places() const override {
    static const ParameterPlaces kPlaces{
        .temperature = "/temperature", .top_p = "/top_p", .seed = "/random_seed", .stop = "/stop"};
    return kPlaces;
  }
  // Mistral's request field; it has no max_completion_tokens.
  [[nodiscard]] const char* max_tokens_field() const override { return "max_tokens"; }
  [[nodiscard]] const PartRules& part_rules() const override { return kMistralParts; }
  // image_url is the URL itself, not an object; documents are document_url chunks.
  [[nodiscard]] ojson content_part(const ContentPart& part, std::size_t n) const override {
    const std::string address = part.is_url() ? part.url : data_url(part);
    if (part.kind == ContentPart::Kind::image)
      return {{"type", "image_url"}, {"image_url", address}};
    if (part.kind == ContentPart::Kind::document)
      return {{"type", "document_url"}, {"document_url", address}};
    return ChatCompletions::content_part(part, n);
  }

  // "model_length": the model's context ran out before its output did.
  [[nodiscard]] Ending ending(JsonView body, JsonView choice, std::string_view reason,
                              bool refused) const override {
    if (reason == "model_length") return Ending::cut_off;
    return ChatCompletions::ending(body, choice, reason, refused);
  }
};

}  // namespace

// Streams as Chat Completions does, with usage in the last chunk unasked: Mistral's request has
// no stream_options (its API refuses members it does not know). Its batch jobs are batches.cpp's.
const ProviderParts& mistral_parts() {
  static const ProviderParts kParts{
      .name = "mistral",
      .make = []() -> std::unique_ptr<Provider> { return std::make_unique<Mistral>(); },
      .stream = make_chat_stream,
      .ask_for_stream = nullptr,
      .batches = make_mistral_batches,
  };
  return kParts;
}

}  // namespace accord::detail
