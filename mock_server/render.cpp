#include "render.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include "azure_shape.hpp"
#include "bedrock_shape.hpp"
#include "gemini_shape.hpp"
#include "ollama_shape.hpp"
#include "render_parts.hpp"

namespace accord_mock {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the real APIs send them
using request_json = nlohmann::json;

std::string insert_invalid_utf8_in_text(std::string text) {
  const auto quote = text.find('"');
  text.insert(quote == std::string::npos ? 0 : quote + 1, kInvalidUtf8);
  return text;
}

// Keeps the fragment valid JSON syntax while putting the bytes inside a string.
std::string insert_invalid_utf8_in_json(std::string text) {
  const auto quote = text.find('"');
  if (quote != std::string::npos) {
    text.insert(quote + 1, kInvalidUtf8);
    return text;
  }
  const auto bad = json_string_literal(kInvalidUtf8);
  if (!text.empty() && text.front() == '{') {
    const bool empty_object = text.find_first_not_of(" \t\r\n", 1) == text.find('}');
    text.insert(1, bad + ":null" + (empty_object ? "" : ","));
    return text;
  }
  if (!text.empty() && text.front() == '[') {
    const bool empty_array = text.find_first_not_of(" \t\r\n", 1) == text.find(']');
    text.insert(1, bad + (empty_array ? "" : ","));
    return text;
  }
  return json_string_literal(std::string(kInvalidUtf8) + text);
}

}  // namespace

std::string payload_text(const Reply& reply, std::string text) {
  if (reply.nest_depth > 0) text = nested_json(reply.nest_depth);
  if (reply.invalid_utf8) text = insert_invalid_utf8_in_text(std::move(text));
  return text;
}

std::string payload_json(const Reply& reply, std::string json_text) {
  if (reply.nest_depth > 0) json_text = nested_json(reply.nest_depth);
  if (reply.invalid_utf8) json_text = insert_invalid_utf8_in_json(std::move(json_text));
  return json_text;
}

const request_json* member(const request_json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::optional<std::string> string_member(const request_json& object, const char* key) {
  const auto* v = member(object, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

namespace {

// The tool the request forces, if any: a named tool choice, or "must call a tool" with one tool.
std::optional<std::string> forced_tool(Endpoint endpoint, const request_json& request) {
  const auto* choice = member(request, "tool_choice");
  if (choice == nullptr) return std::nullopt;
  const auto* tools = member(request, "tools");
  const bool one_tool = tools != nullptr && tools->is_array() && tools->size() == 1;
  switch (endpoint) {
    case Endpoint::chat_completions:
    case Endpoint::azure_chat_completions:
      if (string_member(*choice, "type") == "function") {
        if (const auto* function = member(*choice, "function"))
          return string_member(*function, "name");
      }
      if (*choice == "required" && one_tool) {
        if (const auto* function = member((*tools)[0], "function"))
          return string_member(*function, "name");
      }
      return std::nullopt;
    case Endpoint::responses:
      if (string_member(*choice, "type") == "function") return string_member(*choice, "name");
      if (*choice == "required" && one_tool) return string_member((*tools)[0], "name");
      return std::nullopt;
    case Endpoint::messages:
      if (string_member(*choice, "type") == "tool") return string_member(*choice, "name");
      if (string_member(*choice, "type") == "any" && one_tool)
        return string_member((*tools)[0], "name");
      return std::nullopt;
    case Endpoint::gemini:
      return std::nullopt;  // gemini_shape.cpp reads its own toolConfig
    case Endpoint::converse:
      return std::nullopt;  // bedrock_shape.cpp reads its own toolConfig
    case Endpoint::ollama_chat:
      return std::nullopt;  // Ollama has no tool_choice
  }
  return std::nullopt;
}

// Merges the scenario's usage over the computed one; the total follows its parts unless given.
json finish_usage(json usage, const request_json& override_usage, const char* first,
                  const char* second) {
  if (override_usage.is_object()) usage.merge_patch(json(override_usage));
  if (!(override_usage.is_object() && override_usage.contains("total_tokens")) &&
      usage.contains("total_tokens") && usage[first].is_number_integer() &&
      usage[second].is_number_integer()) {
    usage["total_tokens"] = usage[first].get<std::int64_t>() + usage[second].get<std::int64_t>();
  }
  return usage;
}

}  // namespace

ReplyContent reply_content(const Reply& reply, const std::optional<std::string>& forced,
                           const char* id_prefix, std::uint64_t serial) {
  ReplyContent out;
  if ((reply.kind == ReplyKind::json && forced) || reply.kind == ReplyKind::tool_calls) {
    out.calls_tool = true;
    out.calls = calls_for(reply, forced, id_prefix, serial);
  } else if (reply.kind == ReplyKind::json) {
    out.text = reply.value.dump();
  } else if (reply.kind == ReplyKind::text || reply.kind == ReplyKind::truncated ||
             (reply.kind == ReplyKind::content_filter && !reply.text.empty())) {
    out.text = reply.text;
  }
  return out;
}

std::vector<CallOut> calls_for(const Reply& reply, const std::optional<std::string>& forced,
                               const char* id_prefix, std::uint64_t serial) {
  std::vector<CallOut> out;
  if (reply.kind == ReplyKind::json) {
    const auto text = reply.value.dump();
    out.push_back({serial_id(id_prefix, serial), *forced, payload_text(reply, text),
                   payload_json(reply, text)});
    return out;
  }
  for (std::size_t i = 0; i < reply.tool_calls.size(); ++i) {
    const auto& call = reply.tool_calls[i];
    CallOut c;
    c.id = call.id.value_or(serial_id(id_prefix, serial, i));
    c.name = call.name;
    if (call.arguments.is_string()) {
      // A string is the arguments text verbatim. Anthropic's input is a JSON value, so a string
      // that parses as an object is sent as that object, and any other string as a JSON string
      // (a wrongly shaped input, on purpose).
      const auto& s = call.arguments.get_ref<const std::string&>();
      c.arguments_text = payload_text(reply, s);
      const auto parsed = json::parse(s, nullptr, false);
      c.input_json = payload_json(reply, parsed.is_object() ? s : json_string_literal(s));
    } else {
      const auto text = call.arguments.dump();
      c.arguments_text = payload_text(reply, text);
      c.input_json = payload_json(reply, text);
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::size_t content_bytes(const Reply& reply) {
  switch (reply.kind) {
    case ReplyKind::json:
      return reply.value.dump().size();
    case ReplyKind::tool_calls: {
      std::size_t n = 0;
      for (const auto& c : reply.tool_calls) n += c.arguments.dump().size() + c.name.size();
      return n;
    }
    case ReplyKind::empty:
    case ReplyKind::http:
      return 0;
    default:
      return reply.text.size();
  }
}

std::string model_of(const request_json& request) {
  return string_member(request, "model").value_or("accord-mock");
}

namespace {

RenderedReply finish(Endpoint endpoint, const Reply& reply, const Splicer& splicer,
                     const json& document, std::uint64_t serial) {
  RenderedReply out;
  out.status = 200;
  out.body = splicer.serialise(document);
  out.headers.emplace_back(endpoint == Endpoint::messages ? "request-id" : "x-request-id",
                           serial_id("req_", serial));
  for (const auto& h : reply.headers) out.headers.push_back(h);
  return out;
}

RenderedReply render_chat(const Reply& reply, const request_json& request,
                          std::size_t request_bytes, std::uint64_t serial) {
  Splicer splicer;
  const auto forced = forced_tool(Endpoint::chat_completions, request);
  json message = {{"role", "assistant"},
                  {"content", nullptr},
                  {"refusal", nullptr},
                  {"annotations", json::array()}};
  std::string finish_reason = "stop";
  bool no_choices = false;

  if ((reply.kind == ReplyKind::json && forced) || reply.kind == ReplyKind::tool_calls) {
    json calls = json::array();
    for (auto& c : calls_for(reply, forced, "call_", serial)) {
      calls.push_back(
          {{"id", c.id},
           {"type", "function"},
           {"function", {{"name", c.name}, {"arguments", splicer.string(c.arguments_text)}}}});
    }
    message["tool_calls"] = std::move(calls);
    // OpenAI reports "stop" when the tool was forced, "tool_calls" when the model chose.
    finish_reason = reply.kind == ReplyKind::tool_calls ? "tool_calls" : "stop";
  } else {
    switch (reply.kind) {
      case ReplyKind::json:
        message["content"] = splicer.string(payload_text(reply, reply.value.dump()));
        break;
      case ReplyKind::text:
        message["content"] = splicer.string(payload_text(reply, reply.text));
        break;
      case ReplyKind::refusal:
        message["refusal"] = splicer.string(payload_text(reply, reply.text));
        break;
      case ReplyKind::truncated:
        message["content"] = splicer.string(payload_text(reply, reply.text));
        finish_reason = "length";
        break;
      case ReplyKind::content_filter:
        if (!reply.text.empty())
          message["content"] = splicer.string(payload_text(reply, reply.text));
        finish_reason = "content_filter";
        break;
      case ReplyKind::empty:
        no_choices = true;
        break;
      default:
        break;
    }
  }

  json choices = json::array();
  if (!no_choices) {
    choices.push_back({{"index", 0},
                       {"message", std::move(message)},
                       {"logprobs", nullptr},
                       {"finish_reason", finish_reason}});
  }
  const auto prompt = tokens_for(request_bytes);
  const auto completion = reply.kind == ReplyKind::empty ? 0 : tokens_for(content_bytes(reply));
  json usage = {{"prompt_tokens", prompt},
                {"completion_tokens", completion},
                {"total_tokens", prompt + completion},
                {"prompt_tokens_details", {{"cached_tokens", 0}, {"audio_tokens", 0}}},
                {"completion_tokens_details",
                 {{"reasoning_tokens", 0},
                  {"audio_tokens", 0},
                  {"accepted_prediction_tokens", 0},
                  {"rejected_prediction_tokens", 0}}}};
  json document = {
      {"id", serial_id("chatcmpl-", serial)},
      {"object", "chat.completion"},
      {"created", now_seconds()},
      {"model", model_of(request)},
      {"choices", std::move(choices)},
      {"usage", finish_usage(std::move(usage), reply.usage, "prompt_tokens", "completion_tokens")},
      {"service_tier", "default"},
      {"system_fingerprint", "fp_accord_mock"}};
  return finish(Endpoint::chat_completions, reply, splicer, document, serial);
}

RenderedReply render_responses(const Reply& reply, const request_json& request,
                               std::size_t request_bytes, std::uint64_t serial) {
  Splicer splicer;
  const auto forced = forced_tool(Endpoint::responses, request);
  json output = json::array();
  std::string status = "completed";
  json incomplete = nullptr;

  auto message = [&](json content, const char* item_status) {
    return json{{"type", "message"},
                {"id", serial_id("msg_", serial)},
                {"status", item_status},
                {"role", "assistant"},
                {"content", std::move(content)}};
  };
  auto output_text = [&](const std::string& text) {
    return json{{"type", "output_text"},
                {"text", splicer.string(payload_text(reply, text))},
                {"annotations", json::array()},
                {"logprobs", json::array()}};
  };

  if ((reply.kind == ReplyKind::json && forced) || reply.kind == ReplyKind::tool_calls) {
    auto calls = calls_for(reply, forced, "call_", serial);
    for (std::size_t i = 0; i < calls.size(); ++i) {
      output.push_back({{"type", "function_call"},
                        {"id", serial_id("fc_", serial, i)},
                        {"call_id", calls[i].id},
                        {"name", calls[i].name},
                        {"arguments", splicer.string(calls[i].arguments_text)},
                        {"status", "completed"}});
    }
  } else {
    switch (reply.kind) {
      case ReplyKind::json:
        output.push_back(message(json::array({output_text(reply.value.dump())}), "completed"));
        break;
      case ReplyKind::text:
        output.push_back(message(json::array({output_text(reply.text)}), "completed"));
        break;
      case ReplyKind::refusal:
        output.push_back(
            message(json::array({{{"type", "refusal"},
                                  {"refusal", splicer.string(payload_text(reply, reply.text))}}}),
                    "completed"));
        break;
      case ReplyKind::truncated:
        status = "incomplete";
        incomplete = {{"reason", "max_output_tokens"}};
        output.push_back(message(json::array({output_text(reply.text)}), "incomplete"));
        break;
      case ReplyKind::content_filter:
        status = "incomplete";
        incomplete = {{"reason", "content_filter"}};
        output.push_back(
            message(reply.text.empty() ? json::array() : json::array({output_text(reply.text)}),
                    "incomplete"));
        break;
      default:  // empty: no output items at all
        break;
    }
  }

  const auto input = tokens_for(request_bytes);
  const auto produced = reply.kind == ReplyKind::empty ? 0 : tokens_for(content_bytes(reply));
  json usage = {{"input_tokens", input},
                {"input_tokens_details", {{"cached_tokens", 0}}},
                {"output_tokens", produced},
                {"output_tokens_details", {{"reasoning_tokens", 0}}},
                {"total_tokens", input + produced}};
  const auto* tools = member(request, "tools");
  const auto* tool_choice = member(request, "tool_choice");
  const auto* text = member(request, "text");
  json document = {
      {"id", serial_id("resp_", serial)},
      {"object", "response"},
      {"created_at", now_seconds()},
      {"status", status},
      {"error", nullptr},
      {"incomplete_details", incomplete},
      {"instructions", string_member(request, "instructions")
                           ? json(*string_member(request, "instructions"))
                           : json(nullptr)},
      {"model", model_of(request)},
      {"output", std::move(output)},
      {"parallel_tool_calls", true},
      {"tool_choice", tool_choice ? json(*tool_choice) : json("auto")},
      {"tools", tools ? json(*tools) : json::array()},
      {"text", text ? json(*text) : json{{"format", {{"type", "text"}}}}},
      {"usage", finish_usage(std::move(usage), reply.usage, "input_tokens", "output_tokens")}};
  return finish(Endpoint::responses, reply, splicer, document, serial);
}

RenderedReply render_messages(const Reply& reply, const request_json& request,
                              std::size_t request_bytes, std::uint64_t serial) {
  Splicer splicer;
  const auto forced = forced_tool(Endpoint::messages, request);
  json content = json::array();
  std::string stop_reason = "end_turn";
  json stop_details = nullptr;

  auto text_block = [&](const std::string& text) {
    return json{{"type", "text"},
                {"text", splicer.string(payload_text(reply, text))},
                {"citations", nullptr}};
  };

  const auto said = reply_content(reply, forced, "toolu_", serial);
  for (auto& c : said.calls) {
    content.push_back({{"type", "tool_use"},
                       {"id", c.id},
                       {"name", c.name},
                       {"input", splicer.raw(c.input_json)}});
  }
  if (said.text) content.push_back(text_block(*said.text));
  if (said.calls_tool) {
    stop_reason = "tool_use";
  } else if (reply.kind == ReplyKind::refusal) {
    stop_reason = "refusal";
    stop_details = {{"type", "refusal"},
                    {"category", "general_harms"},
                    {"explanation", splicer.string(payload_text(reply, reply.text))}};
  } else if (reply.kind == ReplyKind::truncated) {
    stop_reason = "max_tokens";
  } else if (reply.kind == ReplyKind::content_filter) {
    // Anthropic has no separate filter signal: it is a refusal.
    stop_reason = "refusal";
    stop_details = {{"type", "refusal"}, {"category", nullptr}, {"explanation", nullptr}};
  }

  const auto input = tokens_for(request_bytes);
  const auto produced = reply.kind == ReplyKind::empty ? 0 : tokens_for(content_bytes(reply));
  json usage = {{"input_tokens", input},
                {"output_tokens", produced},
                {"cache_creation_input_tokens", 0},
                {"cache_read_input_tokens", 0},
                {"service_tier", "standard"}};
  if (reply.usage.is_object()) usage.merge_patch(json(reply.usage));
  json document = {{"id", serial_id("msg_", serial)},
                   {"type", "message"},
                   {"role", "assistant"},
                   {"model", model_of(request)},
                   {"content", std::move(content)},
                   {"stop_reason", stop_reason},
                   {"stop_sequence", nullptr},
                   {"stop_details", stop_details},
                   {"usage", std::move(usage)}};
  return finish(Endpoint::messages, reply, splicer, document, serial);
}

struct ErrorDefaults {
  const char* openai_type;
  const char* openai_code;  // nullptr: JSON null
  const char* anthropic_type;
  const char* message;
};

ErrorDefaults error_defaults(int status) {
  switch (status) {
    case 400:
      return {"invalid_request_error", nullptr, "invalid_request_error", "Invalid request."};
    case 401:
      // Real OpenAI 401 messages quote part of the key; the mock never does.
      return {"invalid_request_error", "invalid_api_key", "authentication_error",
              "Incorrect API key provided."};
    case 402:
      return {"invalid_request_error", nullptr, "billing_error", "Billing problem."};
    case 403:
      return {"invalid_request_error", "unsupported_country_region_territory", "permission_error",
              "Your API key does not have permission to use this resource."};
    case 404:
      return {"invalid_request_error", "model_not_found", "not_found_error",
              "The requested resource was not found."};
    case 408:
      return {"invalid_request_error", nullptr, "timeout_error", "Request timed out."};
    case 409:
      return {"invalid_request_error", nullptr, "invalid_request_error", "Conflict."};
    case 413:
      return {"invalid_request_error", nullptr, "request_too_large",
              "Request exceeds the maximum size."};
    case 422:
      return {"invalid_request_error", nullptr, "invalid_request_error", "Unprocessable entity."};
    case 429:
      return {"requests", "rate_limit_exceeded", "rate_limit_error",
              "Rate limit reached for requests. Please try again in 1s."};
    case 500:
      return {"server_error", nullptr, "api_error",
              "The server had an error while processing your request."};
    case 502:
      return {"server_error", nullptr, "api_error", "Bad gateway."};
    case 503:
      return {"server_error", nullptr, "api_error",
              "The engine is currently overloaded, please try again later."};
    case 504:
      return {"server_error", nullptr, "timeout_error", "Gateway timeout."};
    case 529:
      return {"server_error", nullptr, "overloaded_error", "Overloaded"};
    default:
      return status >= 500 ? ErrorDefaults{"server_error", nullptr, "api_error", "Server error."}
                           : ErrorDefaults{"invalid_request_error", nullptr,
                                           "invalid_request_error", "Request failed."};
  }
}

}  // namespace

const char* error_message(int status) {
  return error_defaults(status).message;
}

std::int64_t tokens_for(std::size_t bytes) {
  return static_cast<std::int64_t>(std::max<std::size_t>(1, bytes / kBytesPerToken));
}

std::string json_string_literal(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + 2);
  out.push_back('"');
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
  return out;
}

std::string nested_json(std::size_t depth) {
  static constexpr std::string_view open = "{\"n\":";
  std::string out;
  out.reserve(depth * (open.size() + 1) + 1);
  for (std::size_t i = 0; i < depth; ++i) out += open;
  out.push_back('0');
  out.append(depth, '}');
  return out;
}

void pad_body(std::string& body, std::size_t size) {
  if (body.size() >= size) return;
  const auto extra = size - body.size();
  if (!body.empty() && body.front() == '{') {
    body.insert(1, extra, ' ');
  } else {
    body.append(extra, ' ');
  }
}

std::string serial_id(const char* prefix, std::uint64_t serial, std::size_t index) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%saccord%06llu%s", prefix,
                static_cast<unsigned long long>(serial),
                index == 0 ? "" : ("_" + std::to_string(index)).c_str());
  return buffer;
}

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

RenderedReply render_error(Endpoint endpoint, int status, const request_json& fields,
                           std::uint64_t serial) {
  if (endpoint == Endpoint::gemini) return render_gemini_error(status, fields, serial);
  if (endpoint == Endpoint::converse) return render_bedrock_error(status, fields, serial);
  const auto d = error_defaults(status);
  if (endpoint == Endpoint::ollama_chat) return render_ollama_error(status, d.message, fields);
  json document;
  if (endpoint == Endpoint::messages) {
    json error = {{"type", d.anthropic_type}, {"message", d.message}};
    if (fields.is_object()) error.update(json(fields));  // a null value stays null
    document = {
        {"type", "error"}, {"error", std::move(error)}, {"request_id", serial_id("req_", serial)}};
  } else {
    json error = {{"message", d.message},
                  {"type", d.openai_type},
                  {"param", nullptr},
                  {"code", d.openai_code ? json(d.openai_code) : json(nullptr)}};
    if (fields.is_object()) error.update(json(fields));  // a null value stays null
    document = {{"error", std::move(error)}};
  }
  RenderedReply out;
  out.status = status;
  out.body = document.dump(-1, ' ', false, json::error_handler_t::replace);
  out.headers.emplace_back(endpoint == Endpoint::messages ? "request-id" : "x-request-id",
                           serial_id("req_", serial));
  return out;
}

RenderedReply render_not_found(std::string_view method, std::string_view path,
                               std::uint64_t serial) {
  return render_error(Endpoint::chat_completions, 404,
                      request_json{{"message", "Invalid URL (" + std::string(method) + " " +
                                                   std::string(path) + ")"},
                                   {"code", nullptr}},
                      serial);
}

RenderedReply render_reply(Endpoint endpoint, const Reply& reply, const request_json& request,
                           std::size_t request_bytes, std::uint64_t serial) {
  RenderedReply out;
  if (reply.kind == ReplyKind::http) {
    if (reply.body) {
      out.status = reply.status;
      out.body = reply.body->is_string() ? reply.body->get<std::string>() : reply.body->dump();
      out.headers.emplace_back(endpoint == Endpoint::messages ? "request-id" : "x-request-id",
                               serial_id("req_", serial));
    } else {
      out = render_error(endpoint, reply.status, reply.error_fields, serial);
    }
    if (reply.content_type) out.content_type = *reply.content_type;
    for (const auto& h : reply.headers) out.headers.push_back(h);
  } else {
    switch (endpoint) {
      case Endpoint::chat_completions:
        out = render_chat(reply, request, request_bytes, serial);
        break;
      case Endpoint::responses:
        out = render_responses(reply, request, request_bytes, serial);
        break;
      case Endpoint::messages:
        out = render_messages(reply, request, request_bytes, serial);
        break;
      case Endpoint::gemini:
        out = render_gemini(reply, request, request_bytes, serial);
        break;
      case Endpoint::converse:
        out = render_converse(reply, request, request_bytes, serial);
        break;
      case Endpoint::azure_chat_completions:
        out =
            with_azure_annotations(render_chat(reply, request, request_bytes, serial), reply.kind);
        break;
      case Endpoint::ollama_chat:
        out = render_ollama_chat(reply, request, request_bytes);
        break;
    }
  }
  pad_body(out.body, reply.pad_bytes);
  return out;
}

}  // namespace accord_mock
