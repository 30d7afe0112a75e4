// Ollama's native chat API (docs/api.md in ollama/ollama): POST {host}/api/chat with `messages`,
// `format` (the JSON Schema, compiled into a grammar by llama.cpp's converter), `stream` and
// `options.num_predict`; the reply is one object with `message`, `done_reason` ("stop",
// "length") and the token counts `prompt_eval_count` / `eval_count`. There is no tool_choice:
// a forced_tool call is sent as `format` and its answer read as text (providers.md, "Local
// servers").

#include "accord/json_text.hpp"
#include "providers/chat_messages.hpp"
#include "providers/content_parts.hpp"
#include "providers/llama_cpp/llama_cpp.hpp"
#include "providers/lowering.hpp"
#include "providers/ollama/ollama.hpp"
#include "providers/openai/openai.hpp"
#include "providers/parameters.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

SchemaCapabilities ollama_capabilities() {
  auto capabilities = llama_grammar_capabilities("Ollama servers", false);
  capabilities.signals_refusal = false;
  return capabilities;
}

const SchemaCapabilities kOllama = ollama_capabilities();

ojson ollama_tool_calls(const std::vector<ToolCall>& calls) {
  ojson out = ojson::array();
  for (const auto& call : calls) {
    // Ollama sends and takes arguments as an object.
    ojson arguments = parse_ordered_json(call.arguments_text, false);
    if (arguments.is_discarded()) arguments = ojson::object();
    ojson sent{{"function", {{"name", call.name}, {"arguments", std::move(arguments)}}}};
    if (!call.id.empty()) sent["id"] = call.id;
    out.push_back(std::move(sent));
  }
  return out;
}

// Ollama's chat API (docs/api.md) takes images as base64 in the message's `images`; no documents,
// no URLs, and no size limit is documented.
const PartRules kOllamaParts{
    .image_types = {"image/png", "image/jpeg", "image/webp", "image/gif"},
    .image_urls = false,
};

const ChatMessageShape kOllamaShape{
    .user_with_parts =
        [](const Turn& turn) {
          std::string text = turn.text;
          ojson images = ojson::array();
          for (const auto& part : turn.parts) {
            if (part.kind == ContentPart::Kind::image) {
              images.push_back(base64_of(part));
            } else {  // text: the content is one string
              text += (text.empty() ? "" : "\n\n") + part.text;
            }
          }
          return ojson{
              {"role", "user"}, {"content", std::move(text)}, {"images", std::move(images)}};
        },
    .assistant =
        [](const Turn& turn) {
          ojson message{{"role", "assistant"}, {"content", turn.text}};
          if (!turn.tool_calls.empty()) message["tool_calls"] = ollama_tool_calls(turn.tool_calls);
          return message;
        },
    // Results name their tool; the call's id goes back too when the server gave one.
    .tool_result =
        [](const ToolResult& result) {
          ojson message{{"role", "tool"}, {"content", result.content}, {"tool_name", result.name}};
          if (!result.call_id.empty()) message["tool_call_id"] = result.call_id;
          return message;
        },
};

// OLLAMA_HOST may be "host:port" without a scheme; a base URL of Ollama's OpenAI endpoint (…/v1)
// reaches the native API at the same host.
std::string api_root(std::string base) {
  if (base.find("://") == std::string::npos) base = "http://" + base;
  if (base.ends_with("/v1")) base.resize(base.size() - 3);
  return base;
}

// Sampling goes in `options`; a reasoning effort is `think`'s level ("low", "medium", "high").
const ParameterPlaces kOllamaPlaces{.temperature = "/options/temperature",
                                    .top_p = "/options/top_p",
                                    .seed = "/options/seed",
                                    .stop = "/options/stop",
                                    .reasoning_effort = "/think"};

class Ollama final : public Provider {
 public:
  [[nodiscard]] std::string_view name() const override { return "ollama"; }
  // Ollama itself takes no key; a proxy in front of it or Ollama's cloud takes a bearer token.
  [[nodiscard]] std::string_view api_key_env() const override { return "OLLAMA_API_KEY"; }
  [[nodiscard]] std::string_view base_url_env() const override { return "OLLAMA_HOST"; }
  [[nodiscard]] std::string_view default_base_url() const override {
    return "http://127.0.0.1:11434";
  }
  [[nodiscard]] std::string_view default_model() const override { return "llama3.2"; }
  [[nodiscard]] bool needs_api_key() const override { return false; }
  [[nodiscard]] const SchemaCapabilities& schema_capabilities() const override { return kOllama; }
  [[nodiscard]] WireSchema lower(const nlohmann::ordered_json& emitted,
                                 Report report) const override {
    return lower_schema(emitted, std::move(report), kOllama, std::string(name()));
  }

  [[nodiscard]] HttpRequest encode(const CallSpec& call) const override {
    check_parts(call, kOllamaParts, name());
    ojson body{{"model", call.model},
               {"messages", chat_style_messages(call.turns, kOllamaShape)},
               {"stream", false}};
    if (call.output) body["format"] = output_schema(call);
    if (!call.tools.empty()) {
      ojson tools = ojson::array();
      for (const auto& tool : call.tools) {
        ojson function{{"name", tool.name}};
        if (!tool.description.empty()) function["description"] = tool.description;
        function["parameters"] = tool.input.schema;
        tools.push_back({{"type", "function"}, {"function", std::move(function)}});
      }
      body["tools"] = std::move(tools);
    }
    body["options"] = {{"num_predict", call.max_tokens}};
    Headers headers = openai_headers(call);
    apply_parameters(body, headers, call, kOllamaPlaces, name());
    return {api_root(call.base_url) + "/api/chat", std::move(headers),
            serialize_request(body, call)};
  }

  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode /*mode*/) const override {
    Reply failure;
    const auto document = reply_document(response, failure);
    if (!document) return failure;
    const JsonView body = document->root();
    const auto message = body.find("message");
    if (auto error = error_in_success(body, message)) return *std::move(error);

    Usage usage;
    usage.input_tokens = token_count(body, "prompt_eval_count");
    usage.output_tokens = token_count(body, "eval_count");
    usage.total_tokens = usage.input_tokens + usage.output_tokens;
    const auto fail = [&](std::string detail) { return bad_reply(std::move(detail), usage); };
    if (!message || !message->is_object()) return fail("the reply has no message object");
    const auto content = message->find("content");
    if (content && !content->is_null() && !content->is_string()) {
      return fail("message.content is not a string");
    }

    Reply reply;
    reply.usage = usage;
    reply.detail = string_or_empty(body, "done_reason");
    std::string text = string_or_empty(content);
    if (const auto calls = message->find("tool_calls"); calls && !calls->is_null()) {
      if (!calls->is_array()) return fail("message.tool_calls is not an array");
      for (const JsonView call : calls->items()) {
        const auto function = call.find("function");
        if (!function || !function->is_object()) return fail("a tool call has no function object");
        const auto given = function->find("arguments");
        const auto arguments = given ? arguments_text(*given) : std::optional<std::string>("{}");
        if (!arguments) return fail("a tool call's function.arguments is not an object");
        reply.tool_calls.push_back(
            {string_or_empty(call, "id"), string_or_empty(*function, "name"), *arguments});
      }
    }
    set_assistant_turn(reply, text, ProviderMessage(document, *message));
    // The output came through `format` whichever mode asked for it.
    set_ending(reply, reply.detail == "length" ? Ending::cut_off : Ending::finished,
               OutputMode::response_format, std::move(text));
    return reply;
  }
};

}  // namespace

// No batch API.
const ProviderParts& ollama_parts() {
  static const ProviderParts kParts{
      .name = "ollama",
      .make = []() -> std::unique_ptr<Provider> { return std::make_unique<Ollama>(); },
      .stream = make_ollama_stream,
      .ask_for_stream = nullptr,  // `"stream": true` is all a stream needs
      .framing = StreamFraming::json_lines,
  };
  return kParts;
}

}  // namespace accord::detail
