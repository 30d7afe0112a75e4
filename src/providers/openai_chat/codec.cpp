// OpenAI Chat Completions: response_format json_schema (strict), function tools, and the
// status-first reading of choices[0] (providers.md §1).

#include "providers/chat_messages.hpp"
#include "providers/openai_chat/chat_completions.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

// platform.openai.com/docs/guides/images-vision (PNG, JPEG, WebP, non-animated GIF; 50 MB of
// images a request) and docs/guides/pdf-files (PDF as file_data, 50 MB a file).
const PartRules kOpenAIChatParts{
    .source = "OpenAI's images-vision and pdf-files guides",
    .image_types = {"image/png", "image/jpeg", "image/webp", "image/gif"},
    .document_types = {"application/pdf"},
    .max_image_bytes = 50 * kMiB,
    .max_document_bytes = 50 * kMiB,
    .document_urls = false,  // Chat Completions' file part takes file_data or a file_id
};

ojson assistant_message(const Turn& turn) {
  ojson message{{"role", "assistant"}};
  message["content"] =
      turn.text.empty() && !turn.tool_calls.empty() ? ojson(nullptr) : ojson(turn.text);
  if (!turn.tool_calls.empty()) {
    ojson calls = ojson::array();
    for (const auto& call : turn.tool_calls) {
      calls.push_back({{"id", call.id},
                       {"type", "function"},
                       {"function", {{"name", call.name}, {"arguments", call.arguments_text}}}});
    }
    message["tool_calls"] = std::move(calls);
  }
  return message;
}

}  // namespace

ojson openai_content_part(const ContentPart& part, std::size_t n) {
  switch (part.kind) {
    case ContentPart::Kind::text:
      return {{"type", "text"}, {"text", part.text}};
    case ContentPart::Kind::image:
      return {{"type", "image_url"},
              {"image_url", {{"url", part.is_url() ? part.url : data_url(part)}}}};
    case ContentPart::Kind::document:
      return {{"type", "file"},
              {"file", {{"filename", document_name(part, n)}, {"file_data", data_url(part)}}}};
  }
  return {};
}

const PartRules& ChatCompletions::part_rules() const {
  return kOpenAIChatParts;
}

ojson ChatCompletions::content_part(const ContentPart& part, std::size_t n) const {
  return openai_content_part(part, n);
}

namespace {

ojson chat_function_tool(const std::string& name, const std::string& description,
                         const ojson& parameters) {
  ojson function{{"name", name}};
  if (!description.empty()) function["description"] = description;
  function["parameters"] = parameters;
  function["strict"] = true;
  return {{"type", "function"}, {"function", std::move(function)}};
}

}  // namespace

HttpRequest ChatCompletions::encode(const CallSpec& call) const {
  check_parts(call, part_rules(), name());
  const ChatMessageShape shape{
      .user_with_parts =
          [this](const Turn& turn) {
            ojson content = ojson::array();
            if (!turn.text.empty()) content.push_back({{"type", "text"}, {"text", turn.text}});
            for (std::size_t n = 0; n < turn.parts.size(); ++n)
              content.push_back(content_part(turn.parts[n], n + 1));
            return ojson{{"role", "user"}, {"content", std::move(content)}};
          },
      .assistant = assistant_message,
      .tool_result =
          [](const ToolResult& result) {
            return ojson{
                {"role", "tool"}, {"tool_call_id", result.call_id}, {"content", result.content}};
          },
  };
  ojson body{{"model", call.model}, {"messages", chat_style_messages(call.turns, shape)}};
  const bool forced = call.output && call.mode == OutputMode::forced_tool;
  if (call.output && !forced) {
    body["response_format"] = {
        {"type", "json_schema"},
        {"json_schema",
         {{"name", output_name(call)}, {"strict", true}, {"schema", output_schema(call)}}}};
  }
  ojson tools = ojson::array();
  for (const auto& tool : call.tools) {
    tools.push_back(chat_function_tool(tool.name, tool.description, tool.input.schema));
  }
  if (forced) {
    tools.push_back(
        chat_function_tool(output_name(call), kOutputToolDescription, output_schema(call)));
  }
  if (!tools.empty()) {
    body["tools"] = std::move(tools);
    if (forced) {
      body["tool_choice"] = {{"type", "function"}, {"function", {{"name", output_name(call)}}}};
    } else if (call.tool_required) {
      body["tool_choice"] = "required";
    }
    // Strict tools lose their guarantee when the model makes several calls at once.
    body["parallel_tool_calls"] = false;
  }
  body[max_tokens_field()] = call.max_tokens;
  Headers sent = headers(call);
  apply_parameters(body, sent, call, parameter_places(), name());
  return {url(call), std::move(sent), serialize_request(body, call)};
}

const ParameterPlaces& openai_chat_parameter_places() {
  static const ParameterPlaces kPlaces{.temperature = "/temperature",
                                       .top_p = "/top_p",
                                       .seed = "/seed",
                                       .stop = "/stop",
                                       .reasoning_effort = "/reasoning_effort",
                                       .service_tier = "/service_tier",
                                       .user = "/user",
                                       .metadata = "/metadata"};
  return kPlaces;
}

const ParameterPlaces& ChatCompletions::parameter_places() const {
  return openai_chat_parameter_places();
}

Reply ChatCompletions::decode(const HttpResponse& response, OutputMode mode) const {
  Reply failure;
  const auto document = reply_document(response, failure);
  if (!document) return failure;
  const JsonView body = document->root();
  const auto choices = body.find("choices");
  if (auto error = error_in_success(body, choices)) return *std::move(error);

  const Usage usage = openai_usage(body, "prompt_tokens", "completion_tokens");
  const auto fail = [&](std::string detail) { return bad_reply(std::move(detail), usage); };
  if (!choices || !choices->is_array()) return fail("the reply has no choices array");
  if (choices->size() == 0) return fail("the reply's choices array is empty");
  const JsonView choice = *choices->items().begin();
  const auto message = choice.find("message");
  if (!message || !message->is_object()) return fail("choices[0] has no message object");
  const auto [content, refusal_words, calls] =
      members_named<3>(*message, {"content", "refusal", "tool_calls"});
  if (content && !content->is_null() && !content->is_string()) {
    return fail("choices[0].message.content is neither a string nor null");
  }

  Reply reply;
  reply.usage = usage;
  reply.detail = string_or_empty(choice, "finish_reason");
  std::string text = string_or_empty(content);
  std::string refusal = string_or_empty(refusal_words);

  if (calls && !calls->is_null()) {
    if (!calls->is_array()) return fail("choices[0].message.tool_calls is not an array");
    for (const JsonView call : calls->items()) {
      const auto function = call.find("function");
      if (!function || !function->is_object()) return fail("a tool call has no function object");
      const auto given = function->find("arguments");
      const auto arguments = given ? arguments_text(*given) : std::nullopt;
      if (!arguments) return fail("a tool call's function.arguments is not a string");
      reply.tool_calls.push_back(
          {string_or_empty(call, "id"), string_or_empty(*function, "name"), *arguments});
    }
  }

  set_assistant_turn(reply, text, ProviderMessage(document, *message));
  // reply.detail holds the choice's finish_reason (read above), which ending() judges by.
  const Ending end = ending(body, choice, reply.detail, !refusal.empty());
  set_ending(reply, end, mode, std::move(text), std::move(refusal));
  return reply;
}

Ending ChatCompletions::ending(JsonView /*body*/, JsonView /*choice*/, std::string_view reason,
                               bool refused) const {
  return refused                      ? Ending::refused
         : reason == "length"         ? Ending::cut_off
         : reason == "content_filter" ? Ending::filtered
                                      : Ending::finished;
}

const ProviderParts& openai_chat_parts() {
  static const ProviderParts kParts{
      .name = "openai-chat",
      .make = []() -> std::unique_ptr<Provider> { return std::make_unique<ChatCompletions>(); },
      .stream = make_chat_stream,
      .ask_for_stream = ask_for_chat_stream,
      .batches = make_openai_batches,
  };
  return kParts;
}

}  // namespace accord::detail
