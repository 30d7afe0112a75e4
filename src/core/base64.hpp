#pragma once
// Base64 (RFC 4648 §4, padded), the alphabet every provider takes image and document bytes in.

#include <optional>
#include <string>
#include <string_view>

namespace accord::detail {

[[nodiscard]] std::string base64_encode(std::string_view bytes);
// The bytes, or nullopt for text that is not padded standard base64 (accord-mock's check).
[[nodiscard]] std::optional<std::string> base64_decode(std::string_view text);

}  // namespace accord::detail
