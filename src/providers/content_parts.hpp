#pragma once
// Images and documents on the wire: what each provider takes of them (its documented types and
// limits, checked before a request is sent), their encodings, and the request body as records
// keep it (each part's bytes replaced by their size and digest).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "accord/providers/provider.hpp"

namespace accord::detail {

inline constexpr std::size_t kMiB = 1024 * 1024;

// What a provider takes of images and documents, from its documentation (`source`).
struct PartRules {
  std::string_view source;  // where the limits below are documented, for the error text
  std::vector<std::string_view> image_types;     // empty: the provider takes no images
  std::vector<std::string_view> document_types;  // empty: the provider takes no documents
  std::size_t max_image_bytes = 0;               // per image; 0: none documented
  std::size_t max_document_bytes = 0;            // per document; 0: none documented
  std::size_t max_images = 0;                    // per request; 0: none documented
  std::size_t max_documents = 0;
  bool image_urls = true;
  bool document_urls = true;
  bool url_needs_media_type = false;  // Gemini's fileData carries a mimeType
  bool document_needs_text = false;   // Bedrock: a document goes with text in its message
};

// Throws std::invalid_argument, before anything is sent, for a part `provider` does not take: its
// kind, media type, a URL where only bytes go, or bytes past a limit (the message names the
// turn, the part, the limit and where it is documented).
void check_parts(const CallSpec& call, const PartRules& rules, std::string_view provider);

// "data:<media type>;base64,<bytes>", how OpenAI-shaped APIs take bytes.
[[nodiscard]] std::string data_url(const ContentPart& part);
// The part's name, else "document-<n>" (n counting the turn's parts from 1).
[[nodiscard]] std::string document_name(const ContentPart& part, std::size_t n);
// The bytes as base64.
[[nodiscard]] std::string base64_of(const ContentPart& part);

// `body` with the base64 of each part's bytes replaced by "<media type>, <size> bytes,
// sha256:<hex>": what the Trace keeps of a request, so no image or document is copied into it.
[[nodiscard]] std::string without_part_bytes(std::string body, const std::vector<Turn>& turns);

}  // namespace accord::detail
