#include "stream.hpp"

#include "azure_shape.hpp"

#include <string_view>

#include "bedrock_shape.hpp"
#include "gemini_shape.hpp"
#include "ollama_shape.hpp"

namespace accord_mock {
namespace {

using nlohmann::json;

std::string data_event(const json& data) {
  return "data: " + data.dump(-1, ' ', false, json::error_handler_t::replace) + "\n\n";
}

// Responses and Anthropic name each event in an `event:` line as well as in its `type`.
std::string typed_event(const std::string& type, json data) {
  data["type"] = type;
  return "event: " + type + "\n" + data_event(data);
}

}  // namespace

std::vector<std::string> pieces(std::string_view text, std::size_t size) {
  std::vector<std::string> out;
  while (!text.empty()) {
    std::size_t n = std::min(size, text.size());
    // Back off to a character boundary (a continuation byte is 10xxxxxx).
    while (n < text.size() && n > 1 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    out.emplace_back(text.substr(0, n));
    text.remove_prefix(n);
  }
  return out;
}

namespace {

std::string string_of(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::vector<std::string> chat_events(const json& body, bool include_usage, std::size_t size) {
  std::vector<std::string> out;
  json head{{"id", body.value("id", "")},
            {"object", "chat.completion.chunk"},
            {"created", body.value("created", 0)},
            {"model", body.value("model", "")}};
  const auto chunk = [&](json delta, json finish) {
    json c = head;
    c["choices"] = json::array(
        {json{{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", std::move(finish)}}});
    out.push_back(data_event(c));
  };
  const json& choice = body.at("choices").at(0);
  const json& message = choice.at("message");
  const auto content = message.find("content");
  const bool text = content != message.end() && content->is_string();
  chunk(json{{"role", "assistant"}, {"content", text ? json("") : json(nullptr)}}, nullptr);
  for (auto& piece : pieces(string_of(message, "content"), size))
    chunk(json{{"content", std::move(piece)}}, nullptr);
  for (auto& piece : pieces(string_of(message, "refusal"), size))
    chunk(json{{"refusal", std::move(piece)}}, nullptr);
  if (const auto calls = message.find("tool_calls"); calls != message.end() && calls->is_array()) {
    for (std::size_t i = 0; i < calls->size(); ++i) {
      const json& call = (*calls)[i];
      const json& function = call.at("function");
      chunk(json{{"tool_calls",
                  json::array({json{
                      {"index", i},
                      {"id", call.value("id", "")},
                      {"type", "function"},
                      {"function", {{"name", function.value("name", "")}, {"arguments", ""}}}}})}},
            nullptr);
      // Every chunk names the function: Mistral's SDK requires name and arguments in each, and
      // OpenAI's accepts the name repeated.
      for (auto& piece : pieces(string_of(function, "arguments"), size)) {
        chunk(json{{"tool_calls", json::array({json{{"index", i},
                                                    {"function",
                                                     {{"name", function.value("name", "")},
                                                      {"arguments", piece}}}}})}},
              nullptr);
      }
    }
  }
  chunk(json::object(), choice.value("finish_reason", json(nullptr)));
  if (include_usage && body.contains("usage")) {
    json c = head;
    c["choices"] = json::array();
    c["usage"] = body["usage"];
    out.push_back(data_event(c));
  }
  out.emplace_back("data: [DONE]\n\n");
  return out;
}

// The Responses lifecycle as the API streams it (docs/providers.md 7.2): every event numbered,
// each content part opened, filled, closed with its whole text, then its item closed.
std::vector<std::string> responses_events(const json& body, std::size_t size) {
  std::vector<std::string> out;
  const auto emit = [&out](const std::string& type, json data) {
    data["sequence_number"] = out.size();
    out.push_back(typed_event(type, std::move(data)));
  };
  json started = body;
  started["status"] = "in_progress";
  started["output"] = json::array();
  started.erase("usage");
  emit("response.created", {{"response", started}});
  emit("response.in_progress", {{"response", started}});
  const json& output = body.at("output");
  for (std::size_t index = 0; index < output.size(); ++index) {
    const json& item = output[index];
    const std::string type = string_of(item, "type");
    const std::string id = string_of(item, "id");
    json opened = item;
    if (opened.contains("status")) opened["status"] = "in_progress";
    if (type == "message") opened["content"] = json::array();
    if (type == "function_call") opened["arguments"] = "";
    emit("response.output_item.added", {{"output_index", index}, {"item", opened}});
    if (type == "message") {
      const json& content = item.at("content");
      for (std::size_t part = 0; part < content.size(); ++part) {
        const bool refusal = string_of(content[part], "type") == "refusal";
        const char* field = refusal ? "refusal" : "text";
        const std::string kind = refusal ? "response.refusal" : "response.output_text";
        const std::string text = string_of(content[part], field);
        const json where{{"item_id", id}, {"output_index", index}, {"content_index", part}};
        json empty = content[part];
        empty[field] = "";
        json added = where;
        added["part"] = std::move(empty);
        emit("response.content_part.added", std::move(added));
        for (auto& piece : pieces(text, size)) {
          json delta = where;
          delta["delta"] = std::move(piece);
          if (!refusal) delta["logprobs"] = json::array();
          emit(kind + ".delta", std::move(delta));
        }
        json done = where;
        done[field] = text;
        emit(kind + ".done", std::move(done));
        json closed = where;
        closed["part"] = content[part];
        emit("response.content_part.done", std::move(closed));
      }
    } else if (type == "function_call") {
      for (auto& piece : pieces(string_of(item, "arguments"), size)) {
        emit("response.function_call_arguments.delta",
             {{"item_id", id}, {"output_index", index}, {"delta", piece}});
      }
      emit("response.function_call_arguments.done", {{"item_id", id},
                                                     {"output_index", index},
                                                     {"name", string_of(item, "name")},
                                                     {"arguments", string_of(item, "arguments")}});
    }
    emit("response.output_item.done", {{"output_index", index}, {"item", item}});
  }
  const std::string status = string_of(body, "status");
  const std::string last = status == "incomplete" ? "response.incomplete"
                           : status == "failed"   ? "response.failed"
                                                  : "response.completed";
  emit(last, {{"response", body}});
  return out;
}

std::vector<std::string> messages_events(const json& body, std::size_t size) {
  std::vector<std::string> out;
  json started = body;
  started["content"] = json::array();
  started["stop_reason"] = nullptr;
  started["stop_sequence"] = nullptr;
  out.push_back(typed_event("message_start", {{"message", started}}));
  const json& content = body.at("content");
  for (std::size_t index = 0; index < content.size(); ++index) {
    const json& block = content[index];
    const std::string type = string_of(block, "type");
    json opened = block;
    std::string text;
    if (type == "text") {
      text = string_of(block, "text");
      opened["text"] = "";
    } else if (type == "tool_use") {
      text = block.value("input", json::object()).dump();
      opened["input"] = json::object();
    }
    out.push_back(
        typed_event("content_block_start", {{"index", index}, {"content_block", opened}}));
    for (auto& piece : pieces(text, size)) {
      const json delta = type == "text"
                             ? json{{"type", "text_delta"}, {"text", piece}}
                             : json{{"type", "input_json_delta"}, {"partial_json", piece}};
      out.push_back(typed_event("content_block_delta", {{"index", index}, {"delta", delta}}));
    }
    out.push_back(typed_event("content_block_stop", {{"index", index}}));
  }
  json usage = body.value("usage", json::object());
  out.push_back(typed_event("message_delta",
                            {{"delta",
                              {{"stop_reason", body.value("stop_reason", json(nullptr))},
                               {"stop_sequence", body.value("stop_sequence", json(nullptr))}}},
                             {"usage", {{"output_tokens", usage.value("output_tokens", 0)}}}}));
  out.push_back(typed_event("message_stop", json::object()));
  return out;
}

}  // namespace

std::vector<std::string> stream_events(Endpoint endpoint, const std::string& body,
                                       bool include_usage, std::size_t chunk_chars) {
  const json parsed = json::parse(body, nullptr, false);
  try {
    if (!parsed.is_discarded()) {
      switch (endpoint) {
        case Endpoint::chat_completions:
          return chat_events(parsed, include_usage, chunk_chars);
        case Endpoint::responses:
          return responses_events(parsed, chunk_chars);
        case Endpoint::messages:
          return messages_events(parsed, chunk_chars);
        case Endpoint::gemini:
          return gemini_events(parsed, chunk_chars);
        case Endpoint::converse:
          return converse_stream_events(parsed, chunk_chars);
        case Endpoint::azure_chat_completions:
          return with_prompt_filter_chunk(chat_events(parsed, include_usage, chunk_chars));
        case Endpoint::ollama_chat:
          return ollama_stream_lines(parsed, chunk_chars);
      }
    }
  } catch (const json::exception&) {
    // Not the shape of a successful reply: sent as it is, below.
  }
  if (endpoint == Endpoint::ollama_chat) return {body + "\n"};
  return {"data: " + body + "\n\n"};
}

}  // namespace accord_mock
