#pragma once
// What a turn carries besides its text: images and documents (bytes with a media type, or a URL)
// and further text, in the order the model reads them (docs/configuration.md#conversations).

#include <cstddef>
#include <string>
#include <string_view>

namespace accord {

struct ContentPart {
  enum class Kind { text, image, document };
  Kind kind = Kind::text;
  std::string text;        // a text part
  std::string media_type;  // image/png, image/jpeg, image/gif, image/webp, application/pdf, ...
  std::string data;        // the bytes; empty when the part is a URL
  std::string url;         // an https:// address the provider fetches, instead of bytes
  // A document's file name: OpenAI's `filename` and Bedrock's `name` (which it requires); empty:
  // "document-N" after the part's place.
  std::string name;

  [[nodiscard]] static ContentPart of_text(std::string text);
  [[nodiscard]] static ContentPart image(std::string bytes, std::string media_type);
  [[nodiscard]] static ContentPart image_url(std::string url, std::string media_type = "");
  [[nodiscard]] static ContentPart document(std::string bytes,
                                            std::string media_type = "application/pdf",
                                            std::string name = "");
  [[nodiscard]] static ContentPart document_url(std::string url,
                                                std::string media_type = "application/pdf");
  [[nodiscard]] bool is_url() const { return data.empty() && !url.empty(); }
};

[[nodiscard]] std::string_view to_string(ContentPart::Kind kind);

// The media type the bytes' signature says (PNG, JPEG, GIF, WebP, PDF), else empty: what
// `accord extract --image/--document` sends a file as when its extension does not say.
[[nodiscard]] std::string sniff_media_type(std::string_view bytes);
// The media type a file name's extension says (.png .jpg .jpeg .gif .webp .pdf .txt .md .csv
// .html), else empty.
[[nodiscard]] std::string media_type_of_extension(std::string_view file_name);

}  // namespace accord
