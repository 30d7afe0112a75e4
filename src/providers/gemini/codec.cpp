// The Gemini API's generateContent: generationConfig.responseJsonSchema, or a function forced
// with functionCallingConfig mode ANY; the candidate's finishReason and the prompt's blockReason
// read before its parts (providers.md, "Gemini"). Vertex AI's URL form is a base-URL variant.

#include <algorithm>
#include <array>

#include "providers/content_parts.hpp"
#include "providers/gemini/gemini.hpp"
#include "providers/lowering.hpp"
#include "providers/parameters.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

// What responseJsonSchema (and parametersJsonSchema) honour: the
// GenerationConfig.responseJsonSchema doc in googleapis/js-genai src/types.ts lists $id, $defs,
// $ref, $anchor, type, format, title, description, enum (strings and numbers), items, prefixItems,
// minItems, maxItems, minimum, maximum, anyOf, oneOf (read as anyOf), properties,
// additionalProperties and required; the rest is ignored, so it goes in words.
// ai.google.dev/gemini-api/docs/structured-output names the string formats (date-time, date, time).
const SchemaCapabilities kGemini{
    .family = "Gemini response schemas",
    .formats = {"date-time", "date", "time"},
    // minimum and maximum are listed, but exclusive bounds and multipleOf are not, and the table
    // has one switch for all four: words for every bound keep the Report true.
    .numeric_bounds = false,
    .lengths = LengthSupport::words,  // minLength/maxLength are not listed
    .max_min_items = -1,
    .max_items = true,
    .all_of = false,  // not listed
    // Cyclic $refs are unrolled "to a limited degree" and only in optional properties: accord
    // unrolls them itself, so the Report says how deep.
    .recursion = false,
    .defaults = false,  // not listed
    .complex_patterns = false,
    .patterns = false,          // not listed
    .structured_enums = false,  // enum of strings and numbers only
    .all_required = false,
    .rule_branches = false,
    .size_limits =
        "the schema counts against the input tokens; very large or deeply nested schemas are "
        "refused with 400 INVALID_ARGUMENT",
    // $defs and $ref are listed; "a node with $ref may only have other $-prefixed keys".
    .references = true,
    .bare_references = true,
};

// A call the reply carried without an id (the Gemini API leaves it out) gets one of these, so
// tool results can find it; it is not sent back as an id.
constexpr std::string_view kMadeUpId = "accord-gemini-call-";

ojson text_part(const std::string& text) {
  return {{"text", text}};
}

ojson model_parts(const Turn& turn) {
  // The parts exactly as received keep thought signatures, which Gemini 3 requires back.
  if (turn.raw.is_array()) return message_items(turn.raw);
  ojson parts = ojson::array();
  if (!turn.text.empty() || turn.tool_calls.empty()) parts.push_back(text_part(turn.text));
  for (const auto& call : turn.tool_calls) {
    ojson args = ojson::parse(call.arguments_text, nullptr, false);
    if (args.is_discarded() || !args.is_object()) args = ojson::object();
    ojson function{{"name", call.name}, {"args", std::move(args)}};
    if (!call.id.starts_with(kMadeUpId)) function["id"] = call.id;
    parts.push_back({{"functionCall", std::move(function)}});
  }
  return parts;
}

// A function's result must be an object: a result that is one goes as is, other text under
// "output"; a failed one goes under "error" (the keys the docs name for them).
ojson function_response(const ToolResult& result) {
  ojson value = ojson::parse(result.content, nullptr, false);
  const bool object = !value.is_discarded() && value.is_object();
  ojson response = result.is_error ? ojson{{"error", object ? value : ojson(result.content)}}
                   : object ? std::move(value)
                                   : ojson{{"output", result.content}};
  ojson function{{"name", result.name}};
  if (!result.call_id.empty() && !result.call_id.starts_with(kMadeUpId)) {
    function["id"] = result.call_id;
  }
  function["response"] = std::move(response);
  return {{"functionResponse", std::move(function)}};
}

// Adds parts to the last content when it is the same role's (a correction after tool results),
// else as a new content.
void add_parts(ojson& contents, const char* role, ojson parts) {
  if (!contents.empty() && contents.back()["role"] == role) {
    for (auto& part : parts) contents.back()["parts"].push_back(std::move(part));
  } else {
    contents.push_back({{"role", role}, {"parts", std::move(parts)}});
  }
}

// ai.google.dev/gemini-api/docs: image understanding (PNG, JPEG, WebP, HEIC, HEIF), document
// understanding (PDF), and inline data of up to 100 MB a request (raised from 20 MB in 2026);
// fileData takes a URL with its mimeType.
const PartRules kGeminiParts{
    .source = "the Gemini API's image and document understanding guides",
    .image_types = {"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"},
    .document_types = {"application/pdf", "text/plain"},
    .max_image_bytes = 100 * kMiB,
    .max_document_bytes = 100 * kMiB,
    .url_needs_media_type = true,
};

ojson media_part(const ContentPart& part) {
  if (part.kind == ContentPart::Kind::text) return text_part(part.text);
  if (part.is_url()) return {{"fileData", {{"mimeType", part.media_type}, {"fileUri", part.url}}}};
  return {{"inlineData", {{"mimeType", part.media_type}, {"data", base64_of(part)}}}};
}

ojson user_parts(const Turn& turn) {
  ojson parts = ojson::array();
  if (!turn.text.empty() || turn.parts.empty()) parts.push_back(text_part(turn.text));
  for (const auto& part : turn.parts) parts.push_back(media_part(part));
  return parts;
}

ojson gemini_contents(const CallSpec& call) {
  ojson contents = ojson::array();
  for (const auto& turn : call.turns) {
    switch (turn.role) {
      case Turn::Role::system:
        break;  // systemInstruction
      case Turn::Role::user:
        add_parts(contents, "user", user_parts(turn));
        break;
      case Turn::Role::assistant:
        add_parts(contents, "model", model_parts(turn));
        break;
      case Turn::Role::tool_results: {
        ojson parts = ojson::array();
        for (const auto& result : turn.results) parts.push_back(function_response(result));
        add_parts(contents, "user", std::move(parts));
        break;
      }
    }
  }
  return contents;
}

ojson declaration(const std::string& name, const std::string& description, const ojson& schema) {
  ojson out{{"name", name}};
  if (!description.empty()) out["description"] = description;
  out["parametersJsonSchema"] = schema;
  return out;
}

// Vertex AI's base URL names a project and location
// (https://{location}-aiplatform.googleapis.com/v1/projects/{p}/locations/{l}); its models sit
// under publishers/google and its token is a bearer token.
bool is_vertex(const std::string& base_url) {
  return base_url.find("/projects/") != std::string::npos &&
         base_url.find("/locations/") != std::string::npos;
}

// The base URL as given when it ends in an API version, else with /v1: the stable surface, which
// serves structured output and function calling (ai.google.dev/gemini-api/docs/api-versions) and
// is what the official @google/genai 3.x SDK calls by default.
std::string versioned(const std::string& base_url) {
  const auto slash = base_url.rfind('/');
  const std::string_view last =
      std::string_view(base_url).substr(slash == std::string::npos ? 0 : slash + 1);
  const bool has_version = last.size() >= 2 && last[0] == 'v' && last[1] >= '0' && last[1] <= '9';
  return has_version ? base_url : base_url + "/v1";
}

std::string model_url(const CallSpec& call) {
  std::string model = call.model;
  if (model.starts_with("models/")) model.erase(0, 7);
  if (is_vertex(call.base_url)) {
    return call.base_url + "/publishers/google/models/" + model + ":generateContent";
  }
  return versioned(call.base_url) + "/models/" + model + ":generateContent";
}

Usage gemini_usage(JsonView body) {
  Usage usage;
  const auto u = body.find("usageMetadata");
  if (!u || !u->is_object()) return usage;
  const auto [prompt, tool_use_prompt, candidates, thoughts, total, cached] =
      members_named<6>(*u, {"promptTokenCount", "toolUsePromptTokenCount", "candidatesTokenCount",
                            "thoughtsTokenCount", "totalTokenCount", "cachedContentTokenCount"});
  // Cached tokens are part of promptTokenCount; thinking is output beside the candidates.
  usage.input_tokens = token_count(prompt) + token_count(tool_use_prompt);
  usage.output_tokens = token_count(candidates) + token_count(thoughts);
  usage.total_tokens = token_count(total);
  usage.cache_read_input_tokens = token_count(cached);
  if (usage.total_tokens == 0) usage.total_tokens = usage.input_tokens + usage.output_tokens;
  return usage;
}

// A non-2xx reply: Google's envelope names the kind of error in `status` (RESOURCE_EXHAUSTED),
// which says more than the number in `code`.
Reply google_error(const HttpResponse& response) {
  Reply reply = http_error_reply(response);
  std::string problem;
  const auto body = parse_body(response.body, problem);
  if (body && body->is_object()) {
    if (const auto e = body->find("error"); e != body->end() && e->is_object()) {
      if (std::string status = string_or_empty(*e, "status"); !status.empty()) {
        reply.error_code = std::move(status);
      }
    }
  }
  return reply;
}

// finishReason values that mean a filter stopped the candidate (the docs' FinishReason enum).
bool is_filtered(std::string_view reason) {
  static constexpr std::array<std::string_view, 8> kFiltered = {"SAFETY",
                                                                "RECITATION",
                                                                "BLOCKLIST",
                                                                "PROHIBITED_CONTENT",
                                                                "SPII",
                                                                "IMAGE_SAFETY",
                                                                "IMAGE_PROHIBITED_CONTENT",
                                                                "IMAGE_RECITATION"};
  return std::find(kFiltered.begin(), kFiltered.end(), reason) != kFiltered.end();
}

// finishReason values that mean the model's function call went wrong.
bool is_call_failure(std::string_view reason) {
  return reason == "MALFORMED_FUNCTION_CALL" || reason == "UNEXPECTED_TOOL_CALL" ||
         reason == "TOO_MANY_TOOL_CALLS";
}

// All in generationConfig; a reasoning effort is Gemini 3's thinkingLevel.
const ParameterPlaces kGeminiPlaces{
    .temperature = "/generationConfig/temperature",
    .top_p = "/generationConfig/topP",
    .seed = "/generationConfig/seed",
    .stop = "/generationConfig/stopSequences",
    .reasoning_effort = "/generationConfig/thinkingConfig/thinkingLevel",
    .thinking_budget = "/generationConfig/thinkingConfig/thinkingBudget",
};

class Gemini final : public Provider {
 public:
  [[nodiscard]] std::string_view name() const override { return "gemini"; }
  [[nodiscard]] std::string_view telemetry_name() const override { return "gcp.gemini"; }
  [[nodiscard]] std::string_view api_key_env() const override { return "GEMINI_API_KEY"; }
  // The official SDKs read GOOGLE_API_KEY too.
  [[nodiscard]] std::string_view api_key_fallback_env() const override { return "GOOGLE_API_KEY"; }
  [[nodiscard]] std::string_view base_url_env() const override { return "GEMINI_BASE_URL"; }
  [[nodiscard]] std::string_view default_base_url() const override {
    return "https://generativelanguage.googleapis.com";
  }
  [[nodiscard]] std::string_view default_model() const override { return "gemini-2.5-flash"; }

  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override { return kGemini; }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override {
    return lower_schema(emitted, std::move(report), kGemini, std::string(name()));
  }

  [[nodiscard]] HttpRequest encode(const CallSpec& call) const override {
    check_parts(call, kGeminiParts, name());
    ojson body{{"contents", gemini_contents(call)}};
    if (const std::string system = system_text(call); !system.empty()) {
      body["systemInstruction"] = {{"parts", ojson::array({text_part(system)})}};
    }
    const bool forced = call.output && call.mode == OutputMode::forced_tool;
    ojson declarations = ojson::array();
    for (const auto& t : call.tools) {
      declarations.push_back(declaration(t.name, t.description, t.input.schema));
    }
    if (forced) {
      declarations.push_back(
          declaration(output_name(call), kOutputToolDescription, output_schema(call)));
    }
    if (!declarations.empty()) {
      body["tools"] = ojson::array({{{"functionDeclarations", std::move(declarations)}}});
      if (forced) {
        body["toolConfig"] = {
            {"functionCallingConfig",
             {{"mode", "ANY"}, {"allowedFunctionNames", ojson::array({output_name(call)})}}}};
      } else if (call.tool_required) {
        // ANY with no names: the model must call one of the declared functions.
        body["toolConfig"] = {{"functionCallingConfig", {{"mode", "ANY"}}}};
      }
    }
    ojson config{{"maxOutputTokens", call.max_tokens}};
    if (call.output && !forced) {
      config["responseMimeType"] = "application/json";
      config["responseJsonSchema"] = output_schema(call);
    }
    body["generationConfig"] = std::move(config);

    Headers headers{{"content-type", "application/json"}};
    if (!call.api_key.empty()) {
      if (is_vertex(call.base_url)) {
        headers.emplace_back("authorization", "Bearer " + call.api_key);
      } else {
        headers.emplace_back("x-goog-api-key", call.api_key);
      }
    }
    apply_parameters(body, headers, call, kGeminiPlaces, name());
    return {model_url(call), std::move(headers), serialize_request(body, call)};
  }

  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode mode) const override {
    if (!is_success(response.status)) return google_error(response);
    Reply failure;
    const auto document = reply_document(response, failure);
    if (!document) return failure;
    const JsonView body = document->root();
    const Usage usage = gemini_usage(body);
    // A blocked prompt has feedback and no candidates: the request was refused before any
    // output, and asking again gets the same answer.
    if (const auto feedback = body.find("promptFeedback"); feedback && feedback->is_object()) {
      if (const std::string block = string_or_empty(*feedback, "blockReason"); !block.empty()) {
        Reply reply;
        reply.usage = usage;
        reply.detail = block;
        set_assistant_turn(reply, "", ProviderMessage(ojson::array()));
        std::string words = string_or_empty(*feedback, "blockReasonMessage");
        if (words.empty()) words = "the prompt was blocked (" + block + ")";
        set_ending(reply, Ending::refused, mode, "", std::move(words));
        return reply;
      }
    }
    const auto candidates = body.find("candidates");
    if (auto error = error_in_success(body, candidates)) return *std::move(error);
    const auto fail = [&](std::string detail) { return bad_reply(std::move(detail), usage); };
    if (!candidates || !candidates->is_array() || candidates->size() == 0) {
      return fail("the reply has no candidates");
    }
    const JsonView candidate = *candidates->items().begin();
    if (!candidate.is_object()) return fail("a candidate is not an object");
    std::optional<JsonView> parts;  // none: an empty list
    if (const auto content = candidate.find("content")) {
      if (!content->is_object()) return fail("a candidate's content is not an object");
      if (const auto p = content->find("parts")) {
        if (!p->is_array()) return fail("a candidate's parts are not an array");
        parts = p;
      }
    }

    Reply reply;
    reply.usage = usage;
    std::string text;
    for (const JsonView part : parts ? parts->items() : candidate.items()) {  // an object: none
      if (!part.is_object()) return fail("a part is not an object");
      // A thought summary is the model's reasoning, not its answer.
      if (const auto thought = part.find("thought"); thought && thought->get_bool()) continue;
      if (const auto t = part.find("text"); t && t->is_string()) {
        text += t->get_string();
      } else if (const auto call = part.find("functionCall")) {
        if (!call->is_object()) return fail("a functionCall is not an object");
        const auto args = call->find("args");
        const std::string arguments = args ? serialize(*args) : "{}";
        std::string id = string_or_empty(*call, "id");
        if (id.empty()) id = std::string(kMadeUpId) + std::to_string(reply.tool_calls.size());
        reply.tool_calls.push_back({std::move(id), string_or_empty(*call, "name"), arguments});
      }
      // inlineData, executableCode and the like carry no output here
    }
    set_assistant_turn(reply, text,
                       parts ? ProviderMessage(document, *parts) : ProviderMessage(ojson::array()));

    const std::string finish = string_or_empty(candidate, "finishReason");
    reply.detail = finish;
    if (is_call_failure(finish)) {
      std::string words = string_or_empty(candidate, "finishMessage");
      return fail("the model's function call failed (" + finish + ")" +
                  (words.empty() ? "" : ": " + words));
    }
    const Ending ending = finish == "MAX_TOKENS" ? Ending::cut_off
                          : is_filtered(finish)  ? Ending::filtered
                                                 : Ending::finished;
    set_ending(reply, ending, mode, std::move(text));
    return reply;
  }
};

}  // namespace

const ProviderParts& gemini_parts() {
  static const ProviderParts kParts{
      .name = "gemini",
      .make = []() -> std::unique_ptr<Provider> { return std::make_unique<Gemini>(); },
      .stream = make_gemini_stream,
      .ask_for_stream = nullptr,
      .batches = make_gemini_batches,
      .stream_request = ask_for_gemini_stream,
  };
  return kParts;
}

}  // namespace accord::detail
