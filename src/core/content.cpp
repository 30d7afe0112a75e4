// ContentPart's makers and the media types accord tells from a file (include/accord/content.hpp).

#include "accord/content.hpp"

#include <array>
#include <utility>

#include "core/ascii.hpp"

namespace accord {

ContentPart ContentPart::of_text(std::string text) {
  return {.kind = Kind::text, .text = std::move(text)};
}

ContentPart ContentPart::image(std::string bytes, std::string media_type) {
  return {.kind = Kind::image, .media_type = std::move(media_type), .data = std::move(bytes)};
}

ContentPart ContentPart::image_url(std::string url, std::string media_type) {
  return {.kind = Kind::image, .media_type = std::move(media_type), .url = std::move(url)};
}

ContentPart ContentPart::document(std::string bytes, std::string media_type, std::string name) {
  return {.kind = Kind::document,
          .media_type = std::move(media_type),
          .data = std::move(bytes),
          .name = std::move(name)};
}

ContentPart ContentPart::document_url(std::string url, std::string media_type) {
  return {.kind = Kind::document, .media_type = std::move(media_type), .url = std::move(url)};
}

std::string_view to_string(ContentPart::Kind kind) {
  switch (kind) {
    case ContentPart::Kind::text:
      return "text";
    case ContentPart::Kind::image:
      return "image";
    case ContentPart::Kind::document:
      return "document";
  }
  return "unknown";
}

std::string sniff_media_type(std::string_view bytes) {
  // The formats' own signatures (PNG spec §5.2, JFIF SOI marker, GIF87a/89a, RIFF....WEBP, %PDF-).
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kSignatures = {{
      {"\x89PNG\r\n\x1a\n", "image/png"},
      {"\xFF\xD8\xFF", "image/jpeg"},
      {"GIF8", "image/gif"},
      {"%PDF-", "application/pdf"},
      {"RIFF", "image/webp"},
  }};
  for (const auto& [signature, type] : kSignatures) {
    if (!bytes.starts_with(signature)) continue;
    if (type == "image/webp" && (bytes.size() < 12 || bytes.substr(8, 4) != "WEBP")) continue;
    return std::string(type);
  }
  return "";
}

std::string media_type_of_extension(std::string_view file_name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kTypes = {{
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".webp", "image/webp"},
      {".pdf", "application/pdf"},
      {".txt", "text/plain"},
      {".md", "text/markdown"},
      {".csv", "text/csv"},
      {".html", "text/html"},
      {".htm", "text/html"},
  }};
  const std::string lower = detail::ascii_lower(file_name);
  for (const auto& [extension, type] : kTypes) {
    if (lower.ends_with(extension)) return std::string(type);
  }
  return "";
}

}  // namespace accord
