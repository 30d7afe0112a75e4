// OpenAI Responses API: text.format json_schema (flat), flat function tools, and output items
// read by type (providers.md §2).

#include "providers/content_parts.hpp"
#include "providers/openai/openai.hpp"
#include "providers/openai_responses/openai_responses.hpp"
#include "providers/parameters.hpp"
#include "providers/registry.hpp"

namespace accord::detail {

namespace {

// platform.openai.com/docs/guides/images-vision and docs/guides/pdf-files: input_image takes a URL
// or a data: URL, input_file a PDF as file_data or file_url; 50 MB a file.
const PartRules kResponsesParts{
    .source = "OpenAI's images-vision and pdf-files guides",
    .image_types = {"image/png", "image/jpeg", "image/webp", "image/gif"},
    .document_types = {"application/pdf"},
    .max_image_bytes = 50 * kMiB,
    .max_document_bytes = 50 * kMiB,
};

ojson input_part(const ContentPart& part, std::size_t n) {
  switch (part.kind) {
    case ContentPart::Kind::text:
      return {{"type", "input_text"}, {"text", part.text}};
    case ContentPart::Kind::image:
      return {{"type", "input_image"}, {"image_url", part.is_url() ? part.url : data_url(part)}};
    case ContentPart::Kind::document:
      if (part.is_url()) return {{"type", "input_file"}, {"file_url", part.url}};
      return {{"type", "input_file"},
              {"filename", document_name(part, n)},
              {"file_data", data_url(part)}};
  }
  return {};
}

ojson user_content(const Turn& turn) {
  if (turn.parts.empty()) return turn.text;
  ojson content = ojson::array();
  if (!turn.text.empty()) content.push_back({{"type", "input_text"}, {"text", turn.text}});
  for (std::size_t n = 0; n < turn.parts.size(); ++n)
    content.push_back(input_part(turn.parts[n], n + 1));
  return content;
}

ojson input_items(const CallSpec& call) {
  ojson out = ojson::array();
  for (const auto& turn : call.turns) {
    switch (turn.role) {
      case Turn::Role::system:
        break;  // sent as `instructions`
      case Turn::Role::user:
        out.push_back({{"role", "user"}, {"content", user_content(turn)}});
        break;
      case Turn::Role::assistant:
        if (turn.raw.is_array()) {
          // The output items exactly as received (reasoning items included) keep call ids valid.
          push_message_items(out, turn.raw);
          break;
        }
        if (!turn.text.empty()) out.push_back({{"role", "assistant"}, {"content", turn.text}});
        for (const auto& c : turn.tool_calls) {
          out.push_back({{"type", "function_call"},
                         {"call_id", c.id},
                         {"name", c.name},
                         {"arguments", c.arguments_text}});
        }
        break;
      case Turn::Role::tool_results:
        for (const auto& result : turn.results) {
          out.push_back({{"type", "function_call_output"},
                         {"call_id", result.call_id},
                         {"output", result.content}});
        }
        break;
    }
  }
  return out;
}

ojson responses_function_tool(const std::string& name, const std::string& description,
                              const ojson& parameters) {
  ojson tool{{"type", "function"}, {"name", name}};
  if (!description.empty()) tool["description"] = description;
  tool["parameters"] = parameters;
  tool["strict"] = true;
  return tool;
}

class Responses final : public OpenAIProvider {
 public:
  [[nodiscard]] std::string_view name() const override { return "openai-responses"; }

  [[nodiscard]] HttpRequest encode(const CallSpec& call) const override {
    return responses_request(call, openai_headers(call), responses_parameter_places(), name());
  }

  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode mode) const override {
    Reply failure;
    // A response echoes the request's instructions, tools and text.format (the whole schema):
    // read to the tape, they cost no tree.
    const auto document = reply_document(response, failure);
    if (!document) return failure;
    const JsonView body = document->root();
    const Usage usage = openai_usage(body, "input_tokens", "output_tokens");
    const auto fail = [&](std::string detail) { return bad_reply(std::move(detail), usage); };
    const std::string status = string_or_empty(body, "status");
    if (status == "failed") {
      Reply r = fail("the response failed");
      if (const auto e = body.find("error"); e && e->is_object()) {
        if (auto message = string_or_empty(*e, "message"); !message.empty()) r.detail = message;
        r.error_code = string_or_empty(*e, "code");
      }
      return r;
    }
    const auto output = body.find("output");
    if (auto error = error_in_success(body, output)) return *std::move(error);
    if (!output || !output->is_array()) return fail("the reply has no output array");

    Reply reply;
    reply.usage = usage;
    std::string text;
    std::string refusal;
    for (const JsonView item : output->items()) {
      if (!item.is_object()) return fail("an output item is not an object");
      const std::string type = string_or_empty(item, "type");
      if (type == "message") {
        const auto content = item.find("content");
        if (!content || !content->is_array()) return fail("a message item has no content array");
        for (const JsonView part : content->items()) {
          const std::string part_type = string_or_empty(part, "type");
          if (part_type == "output_text") text += string_or_empty(part, "text");
          if (part_type == "refusal") refusal += string_or_empty(part, "refusal");
        }
      } else if (type == "function_call") {
        const auto given = item.find("arguments");
        const auto arguments = given ? arguments_text(*given) : std::nullopt;
        if (!arguments) return fail("a function_call item's arguments is not a string");
        std::string id = string_or_empty(item, "call_id");
        if (id.empty()) id = string_or_empty(item, "id");
        reply.tool_calls.push_back({std::move(id), string_or_empty(item, "name"), *arguments});
      }
      // reasoning and other item types carry no output
    }

    set_assistant_turn(reply, text, ProviderMessage(document, *output));

    std::string reason;
    if (const auto d = body.find("incomplete_details"); d && d->is_object()) {
      reason = string_or_empty(*d, "reason");
    }
    reply.detail = reason.empty() ? status : reason;
    const Ending ending = !refusal.empty()             ? Ending::refused
                          : status != "incomplete"     ? Ending::finished
                          : reason == "content_filter" ? Ending::filtered
                                                       : Ending::cut_off;
    set_ending(reply, ending, mode, std::move(text), std::move(refusal));
    return reply;
  }
};

}  // namespace

// The Responses API has no seed and no stop sequences.
HttpRequest responses_request(const CallSpec& call, Headers headers, const ParameterPlaces& places,
                              std::string_view provider) {
  check_parts(call, kResponsesParts, provider);
  ojson body{{"model", call.model}};
  if (const std::string system = system_text(call); !system.empty()) {
    body["instructions"] = system;
  }
  body["input"] = input_items(call);
  const bool forced = call.output && call.mode == OutputMode::forced_tool;
  if (call.output && !forced) {
    body["text"] = {{"format",
                     {{"type", "json_schema"},
                      {"name", output_name(call)},
                      {"strict", true},
                      {"schema", output_schema(call)}}}};
  }
  ojson tools = ojson::array();
  for (const auto& tool : call.tools) {
    tools.push_back(responses_function_tool(tool.name, tool.description, tool.input.schema));
  }
  if (forced) {
    tools.push_back(
        responses_function_tool(output_name(call), kOutputToolDescription, output_schema(call)));
  }
  if (!tools.empty()) {
    body["tools"] = std::move(tools);
    if (forced) {
      body["tool_choice"] = {{"type", "function"}, {"name", output_name(call)}};
    } else if (call.tool_required) {
      body["tool_choice"] = "required";
    }
    body["parallel_tool_calls"] = false;
  }
  body["max_output_tokens"] = call.max_tokens;
  apply_parameters(body, headers, call, places, provider);
  return {call.base_url + "/responses", std::move(headers), serialize_request(body, call)};
}

const ParameterPlaces& responses_parameter_places() {
  static const ParameterPlaces kPlaces{.temperature = "/temperature",
                                       .top_p = "/top_p",
                                       .reasoning_effort = "/reasoning/effort",
                                       .service_tier = "/service_tier",
                                       .user = "/user",
                                       .metadata = "/metadata"};
  return kPlaces;
}

const ProviderParts& openai_responses_parts() {
  static const ProviderParts kParts{
      .name = "openai-responses",
      .make = []() -> std::unique_ptr<Provider> { return std::make_unique<Responses>(); },
      .stream = make_responses_stream,
      .ask_for_stream = nullptr,
      .batches = make_openai_batches,
  };
  return kParts;
}

}  // namespace accord::detail
