// Amazon Bedrock Converse (providers.md, "bedrock"): POST {base}/model/{modelId}/converse, signed
// with AWS Signature Version 4 by the transport or sent with a Bedrock API key as a bearer token.
// Structured output through outputConfig.textFormat (json_schema, the schema as a JSON string)
// or a forced toolConfig tool; the reply's stopReason is read first.

#include <array>
#include <cstdlib>

#include "core/ascii.hpp"
#include "providers/anthropic/anthropic.hpp"
#include "providers/bedrock/bedrock.hpp"
#include "providers/bedrock/output_modes.hpp"
#include "providers/content_parts.hpp"
#include "providers/lowering.hpp"
#include "providers/parameters.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

// Bedrock's own structured outputs and tool input schemas follow the JSON Schema subset of the
// model behind them; Claude (the models Bedrock's structured outputs launched with, and the
// default here) takes Anthropic's subset, so that table applies: a schema it keeps is one every
// structured-output model on Bedrock reads (providers.md, "bedrock").
const SchemaCapabilities& bedrock_capabilities() {
  static const SchemaCapabilities kBedrock = [] {
    SchemaCapabilities table = anthropic_schema_capabilities();
    table.family = "Bedrock structured outputs (the Anthropic subset)";
    table.size_limits =
        "the model's own limits (Claude: as Anthropic's); the Converse request is at most 20 MB";
    return table;
  }();
  return kBedrock;
}

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// The region the SDKs use: AWS_REGION, then AWS_DEFAULT_REGION.
std::string region_from_environment() {
  std::string region = env_or_empty("AWS_REGION");
  if (region.empty()) region = env_or_empty("AWS_DEFAULT_REGION");
  return region.empty() ? "us-east-1" : region;
}

// The region a bedrock-runtime[-fips].{region}.amazonaws.com base URL names, or empty.
std::string region_of(std::string_view base_url) {
  const auto scheme = base_url.find("://");
  std::string_view host = scheme == std::string_view::npos ? base_url : base_url.substr(scheme + 3);
  host = host.substr(0, host.find_first_of("/:?#"));
  for (const std::string_view prefix : {"bedrock-runtime-fips.", "bedrock-runtime."}) {
    if (!host.starts_with(prefix)) continue;
    host.remove_prefix(prefix.size());
    const auto dot = host.find('.');
    if (dot != std::string_view::npos && host.substr(dot).starts_with(".amazonaws.com")) {
      return std::string(host.substr(0, dot));
    }
  }
  return {};
}

ojson text_block(const std::string& text) {
  return {{"text", text}};
}

ojson converse_assistant_content(const Turn& turn) {
  // The content blocks exactly as received keep toolUse ids for the toolResult blocks.
  if (turn.raw.is_array()) return message_items(turn.raw);
  ojson blocks = ojson::array();
  if (!turn.text.empty()) blocks.push_back(text_block(turn.text));
  for (const auto& call : turn.tool_calls) {
    ojson input = ojson::parse(call.arguments_text, nullptr, false);
    if (input.is_discarded() || !input.is_object()) input = ojson::object();
    blocks.push_back(
        {{"toolUse", {{"toolUseId", call.id}, {"name", call.name}, {"input", std::move(input)}}}});
  }
  return blocks;
}

// docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html: up to 20 images of
// 3.75 MB and 5 documents of 4.5 MB a request, as bytes (or S3 locations, which accord does not
// send), a document only with a text block beside it; formats from ImageBlock and DocumentBlock.
const PartRules kConverseParts{
    .source = "the Converse API's Message reference",
    .image_types = {"image/png", "image/jpeg", "image/gif", "image/webp"},
    .document_types = {"application/pdf", "text/csv", "text/html", "text/plain", "text/markdown"},
    .max_image_bytes = 3'932'160,     // 3.75 MiB
    .max_document_bytes = 4'718'592,  // 4.5 MiB
    .max_images = 20,
    .max_documents = 5,
    .image_urls = false,
    .document_urls = false,
    .document_needs_text = true,
};

// The format name Converse gives a media type ("image/png" -> "png", "text/plain" -> "txt").
std::string converse_format(const std::string& media_type) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kNamed = {{
      {"text/plain", "txt"},
      {"text/markdown", "md"},
      {"application/pdf", "pdf"},
      {"text/html", "html"},
  }};
  for (const auto& [type, format] : kNamed) {
    if (media_type == type) return std::string(format);
  }
  return media_type.substr(media_type.find('/') + 1);
}

// A document name as Converse takes it: letters, digits, single spaces, hyphens, parentheses and
// square brackets; anything else becomes a hyphen.
std::string converse_document_name(const ContentPart& part, std::size_t n) {
  std::string name = document_name(part, n);
  for (auto& c : name) {
    const bool kept =
        ascii_alnum(c) || c == ' ' || c == '-' || c == '(' || c == ')' || c == '[' || c == ']';
    if (!kept) c = '-';
  }
  for (auto at = name.find("  "); at != std::string::npos; at = name.find("  ")) name.erase(at, 1);
  return name;
}

// A user turn's text goes first as a block of its own, and an empty turn is an empty text block.
bool leads_with_text(const Turn& turn) {
  return !turn.text.empty() || turn.parts.empty();
}

ojson converse_user_content(const Turn& turn) {
  ojson blocks = ojson::array();
  if (leads_with_text(turn)) blocks.push_back(text_block(turn.text));
  for (std::size_t n = 0; n < turn.parts.size(); ++n) {
    const ContentPart& part = turn.parts[n];
    if (part.kind == ContentPart::Kind::text) {
      blocks.push_back(text_block(part.text));
    } else if (part.kind == ContentPart::Kind::image) {
      blocks.push_back({{"image",
                         {{"format", converse_format(part.media_type)},
                          {"source", {{"bytes", base64_of(part)}}}}}});
    } else {
      blocks.push_back({{"document",
                         {{"format", converse_format(part.media_type)},
                          {"name", converse_document_name(part, n + 1)},
                          {"source", {{"bytes", base64_of(part)}}}}}});
    }
  }
  return blocks;
}

ojson converse_messages(const CallSpec& call) {
  ojson out = ojson::array();
  // Turns of one role in a row join one message: Converse wants the roles to alternate.
  const auto add = [&out](const char* role, ojson blocks) {
    if (!out.empty() && out.back()["role"] == role) {
      for (auto& block : blocks) out.back()["content"].push_back(std::move(block));
    } else {
      out.push_back({{"role", role}, {"content", std::move(blocks)}});
    }
  };
  for (const auto& turn : call.turns) {
    switch (turn.role) {
      case Turn::Role::system:
        break;  // top-level `system`
      case Turn::Role::user:
        add("user", converse_user_content(turn));
        break;
      case Turn::Role::assistant:
        add("assistant", converse_assistant_content(turn));
        break;
      case Turn::Role::tool_results: {
        ojson blocks = ojson::array();
        for (const auto& result : turn.results) {
          ojson block{{"toolUseId", result.call_id},
                      {"content", ojson::array({text_block(result.content)})}};
          if (result.is_error) block["status"] = "error";
          blocks.push_back({{"toolResult", std::move(block)}});
        }
        add("user", std::move(blocks));
        break;
      }
    }
  }
  return out;
}

ojson converse_tool(const std::string& name, const std::string& description, const ojson& schema) {
  ojson spec{{"name", name}};
  if (!description.empty()) spec["description"] = description;
  spec["inputSchema"] = {{"json", schema}};
  return {{"toolSpec", std::move(spec)}};
}

// Credentials as ClientOptions::api_key carries them: "ACCESS_KEY_ID:SECRET_ACCESS_KEY" with an
// optional ":SESSION_TOKEN" (SigV4), or a Bedrock API key (a bearer token, which has no ':').
struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
};

std::optional<AwsCredentials> aws_credentials(const std::string& key) {
  const auto first = key.find(':');
  if (first == std::string::npos) return std::nullopt;
  const auto second = key.find(':', first + 1);
  AwsCredentials out{key.substr(0, first), key.substr(first + 1, second - first - 1), {}};
  if (second != std::string::npos) out.session_token = key.substr(second + 1);
  return out;
}

// A non-2xx reply in AWS's shape: {"message"} (or "Message") with the error's name in the
// x-amzn-ErrorType header ("ThrottlingException:http://...") or the body's "__type".
Reply aws_error_reply(const HttpResponse& response) {
  Reply reply = http_error_reply(response);
  std::string problem;
  const auto body = parse_body(response.body, problem);
  if (body && body->is_object()) {
    for (const char* key : {"message", "Message"}) {
      if (const std::string message = string_or_empty(*body, key); !message.empty()) {
        reply.detail = message;
        break;
      }
    }
  }
  std::string type = response.header("x-amzn-errortype").value_or("");
  if (type.empty() && body) type = string_or_empty(*body, "__type");
  type = type.substr(0, type.find(':'));
  if (const auto hash = type.rfind('#'); hash != std::string::npos) type.erase(0, hash + 1);
  if (!type.empty()) reply.error_code = type;
  return reply;
}

Usage converse_usage(JsonView body) {
  Usage usage;
  if (const auto u = body.find("usage"); u && u->is_object()) {
    const auto [input, output, cache_read, cache_write] = members_named<4>(
        *u, {"inputTokens", "outputTokens", "cacheReadInputTokens", "cacheWriteInputTokens"});
    usage.cache_read_input_tokens = token_count(cache_read);
    usage.cache_write_input_tokens = token_count(cache_write);
    // Cached input is still input: the three fields together are the prompt.
    usage.input_tokens =
        token_count(input) + usage.cache_read_input_tokens + usage.cache_write_input_tokens;
    usage.output_tokens = token_count(output);
    usage.total_tokens = usage.input_tokens + usage.output_tokens;
  }
  return usage;
}

// stopReason, read first. Bedrock has no refusal reason of its own: a `content_filtered` reply
// that carries the model's words is the model declining (a refusal, its words kept); one without
// any, and every `guardrail_intervened` (whose text is the guardrail's blocked message), is
// filtered.
Ending ending_of(const std::string& stop, const std::string& text) {
  if (stop == "max_tokens" || stop == "model_context_window_exceeded") return Ending::cut_off;
  if (stop == "guardrail_intervened") return Ending::filtered;
  if (stop == "content_filtered") return text.empty() ? Ending::filtered : Ending::refused;
  return Ending::finished;
}

// Sampling in inferenceConfig; a thinking budget is the Claude models' own field, passed through
// additionalModelRequestFields; metadata is requestMetadata. No seed, no reasoning effort.
const ParameterPlaces kBedrockPlaces{
    .temperature = "/inferenceConfig/temperature",
    .top_p = "/inferenceConfig/topP",
    .stop = "/inferenceConfig/stopSequences",
    .thinking_budget = "/additionalModelRequestFields/thinking",
    .thinking = ThinkingShape::enabled_block,
    .metadata = "/requestMetadata",
    .prompt_cache = true,
};

// How many content blocks the first user turn makes (its text and every attachment).
std::size_t first_user_turn_blocks(const CallSpec& call) {
  for (const auto& turn : call.turns) {
    if (turn.role == Turn::Role::user) return (leads_with_text(turn) ? 1 : 0) + turn.parts.size();
  }
  return 0;
}

// A cachePoint block after the system prompt, the tools and the whole first user turn (its text
// and attachments): what comes before each is cached.
void mark_converse_cache_points(ojson& body, std::size_t first_turn_blocks) {
  const ojson point{{"cachePoint", {{"type", "default"}}}};
  if (const auto system = body.find("system"); system != body.end()) system->push_back(point);
  if (const auto config = body.find("toolConfig"); config != body.end()) {
    (*config)["tools"].push_back(point);
  }
  // After the turn's last block, not the message's: Converse joins the next user turn (a scoped
  // correction's) into the same message, after it.
  auto& messages = body["messages"];
  if (const auto at = cached_message(messages)) {
    auto& content = messages[*at]["content"];
    const auto end = std::min(std::ssize(content), static_cast<std::ptrdiff_t>(first_turn_blocks));
    content.insert(content.begin() + end, point);
  }
}

class Bedrock final : public Provider {
 public:
  Bedrock()
      : region_(region_from_environment()),
        default_url_("https://bedrock-runtime." + region_ + ".amazonaws.com") {}

  [[nodiscard]] std::string_view name() const override { return "bedrock"; }
  [[nodiscard]] std::string_view telemetry_name() const override { return "aws.bedrock"; }
  // Named when no key is found: the access key pair is the other way in.
  [[nodiscard]] std::string_view api_key_fallback_env() const override {
    return "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
  }
  [[nodiscard]] std::string_view api_key_env() const override { return "AWS_BEARER_TOKEN_BEDROCK"; }
  [[nodiscard]] std::string_view base_url_env() const override { return "BEDROCK_BASE_URL"; }
  [[nodiscard]] std::string_view default_base_url() const override { return default_url_; }
  [[nodiscard]] std::string_view default_model() const override {
    return "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
  }
  // A Bedrock API key, else the AWS access key pair (and session token) joined with ':'.
  [[nodiscard]] std::string api_key_from_environment() const override {
    if (std::string bearer = env_or_empty("AWS_BEARER_TOKEN_BEDROCK"); !bearer.empty()) {
      return bearer;
    }
    const std::string id = env_or_empty("AWS_ACCESS_KEY_ID");
    const std::string secret = env_or_empty("AWS_SECRET_ACCESS_KEY");
    if (id.empty() || secret.empty()) return {};
    const std::string token = env_or_empty("AWS_SESSION_TOKEN");
    return id + ":" + secret + (token.empty() ? "" : ":" + token);
  }

  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override {
    return bedrock_capabilities();
  }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override {
    return lower_schema(emitted, std::move(report), bedrock_capabilities(), std::string(name()));
  }

  // Native structured output only for the models AWS lists it for: another model refuses
  // outputConfig, while the output tool works wherever tools do (forced where a model takes it).
  [[nodiscard]] ModelOutputMode output_mode_for(std::string_view model) const override {
    return bedrock_output_mode(model);
  }

  [[nodiscard]] HttpRequest encode(const CallSpec& call) const override {
    check_parts(call, kConverseParts, name());
    ojson body{{"messages", converse_messages(call)}};
    if (const std::string system = system_text(call); !system.empty()) {
      body["system"] = ojson::array({text_block(system)});
    }
    body["inferenceConfig"] = {{"maxTokens", call.max_tokens}};
    const OutputMode mode =
        call.mode == OutputMode::per_model ? output_mode_for(call.model).mode : call.mode;
    const bool forced = call.output && mode == OutputMode::forced_tool;
    // Claude's extended thinking refuses a forced tool: the output tool is offered with auto.
    const bool thinking = call.parameters.thinking_budget.has_value();
    if (thinking) check_beside_thinking(call, name());
    if (call.output && !forced) {
      // The schema travels as a JSON string (JsonSchemaDefinition.schema is a String).
      const std::string schema =
          call.output_text != nullptr ? *call.output_text : serialize(call.output->schema);
      body["outputConfig"] = {
          {"textFormat",
           {{"type", "json_schema"},
            {"structure", {{"jsonSchema", {{"schema", schema}, {"name", output_name(call)}}}}}}}};
    }
    ojson tools = ojson::array();
    for (const auto& t : call.tools)
      tools.push_back(converse_tool(t.name, t.description, t.input.schema));
    if (forced) {
      tools.push_back(
          converse_tool(output_name(call), kOutputToolDescription, output_schema(call)));
    }
    if (!tools.empty()) {
      body["toolConfig"] = {{"tools", std::move(tools)}};
      // A model that takes no toolChoice is asked in words (the tool's description) and its
      // reply is read whether it calls the tool or answers in text.
      const auto choices = bedrock_tool_choices(call.model);
      if ((forced || call.tool_required) && thinking) {
        body["toolConfig"]["toolChoice"] = {{"auto", ojson::object()}};
      } else if (forced && choices.tool) {
        body["toolConfig"]["toolChoice"] = {{"tool", {{"name", output_name(call)}}}};
      } else if ((forced || call.tool_required) && choices.any) {
        body["toolConfig"]["toolChoice"] = {{"any", ojson::object()}};
      }
    }
    if (call.parameters.prompt_cache.value_or(false))
      mark_converse_cache_points(body, first_user_turn_blocks(call));
    Headers headers{{"content-type", "application/json"}};
    apply_parameters(body, headers, call, kBedrockPlaces, name());
    HttpRequest request{call.base_url + "/model/" + path_segment(call.model) + "/converse",
                        std::move(headers), serialize_request(body, call)};
    if (const auto credentials = aws_credentials(call.api_key)) {
      std::string region = region_of(call.base_url);
      if (region.empty()) region = region_;
      request.aws_sigv4 = "aws:amz:" + region + ":bedrock";
      request.aws_credentials = credentials->access_key_id + ":" + credentials->secret_access_key;
      if (!credentials->session_token.empty()) {
        request.headers.emplace_back("x-amz-security-token", credentials->session_token);
      }
    } else if (!call.api_key.empty()) {
      request.headers.emplace_back("authorization", "Bearer " + call.api_key);
    }
    return request;
  }

  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode mode) const override {
    if (!is_success(response.status)) return aws_error_reply(response);
    Reply failure;
    const auto document = reply_document(response, failure);
    if (!document) return failure;
    const JsonView body = document->root();
    // Looked up once: only a body without output is read again, as an error.
    const auto output = body.find("output");
    if (!output && (body.find("message") || body.find("Message"))) {
      // An exception in a stream (or a gateway's error with a 2xx status): not a reply.
      Reply r = aws_error_reply(HttpResponse{400, response.headers, response.body});
      r.status = ReplyStatus::bad_reply;
      return r;
    }
    if (auto error = error_in_success(body, output)) return *std::move(error);
    const Usage usage = converse_usage(body);
    const auto fail = [&](std::string detail) { return bad_reply(std::move(detail), usage); };
    if (!output || !output->is_object()) return fail("the reply has no output");
    const auto message = output->find("message");
    if (!message || !message->is_object()) return fail("the reply's output has no message");
    const auto content = message->find("content");
    if (!content || !content->is_array()) return fail("the reply's message has no content array");

    Reply reply;
    reply.usage = usage;
    std::string text;
    for (const JsonView block : content->items()) {
      if (!block.is_object()) return fail("a content block is not an object");
      if (const auto t = block.find("text")) {
        if (!t->is_string()) return fail("a text block's text is not a string");
        text += t->get_string();
      } else if (const auto use = block.find("toolUse")) {
        if (!use->is_object()) return fail("a toolUse block is not an object");
        const auto input = use->find("input");
        if (!input) return fail("a toolUse block has no input");
        reply.tool_calls.push_back(
            {string_or_empty(*use, "toolUseId"), string_or_empty(*use, "name"), serialize(*input)});
      }
      // reasoningContent, citations, images and the rest carry no output
    }
    set_assistant_turn(reply, text, ProviderMessage(document, *content));
    const std::string stop = string_or_empty(body, "stopReason");
    reply.detail = stop;
    const Ending ending = ending_of(stop, text);
    // A refusal's words are the model's text.
    std::string refusal = ending == Ending::refused ? text : std::string();
    set_ending(reply, ending, mode, std::move(text), std::move(refusal));
    return reply;
  }

 private:
  std::string region_;
  std::string default_url_;
};

}  // namespace

void ask_for_bedrock_stream(HttpRequest& request) {
  constexpr std::string_view kWhole = "/converse";
  if (request.url.ends_with(kWhole)) request.url += "-stream";
}

const ProviderParts& bedrock_parts() {
  static const ProviderParts kParts{
      .name = "bedrock",
      .make = []() -> std::unique_ptr<Provider> { return std::make_unique<Bedrock>(); },
      .stream = make_bedrock_stream,
      .ask_for_stream = nullptr,
      .batches = nullptr,
      .stream_request = ask_for_bedrock_stream,
      .framing = StreamFraming::aws_event_stream,
  };
  return kParts;
}

}  // namespace accord::detail
