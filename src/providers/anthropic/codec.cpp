// Anthropic Messages: output_config.format json_schema, or a forced tool for models without
// structured outputs; content blocks read by type (providers.md §4).

#include <fmt/format.h>

#include <stdexcept>

#include "providers/anthropic/anthropic.hpp"
#include "providers/content_parts.hpp"
#include "providers/lowering.hpp"
#include "providers/parameters.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

// providers.md §4.1, "JSON Schema limitations".
const SchemaCapabilities kAnthropic{
    .family = "Anthropic structured outputs",
    .formats = {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6",
                "uuid"},
    .numeric_bounds = false,
    .lengths = LengthSupport::words,
    .max_min_items = 1,
    .max_items = false,
    .all_of = true,
    .recursion = false,
    .defaults = true,
    .complex_patterns = false,
    .structured_enums = false,
    .all_required = false,
    .rule_branches = false,
    .size_limits =
        "\"Schema is too complex\" past an undocumented size; reportedly 20 strict "
        "tools, 24 optional parameters and 16 union-typed parameters per request",
    // "$ref, $def and definitions, local only"; no recursion.
    .references = true,
};

ojson assistant_content(const Turn& turn) {
  // The content blocks exactly as received keep tool_use ids for the tool_result blocks.
  if (turn.raw.is_array()) return message_splice(turn.raw);
  if (turn.tool_calls.empty()) return ojson(turn.text);
  ojson blocks = ojson::array();
  if (!turn.text.empty()) blocks.push_back({{"type", "text"}, {"text", turn.text}});
  for (const auto& call : turn.tool_calls) {
    ojson input = ojson::parse(call.arguments_text, nullptr, false);
    if (input.is_discarded() || !input.is_object()) input = ojson::object();
    blocks.push_back(
        {{"type", "tool_use"}, {"id", call.id}, {"name", call.name}, {"input", std::move(input)}});
  }
  return blocks;
}

// docs.anthropic.com, Vision (JPEG, PNG, GIF, WebP; 5 MB an image through the API, 100 images a
// request) and PDF support (32 MB a request, base64 or URL sources).
const PartRules kAnthropicParts{
    .source = "Anthropic's vision and PDF support pages",
    .image_types = {"image/jpeg", "image/png", "image/gif", "image/webp"},
    .document_types = {"application/pdf"},
    .max_image_bytes = 5 * kMiB,
    .max_document_bytes = 32 * kMiB,
    .max_images = 100,
};

ojson content_block(const ContentPart& part) {
  if (part.kind == ContentPart::Kind::text) return {{"type", "text"}, {"text", part.text}};
  ojson source =
      part.is_url()
          ? ojson{{"type", "url"}, {"url", part.url}}
          : ojson{{"type", "base64"}, {"media_type", part.media_type}, {"data", base64_of(part)}};
  return {{"type", part.kind == ContentPart::Kind::image ? "image" : "document"},
          {"source", std::move(source)}};
}

// A user turn as content blocks: its text, then its parts.
ojson user_blocks(const Turn& turn) {
  ojson blocks = ojson::array();
  if (!turn.text.empty()) blocks.push_back({{"type", "text"}, {"text", turn.text}});
  for (const auto& part : turn.parts) blocks.push_back(content_block(part));
  return blocks;
}

ojson anthropic_messages(const CallSpec& call) {
  ojson out = ojson::array();
  for (const auto& turn : call.turns) {
    switch (turn.role) {
      case Turn::Role::system:
        break;  // top-level `system`
      case Turn::Role::user:
        // Text after tool results joins their user turn, which must start with the results.
        if (!out.empty() && out.back()["role"] == "user" && out.back()["content"].is_array()) {
          for (auto& block : user_blocks(turn)) out.back()["content"].push_back(std::move(block));
        } else if (turn.parts.empty()) {
          out.push_back({{"role", "user"}, {"content", turn.text}});
        } else {
          out.push_back({{"role", "user"}, {"content", user_blocks(turn)}});
        }
        break;
      case Turn::Role::assistant:
        out.push_back({{"role", "assistant"}, {"content", assistant_content(turn)}});
        break;
      case Turn::Role::tool_results: {
        ojson blocks = ojson::array();
        for (const auto& result : turn.results) {
          ojson block{{"type", "tool_result"},
                      {"tool_use_id", result.call_id},
                      {"content", result.content}};
          if (result.is_error) block["is_error"] = true;
          blocks.push_back(std::move(block));
        }
        out.push_back({{"role", "user"}, {"content", std::move(blocks)}});
        break;
      }
    }
  }
  return out;
}

ojson tool(const std::string& name, const std::string& description, const ojson& schema) {
  ojson out{{"name", name}};
  if (!description.empty()) out["description"] = description;
  out["input_schema"] = schema;
  return out;
}

// No seed and no reasoning effort; the end user is metadata.user_id.
const ParameterPlaces kAnthropicPlaces{
    .temperature = "/temperature",
    .top_p = "/top_p",
    .stop = "/stop_sequences",
    .thinking_budget = "/thinking",
    .thinking = ThinkingShape::enabled_block,
    .service_tier = "/service_tier",
    .user = "/metadata/user_id",
    .prompt_cache = true,
};

// An ephemeral cache_control on the system prompt, the last tool and the last block of the
// first user turn (the text to extract from): the prefix up to each is cached (at most 4 such
// points are allowed).
void mark_anthropic_cache_points(ojson& body) {
  const ojson ephemeral{{"type", "ephemeral"}};
  const auto text_blocks = [&](ojson& content) {
    if (content.is_string()) content = ojson::array({{{"type", "text"}, {"text", content}}});
    if (!content.empty()) content.back()["cache_control"] = ephemeral;
  };
  if (const auto system = body.find("system"); system != body.end()) text_blocks(*system);
  if (const auto tools = body.find("tools"); tools != body.end() && !tools->empty()) {
    tools->back()["cache_control"] = ephemeral;
  }
  auto& messages = body["messages"];
  if (const auto at = cached_message(messages)) text_blocks(messages[*at]["content"]);
}

class Anthropic final : public Provider {
 public:
  [[nodiscard]] std::string_view name() const override { return "anthropic"; }
  [[nodiscard]] std::string_view api_key_env() const override { return "ANTHROPIC_API_KEY"; }
  // The SDKs' ANTHROPIC_BASE_URL has no /v1; a base URL given with /v1 (as for OpenAI) works too.
  [[nodiscard]] std::string_view base_url_env() const override { return "ANTHROPIC_BASE_URL"; }
  [[nodiscard]] std::string_view default_base_url() const override {
    return "https://api.anthropic.com";
  }
  [[nodiscard]] std::string_view default_model() const override { return "claude-sonnet-4-5"; }

  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override {
    return kAnthropic;
  }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override {
    return lower_schema(emitted, std::move(report), kAnthropic, std::string(name()));
  }

  [[nodiscard]] bool continues_assistant_prefill() const override { return true; }

  [[nodiscard]] HttpRequest encode(const CallSpec& call) const override {
    check_parts(call, kAnthropicParts, name());
    ojson body{{"model", call.model}, {"max_tokens", call.max_tokens}};
    if (const std::string system = system_text(call); !system.empty()) body["system"] = system;
    body["messages"] = anthropic_messages(call);
    const bool forced = call.output && call.mode == OutputMode::forced_tool;
    // A conversation ending in an assistant turn is a prefill the model continues, which
    // structured output refuses (providers.md §4.1): a continuation goes without the format, and
    // what it joins is validated as always.
    const bool prefill = ends_in_prefill(call);
    // With extended thinking on, a forced tool becomes tool_choice auto below.
    const bool thinking = call.parameters.thinking_budget.has_value();
    if (thinking) check_beside_thinking(call, name());
    if (call.output && !forced && !prefill) {
      body["output_config"] = {
          {"format", {{"type", "json_schema"}, {"schema", output_schema(call)}}}};
    }
    ojson tools = ojson::array();
    for (const auto& t : call.tools) tools.push_back(tool(t.name, t.description, t.input.schema));
    if (forced) {
      tools.push_back(tool(output_name(call), kOutputToolDescription, output_schema(call)));
    }
    if (!tools.empty()) {
      body["tools"] = std::move(tools);
      if ((forced || call.tool_required) && thinking) {
        body["tool_choice"] = {{"type", "auto"}};
      } else if (forced) {
        body["tool_choice"] = {{"type", "tool"}, {"name", output_name(call)}};
      } else if (call.tool_required) {
        body["tool_choice"] = {{"type", "any"}};
      }
    }
    if (call.parameters.prompt_cache.value_or(false)) mark_anthropic_cache_points(body);
    Headers headers{{"content-type", "application/json"}};
    if (!call.api_key.empty()) headers.emplace_back("x-api-key", call.api_key);
    headers.emplace_back("anthropic-version", "2023-06-01");
    apply_parameters(body, headers, call, kAnthropicPlaces, name());
    const bool has_version = call.base_url.ends_with("/v1");
    return {call.base_url + (has_version ? "/messages" : "/v1/messages"), std::move(headers),
            serialize_request(body, call)};
  }

  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode mode) const override {
    Reply failure;
    const auto document = reply_document(response, failure);
    if (!document) return failure;
    const JsonView body = document->root();
    if (string_or_empty(body, "type") == "error") {
      // The error envelope with a 2xx status (streams do this); not a message.
      Reply r = http_error_reply(HttpResponse{response.status, {}, response.body});
      r.status = ReplyStatus::bad_reply;
      return r;
    }
    const auto content = body.find("content");
    if (auto error = error_in_success(body, content)) return *std::move(error);
    Usage usage;
    if (const auto u = body.find("usage"); u && u->is_object()) {
      const auto [input, output, cache_read, cache_write] =
          members_named<4>(*u, {"input_tokens", "output_tokens", "cache_read_input_tokens",
                                "cache_creation_input_tokens"});
      usage.cache_read_input_tokens = token_count(cache_read);
      usage.cache_write_input_tokens = token_count(cache_write);
      // Cached input is still input: the three fields together are the prompt.
      usage.input_tokens =
          token_count(input) + usage.cache_read_input_tokens + usage.cache_write_input_tokens;
      usage.output_tokens = token_count(output);
      usage.total_tokens = usage.input_tokens + usage.output_tokens;
    }
    const auto fail = [&](std::string detail) { return bad_reply(std::move(detail), usage); };
    if (!content || !content->is_array()) return fail("the reply has no content array");

    Reply reply;
    reply.usage = usage;
    std::string text;
    for (const JsonView block : content->items()) {
      if (!block.is_object()) return fail("a content block is not an object");
      const std::string type = string_or_empty(block, "type");
      if (type == "text") {
        if (const auto given = block.find("text"); given && given->is_string()) {
          text += given->get_string();
        }
      } else if (type == "tool_use") {
        const auto input = block.find("input");
        if (!input) return fail("a tool_use block has no input");
        reply.tool_calls.push_back(
            {string_or_empty(block, "id"), string_or_empty(block, "name"), serialize(*input)});
      }
      // thinking, redacted_thinking and server-tool blocks carry no output
    }
    set_assistant_turn(reply, text, ProviderMessage(document, *content));

    const std::string stop = string_or_empty(body, "stop_reason");
    reply.detail = stop;
    const Ending ending = stop == "refusal" ? Ending::refused
                          : stop == "max_tokens" || stop == "model_context_window_exceeded"
                              ? Ending::cut_off
                              : Ending::finished;
    // A refusal's words: the model's text, else the explanation in stop_details.
    std::string refusal = ending == Ending::refused ? text : std::string();
    if (ending == Ending::refused && refusal.empty()) {
      if (const auto d = body.find("stop_details"); d && d->is_object()) {
        refusal = string_or_empty(*d, "explanation");
      }
    }
    set_ending(reply, ending, mode, std::move(text), std::move(refusal));
    return reply;
  }
};

}  // namespace

// What Anthropic refuses beside extended thinking (its extended-thinking page, "feature
// compatibility", and max_tokens above budget_tokens), refused before sending: an assistant
// prefill, a temperature other than 1, a top_p below 0.95, an output cap not above the thinking
// budget (Claude on Bedrock alike). A forced tool is refused too; the codecs offer the tool with
// auto instead.
void check_beside_thinking(const CallSpec& call, std::string_view provider) {
  const auto& parameters = call.parameters;
  const std::int64_t budget = parameters.thinking_budget.value_or(0);
  if (call.max_tokens <= budget) {
    throw std::invalid_argument(fmt::format(
        "{}: max_tokens {} is not above thinking_budget {}: Claude needs max_tokens greater than "
        "the thinking budget (the thinking counts towards it); raise max_tokens or lower "
        "thinking_budget",
        provider, call.max_tokens, budget));
  }
  const auto refuse = [&](const std::string& what) {
    throw std::invalid_argument(fmt::format(
        "{}: {} cannot be sent with thinking_budget set: Claude refuses it while extended "
        "thinking is on",
        provider, what));
  };
  if (ends_in_prefill(call)) refuse("a conversation ending in an assistant turn (a prefill)");
  if (parameters.temperature && *parameters.temperature != 1.0)
    refuse(fmt::format("temperature {} (only 1)", *parameters.temperature));
  if (parameters.top_p && *parameters.top_p < 0.95)
    refuse(fmt::format("top_p {} (0.95 to 1 only)", *parameters.top_p));
}

const SchemaCapabilities& anthropic_schema_capabilities() {
  return kAnthropic;
}

const ProviderParts& anthropic_parts() {
  static const ProviderParts kParts{
      .name = "anthropic",
      .make = []() -> std::unique_ptr<Provider> { return std::make_unique<Anthropic>(); },
      .stream = make_anthropic_stream,
      .ask_for_stream = nullptr,
      .batches = make_anthropic_batches,
  };
  return kParts;
}

}  // namespace accord::detail
