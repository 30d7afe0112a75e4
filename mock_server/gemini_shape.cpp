#include "gemini_shape.hpp"

#include "render_parts.hpp"
#include "stream.hpp"

namespace accord_mock {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the real API sends them
using request_json = nlohmann::json;

// The function the request forces: mode ANY with one allowed name, or with one declaration.
std::optional<std::string> forced_function(const request_json& request) {
  const auto* config = member(request, "toolConfig");
  const auto* calling = config != nullptr ? member(*config, "functionCallingConfig") : nullptr;
  if (calling == nullptr || string_member(*calling, "mode") != "ANY") return std::nullopt;
  if (const auto* allowed = member(*calling, "allowedFunctionNames");
      allowed != nullptr && allowed->is_array() && allowed->size() == 1 &&
      (*allowed)[0].is_string()) {
    return (*allowed)[0].get<std::string>();
  }
  const auto* tools = member(request, "tools");
  if (tools == nullptr || !tools->is_array() || tools->size() != 1) return std::nullopt;
  const auto* declarations = member((*tools)[0], "functionDeclarations");
  if (declarations == nullptr || !declarations->is_array() || declarations->size() != 1) {
    return std::nullopt;
  }
  return string_member((*declarations)[0], "name");
}

json safety_ratings(bool blocked) {
  json ratings = json::array();
  for (const char* category : {"HARM_CATEGORY_HATE_SPEECH", "HARM_CATEGORY_DANGEROUS_CONTENT",
                               "HARM_CATEGORY_HARASSMENT", "HARM_CATEGORY_SEXUALLY_EXPLICIT"}) {
    json rating{{"category", category}, {"probability", "NEGLIGIBLE"}};
    if (blocked && ratings.empty()) {
      rating["probability"] = "HIGH";
      rating["blocked"] = true;
    }
    ratings.push_back(std::move(rating));
  }
  return ratings;
}

// Google's canonical code for an HTTP status, as its error envelopes name it.
const char* status_name(int status) {
  switch (status) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "ABORTED";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 501:
      return "UNIMPLEMENTED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}

}  // namespace

RenderedReply render_gemini(const Reply& reply, const request_json& request,
                            std::size_t request_bytes, std::uint64_t serial) {
  Splicer splicer;
  const auto forced = forced_function(request);
  json parts = json::array();
  std::string finish = "STOP";
  bool blocked_prompt = false;

  const auto text_part = [&](const std::string& text) {
    return json{{"text", splicer.string(payload_text(reply, text))}};
  };
  const auto said = reply_content(reply, forced, "call_", serial);
  for (std::size_t i = 0; i < said.calls.size(); ++i) {
    // The Gemini API mostly sends calls without ids (the order ties results to them): an id goes
    // only where the scenario gives one.
    json call{{"name", said.calls[i].name}, {"args", splicer.raw(said.calls[i].input_json)}};
    if (reply.kind == ReplyKind::tool_calls && reply.tool_calls[i].id) {
      call["id"] = *reply.tool_calls[i].id;
    }
    parts.push_back({{"functionCall", std::move(call)}});
  }
  if (said.text) parts.push_back(text_part(*said.text));
  if (reply.kind == ReplyKind::refusal) {
    blocked_prompt = true;
  } else if (reply.kind == ReplyKind::truncated) {
    finish = "MAX_TOKENS";
  } else if (reply.kind == ReplyKind::content_filter) {
    finish = "SAFETY";
  }

  const auto prompt = tokens_for(request_bytes);
  const auto produced =
      blocked_prompt || reply.kind == ReplyKind::empty ? 0 : tokens_for(content_bytes(reply));
  json usage{
      {"promptTokenCount", prompt},
      {"candidatesTokenCount", produced},
      {"totalTokenCount", prompt + produced},
      {"promptTokensDetails", json::array({{{"modality", "TEXT"}, {"tokenCount", prompt}}})}};
  if (reply.usage.is_object()) {
    usage.merge_patch(json(reply.usage));
    if (!reply.usage.contains("totalTokenCount")) {
      usage["totalTokenCount"] = usage.value("promptTokenCount", 0) +
                                 usage.value("candidatesTokenCount", 0) +
                                 usage.value("thoughtsTokenCount", 0);
    }
  }
  json document = json::object();
  if (blocked_prompt) {
    document["promptFeedback"] = {{"blockReason", "SAFETY"},
                                  {"safetyRatings", safety_ratings(true)}};
  } else {
    json candidate = json::object();
    if (reply.kind != ReplyKind::empty) {
      candidate["content"] = {{"parts", std::move(parts)}, {"role", "model"}};
    }
    candidate["finishReason"] = finish;
    if (finish == "SAFETY") candidate["safetyRatings"] = safety_ratings(true);
    candidate["index"] = 0;
    document["candidates"] = json::array({std::move(candidate)});
  }
  document["usageMetadata"] = std::move(usage);
  document["modelVersion"] = "accord-mock";
  document["responseId"] = serial_id("", serial);

  RenderedReply out;
  out.body = splicer.serialise(document);
  for (const auto& h : reply.headers) out.headers.push_back(h);
  return out;
}

RenderedReply render_gemini_error(int status, const request_json& fields, std::uint64_t) {
  json error{{"code", status}, {"message", error_message(status)}, {"status", status_name(status)}};
  if (fields.is_object()) error.update(json(fields));  // a null value stays null
  RenderedReply out;
  out.status = status;
  out.body = json{{"error", std::move(error)}}.dump(-1, ' ', false, json::error_handler_t::replace);
  return out;
}

std::vector<std::string> gemini_events(const request_json& body, std::size_t size) {
  const auto event = [](const request_json& data) {
    return "data: " + data.dump(-1, ' ', false, request_json::error_handler_t::replace) +
           "\r\n\r\n";
  };
  const auto candidates = body.find("candidates");
  if (candidates == body.end() || !candidates->is_array() || candidates->empty()) {
    return {event(body)};  // a blocked prompt: one chunk, as the API sends it
  }
  const request_json& candidate = (*candidates)[0];
  request_json head = body;
  head.erase("usageMetadata");
  const auto chunk = [&](request_json parts) {
    request_json c = head;
    c["candidates"] = request_json::array(
        {{{"content", {{"parts", std::move(parts)}, {"role", "model"}}}, {"index", 0}}});
    return c;
  };
  std::vector<request_json> chunks;
  if (const auto content = candidate.find("content"); content != candidate.end()) {
    for (const auto& part : content->value("parts", request_json::array())) {
      if (part.contains("text") && part["text"].is_string()) {
        for (auto& piece : pieces(part["text"].get<std::string>(), size)) {
          chunks.push_back(chunk(request_json::array({{{"text", std::move(piece)}}})));
        }
      } else {
        chunks.push_back(chunk(request_json::array({part})));
      }
    }
  }
  // The last chunk carries the ending and the usage.
  if (chunks.empty()) chunks.push_back(chunk(request_json::array()));
  auto& last = chunks.back()["candidates"][0];
  for (const auto& [key, value] : candidate.items()) {
    if (key != "content") last[key] = value;
  }
  if (body.contains("usageMetadata")) chunks.back()["usageMetadata"] = body["usageMetadata"];
  std::vector<std::string> out;
  for (const auto& c : chunks) out.push_back(event(c));
  return out;
}

}  // namespace accord_mock
