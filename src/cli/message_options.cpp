#include "message_options.hpp"

#include <accord/content.hpp>
#include <accord/printable.hpp>

#include "command.hpp"
#include "input_files.hpp"

namespace accord_cli {
namespace {

accord::Turn message_turn(const std::string& option) {
  const auto colon = option.find(':');
  const std::string role = option.substr(0, colon);
  using Role = accord::Turn::Role;
  const Role parsed = role == "system"      ? Role::system
                      : role == "user"      ? Role::user
                      : role == "assistant" ? Role::assistant
                                            : Role::tool_results;
  if (colon == std::string::npos || parsed == Role::tool_results) {
    throw Failure{kUsage, "--message " + accord::printable(option) +
                              ": expected ROLE:TEXT with ROLE system, user or assistant"};
  }
  return accord::Turn{.role = parsed, .text = option.substr(colon + 1)};
}

// The file as a part: its media type from its first bytes, else from its extension.
accord::ContentPart attached(const std::string& file, accord::ContentPart::Kind kind) {
  std::string bytes = read_file(file, kMaxAttachedFileBytes);
  std::string media_type = accord::sniff_media_type(bytes);
  if (media_type.empty()) media_type = accord::media_type_of_extension(file);
  const bool image = kind == accord::ContentPart::Kind::image;
  const char* option = image ? "--image " : "--document ";
  if (media_type.empty() || (image && !media_type.starts_with("image/"))) {
    throw Failure{kUsage, option + accord::printable(file) +
                              (image ? ": not a PNG, JPEG, GIF or WebP image"
                                     : ": cannot tell its media type from its bytes or extension")};
  }
  if (image) return accord::ContentPart::image(std::move(bytes), std::move(media_type));
  const auto slash = file.find_last_of('/');
  return accord::ContentPart::document(std::move(bytes), std::move(media_type),
                                       slash == std::string::npos ? file : file.substr(slash + 1));
}

}  // namespace

void add_message_options(CLI::App& command, MessageArgs& args) {
  command.add_option("--system", args.system,
                     "system instructions, sent after accord's own (which ask for the JSON)");
  command.add_option("--message", args.messages,
                     "a turn before the input, ROLE:TEXT with ROLE system, user or assistant "
                     "(repeatable, in order)");
  command.add_option("--image", args.images,
                     "an image file sent with the input (PNG, JPEG, GIF, WebP; repeatable)");
  command.add_option("--document", args.documents,
                     "a document file sent with the input (PDF, or text by its extension; "
                     "repeatable)");
}

void add_conversation(const MessageArgs& args, const std::string& instructions, std::string text,
                      accord::ExtractRequest& request) {
  request.system = instructions;
  if (args.system.empty() && args.messages.empty() && args.images.empty() &&
      args.documents.empty()) {
    request.prompt = std::move(text);  // the one-prompt shorthand, as without these options
    return;
  }
  if (!args.system.empty())
    request.messages.push_back({.role = accord::Turn::Role::system, .text = args.system});
  for (const auto& message : args.messages) request.messages.push_back(message_turn(message));
  accord::Turn input{.role = accord::Turn::Role::user, .text = std::move(text)};
  for (const auto& file : args.images)
    input.parts.push_back(attached(file, accord::ContentPart::Kind::image));
  for (const auto& file : args.documents)
    input.parts.push_back(attached(file, accord::ContentPart::Kind::document));
  // Files alone are the input; a line says so (Bedrock takes no document without text).
  if (input.text.empty() && !input.parts.empty())
    input.text = "The input is in the attached files.";
  request.messages.push_back(std::move(input));
}

}  // namespace accord_cli
