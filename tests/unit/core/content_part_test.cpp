// Base64 as providers take bytes, and the media types accord tells from a file's bytes or name.
#include <gtest/gtest.h>

#include <string_view>

#include "accord/content.hpp"
#include "core/base64.hpp"

namespace accord {
namespace {

using namespace std::string_view_literals;

TEST(Base64, EncodesTheRfc4648TestVectors) {
  EXPECT_EQ(detail::base64_encode(""), "");
  EXPECT_EQ(detail::base64_encode("f"), "Zg==");
  EXPECT_EQ(detail::base64_encode("fo"), "Zm8=");
  EXPECT_EQ(detail::base64_encode("foo"), "Zm9v");
  EXPECT_EQ(detail::base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(detail::base64_encode(std::string("\xFF\xFE\x00", 3)), "//4A");
}

TEST(Base64, DecodesWhatItEncodes) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  for (std::size_t length = 0; length < 5; ++length) {
    const std::string piece = bytes.substr(250, length);
    EXPECT_EQ(detail::base64_decode(detail::base64_encode(piece)), piece);
  }
  EXPECT_EQ(detail::base64_decode(detail::base64_encode(bytes)), bytes);
}

TEST(Base64, DecodeRefusesTextThatIsNotPaddedBase64) {
  EXPECT_FALSE(detail::base64_decode("Zg"));        // unpadded
  EXPECT_FALSE(detail::base64_decode("Z!=="));      // outside the alphabet
  EXPECT_FALSE(detail::base64_decode("Zg=a"));      // padding then data
  EXPECT_FALSE(detail::base64_decode("Zg==Zg=="));  // padding before the end
}

TEST(MediaType, SniffedFromEachFormatsSignature) {
  EXPECT_EQ(sniff_media_type("\x89PNG\r\n\x1a\nrest"), "image/png");
  EXPECT_EQ(sniff_media_type("\xFF\xD8\xFF\xE0rest"), "image/jpeg");
  EXPECT_EQ(sniff_media_type("GIF89a"), "image/gif");
  EXPECT_EQ(sniff_media_type("RIFF\x10\x00\x00\x00WEBPVP8 "sv), "image/webp");
  EXPECT_EQ(sniff_media_type("%PDF-1.7"), "application/pdf");
  EXPECT_EQ(sniff_media_type("RIFF\x10\x00\x00\x00WAVE"sv), "");  // a RIFF that is not WebP
  EXPECT_EQ(sniff_media_type("plain text"), "");
}

TEST(MediaType, ToldFromTheExtensionWhateverItsCase) {
  EXPECT_EQ(media_type_of_extension("scan.JPG"), "image/jpeg");
  EXPECT_EQ(media_type_of_extension("notes.md"), "text/markdown");
  EXPECT_EQ(media_type_of_extension("invoice.pdf"), "application/pdf");
  EXPECT_EQ(media_type_of_extension("archive.zip"), "");
}

}  // namespace
}  // namespace accord
