#pragma once
// accord extract's conversation options: --system, --message ROLE:TEXT, --image FILE and
// --document FILE, and the ExtractRequest they make with the input text.

#include <CLI/CLI.hpp>
#include <accord/client.hpp>
#include <cstddef>
#include <string>
#include <vector>

namespace accord_cli {

struct MessageArgs {
  std::string system;
  std::vector<std::string> messages;  // ROLE:TEXT, in order
  std::vector<std::string> images;
  std::vector<std::string> documents;
};

// The largest image or document file read: no provider takes more in one part (per-provider
// limits, lower, are checked by the library before sending).
inline constexpr std::size_t kMaxAttachedFileBytes = std::size_t{100} << 20;

void add_message_options(CLI::App& command, MessageArgs& args);

// `request`'s conversation: the built-in instructions and --system as system turns, each
// --message, then `text` as the last user turn with the images and documents attached. A bad
// ROLE, a file that cannot be read or is too large, or one whose media type cannot be told is a
// Failure (exit 2) naming it.
void add_conversation(const MessageArgs& args, const std::string& instructions, std::string text,
                      accord::ExtractRequest& request);

}  // namespace accord_cli
