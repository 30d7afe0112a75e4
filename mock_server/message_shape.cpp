#include "message_shape.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "accord/content.hpp"
#include "core/base64.hpp"

namespace accord_mock {
namespace {

using nlohmann::json;

// What a part is found to be wrong with; thrown inside this file only, caught at its door.
struct Malformed {
  std::string message;
};

[[noreturn]] void fail(std::string message) {
  throw Malformed{std::move(message)};
}

// The member, or null when `object` has none (const operator[] may not look up a missing key).
const json& member(const json& object, const char* key) {
  static const json kNull;
  const auto found = object.is_object() ? object.find(key) : object.end();
  return found == object.end() ? kNull : *found;
}

std::string text_at(const json& object, const char* key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_string()) fail(where + ": `" + key + "` is not a string");
  return found->get<std::string>();
}

const json& object_at(const json& object, const char* key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_object())
    fail(where + ": `" + key + "` is not an object");
  return *found;
}

// Base64 bytes declared as `media_type`: they decode, and their signature says the same type (a
// type without a signature, such as text/plain, is taken as declared).
void check_bytes(const std::string& media_type, const std::string& base64,
                 const std::string& where) {
  const auto bytes = accord::detail::base64_decode(base64);
  if (!bytes) fail(where + ": the data is not valid base64");
  if (bytes->empty()) fail(where + ": the data is empty");
  const bool has_signature = media_type.starts_with("image/") || media_type == "application/pdf";
  const std::string sniffed = accord::sniff_media_type(*bytes);
  if (has_signature && sniffed != media_type) {
    fail(where + ": the media type is " + media_type + " but the bytes are " +
         (sniffed.empty() ? std::string("not of that type") : sniffed));
  }
}

// "data:<type>;base64,<data>": its type must be among `types` (any when empty).
void check_data_url(const std::string& url, std::string_view kind, const std::string& where) {
  if (!url.starts_with("data:")) {
    if (!url.starts_with("https://") && !url.starts_with("http://"))
      fail(where + ": the URL is neither https:// nor a data: URL");
    return;
  }
  const auto marker = url.find(";base64,");
  if (marker == std::string::npos) fail(where + ": a data: URL without ;base64,");
  const std::string type = url.substr(5, marker - 5);
  if (kind == "image" && !type.starts_with("image/"))
    fail(where + ": an image part of media type " + type);
  check_bytes(type, url.substr(marker + 8), where);
}

// OpenAI Chat (and Mistral's, which writes image_url and document_url as bare strings).
void check_chat_part(const json& part, const std::string& where) {
  const std::string type = text_at(part, "type", where);
  if (type == "text") {
    (void)text_at(part, "text", where);
  } else if (type == "image_url" || type == "document_url") {
    const auto& address = member(part, type.c_str());
    const std::string url = address.is_string()
                                ? address.get<std::string>()
                                : text_at(object_at(part, type.c_str(), where), "url", where);
    check_data_url(url, type == "image_url" ? "image" : "document", where);
  } else if (type == "file") {
    const json& file = object_at(part, "file", where);
    (void)text_at(file, "filename", where);
    check_data_url(text_at(file, "file_data", where), "document", where);
  } else {
    fail(where + ": a content part of unknown type " + type);
  }
}

void check_chat(const json& messages, bool ollama) {
  bool tool_calls_before = false;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const std::string where = "messages[" + std::to_string(i) + "]";
    const json& message = messages[i];
    if (!message.is_object()) fail(where + " is not an object");
    const std::string role = text_at(message, "role", where);
    static constexpr std::array<std::string_view, 5> kRoles = {"system", "developer", "user",
                                                               "assistant", "tool"};
    if (std::find(kRoles.begin(), kRoles.end(), role) == kRoles.end())
      fail(where + ": unknown role " + role);
    if (role == "tool" && !tool_calls_before)
      fail(where + ": a tool message must follow an assistant message with tool_calls");
    if (role != "tool")
      tool_calls_before = role == "assistant" && !member(message, "tool_calls").is_null();
    if (const auto images = message.find("images"); images != message.end()) {
      if (!ollama || role != "user" || !images->is_array()) fail(where + ": unexpected `images`");
      for (std::size_t k = 0; k < images->size(); ++k) {
        const std::string at = where + ".images[" + std::to_string(k) + "]";
        if (!(*images)[k].is_string()) fail(at + " is not a string");
        const auto bytes = accord::detail::base64_decode((*images)[k].get<std::string>());
        if (!bytes || !accord::sniff_media_type(*bytes).starts_with("image/"))
          fail(at + ": the bytes are not an image (base64 PNG, JPEG, GIF or WebP)");
      }
    }
    const auto content = message.find("content");
    if (content == message.end() || !content->is_array()) continue;
    if (ollama || role != "user") fail(where + ": content parts in a " + role + " message");
    for (std::size_t k = 0; k < content->size(); ++k)
      check_chat_part((*content)[k], where + ".content[" + std::to_string(k) + "]");
  }
}

void check_responses(const json& input) {
  for (std::size_t i = 0; i < input.size(); ++i) {
    const std::string where = "input[" + std::to_string(i) + "]";
    const json& item = input[i];
    if (!item.is_object() || !item.contains("role")) continue;  // function calls and outputs
    const auto content = item.find("content");
    if (content == item.end() || !content->is_array()) continue;
    for (std::size_t k = 0; k < content->size(); ++k) {
      const std::string at = where + ".content[" + std::to_string(k) + "]";
      const json& part = (*content)[k];
      const std::string type = text_at(part, "type", at);
      if (type == "input_image") {
        check_data_url(text_at(part, "image_url", at), "image", at);
      } else if (type == "input_file") {
        if (part.contains("file_url")) continue;
        (void)text_at(part, "filename", at);
        check_data_url(text_at(part, "file_data", at), "document", at);
      } else if (type != "input_text" && type != "output_text") {
        fail(at + ": a content part of unknown type " + type);
      }
    }
  }
}

// The roles of Anthropic and Converse (user, assistant) or Gemini (user, model): the user first.
void check_user_first(const json& messages, const char* key, const char* model_role) {
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const std::string where = std::string(key) + "[" + std::to_string(i) + "]";
    // Gemini's role is optional, and a content without one is the user's.
    const bool gemini = std::string_view(model_role) == "model";
    const std::string role = gemini && member(messages[i], "role").is_null()
                                 ? std::string("user")
                                 : text_at(messages[i], "role", where);
    if (role != "user" && role != model_role) fail(where + ": unknown role " + role);
    if (i == 0 && role != "user") fail(where + ": the first message must be the user's");
  }
}

void check_anthropic(const json& messages) {
  check_user_first(messages, "messages", "assistant");
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const auto& content = member(messages[i], "content");
    if (!content.is_array()) continue;
    for (std::size_t k = 0; k < content.size(); ++k) {
      const std::string at =
          "messages[" + std::to_string(i) + "].content[" + std::to_string(k) + "]";
      const std::string type = text_at(content[k], "type", at);
      if (type != "image" && type != "document") continue;
      const json& source = object_at(content[k], "source", at);
      const std::string kind = text_at(source, "type", at + ".source");
      if (kind == "url") continue;
      if (kind != "base64") fail(at + ": a source of type " + kind);
      const std::string media_type = text_at(source, "media_type", at + ".source");
      if (type == "image" && !media_type.starts_with("image/"))
        fail(at + ": an image of media type " + media_type);
      check_bytes(media_type, text_at(source, "data", at + ".source"), at);
    }
  }
}

void check_gemini(const json& contents) {
  check_user_first(contents, "contents", "model");
  for (std::size_t i = 0; i < contents.size(); ++i) {
    const auto& parts = member(contents[i], "parts");
    if (!parts.is_array() || parts.empty())
      fail("contents[" + std::to_string(i) + "] has no parts");
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const std::string at = "contents[" + std::to_string(i) + "].parts[" + std::to_string(k) + "]";
      if (const auto inline_data = parts[k].find("inlineData"); inline_data != parts[k].end()) {
        check_bytes(text_at(*inline_data, "mimeType", at), text_at(*inline_data, "data", at), at);
      } else if (const auto file = parts[k].find("fileData"); file != parts[k].end()) {
        (void)text_at(*file, "mimeType", at);
        (void)text_at(*file, "fileUri", at);
      }
    }
  }
}

void check_converse(const json& messages) {
  check_user_first(messages, "messages", "assistant");
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kSignatures = {
      {{"png", "image/png"}, {"jpeg", "image/jpeg"}, {"gif", "image/gif"}, {"webp", "image/webp"}}};
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const auto& content = member(messages[i], "content");
    if (!content.is_array()) fail("messages[" + std::to_string(i) + "].content is not an array");
    for (std::size_t k = 0; k < content.size(); ++k) {
      const std::string at =
          "messages[" + std::to_string(i) + "].content[" + std::to_string(k) + "]";
      for (const char* kind : {"image", "document"}) {
        const auto block = content[k].find(kind);
        if (block == content[k].end()) continue;
        const std::string format = text_at(*block, "format", at);
        const std::string bytes = text_at(object_at(*block, "source", at), "bytes", at + ".source");
        std::string media_type = format == "pdf" ? "application/pdf" : "text/" + format;
        for (const auto& [name, type] : kSignatures) {
          if (format == name) media_type = type;
        }
        if (std::string_view(kind) == "document") (void)text_at(*block, "name", at);
        check_bytes(media_type, bytes, at);
      }
    }
  }
}

const json* array_at(const json& request, const char* key) {
  const auto found = request.find(key);
  return found != request.end() && found->is_array() ? &*found : nullptr;
}

}  // namespace

std::optional<std::string> malformed_messages(Endpoint endpoint, const json& request) {
  try {
    switch (endpoint) {
      case Endpoint::chat_completions:
      case Endpoint::azure_chat_completions:
      case Endpoint::ollama_chat:
        if (const json* messages = array_at(request, "messages"))
          check_chat(*messages, endpoint == Endpoint::ollama_chat);
        break;
      case Endpoint::responses:
        if (const json* input = array_at(request, "input")) check_responses(*input);
        break;
      case Endpoint::messages:
        if (const json* messages = array_at(request, "messages")) check_anthropic(*messages);
        break;
      case Endpoint::gemini:
        if (const json* contents = array_at(request, "contents")) check_gemini(*contents);
        break;
      case Endpoint::converse:
        if (const json* messages = array_at(request, "messages")) check_converse(*messages);
        break;
    }
  } catch (const Malformed& malformed) {
    return malformed.message;
  } catch (const json::exception& e) {
    return std::string("the conversation is not the API's shape: ") + e.what();
  }
  return std::nullopt;
}

}  // namespace accord_mock
