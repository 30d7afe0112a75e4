// Images and documents in each provider's own request shape, the parts and sizes a provider does
// not take refused before sending (naming the limit), and the record that keeps a digest of the
// bytes instead of the bytes.
#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "core/base64.hpp"
#include "core/sha256.hpp"
#include "providers/content_parts.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

const std::string kPartPng = std::string("\x89PNG\r\n\x1a\n", 8) + "pixels";
const std::string kPartPdf = "%PDF-1.7 a page";

Turn invoice_turn(std::vector<ContentPart> parts) {
  Turn turn{.role = Turn::Role::user, .text = "Extract the invoice."};
  turn.parts = std::move(parts);
  return turn;
}

ojson encoded_parts(const std::string& provider, const Turn& turn) {
  CallSpec call{.base_url = "http://127.0.0.1:1/v1", .api_key = "k", .model = "m"};
  call.turns = {turn};
  return ojson::parse(make_provider(provider)->encode(call).body);
}

std::string parts_refusal(const std::string& provider, const Turn& turn) {
  try {
    (void)encoded_parts(provider, turn);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const std::string kPartPngBase64 = detail::base64_encode(kPartPng);
const std::string kPartPdfBase64 = detail::base64_encode(kPartPdf);

TEST(ContentParts, OpenAIChatSendsImageUrlAndFileAsDataUrls) {
  const auto body = encoded_parts(
      "openai-chat",
      invoice_turn({ContentPart::image(kPartPng, "image/png"), ContentPart::document(kPartPdf)}));
  const auto& content = body["messages"][0]["content"];
  EXPECT_EQ(content[0], (ojson{{"type", "text"}, {"text", "Extract the invoice."}}));
  EXPECT_EQ(content[1]["image_url"]["url"], "data:image/png;base64," + kPartPngBase64);
  EXPECT_EQ(content[2]["type"], "file");
  EXPECT_EQ(content[2]["file"]["file_data"], "data:application/pdf;base64," + kPartPdfBase64);
  EXPECT_EQ(content[2]["file"]["filename"], "document-2");
}

TEST(ContentParts, ResponsesSendsInputImageAndInputFile) {
  const auto body = encoded_parts(
      "openai-responses", invoice_turn({ContentPart::image_url("https://x.test/a.png"),
                                        ContentPart::document_url("https://x.test/a.pdf")}));
  const auto& content = body["input"][0]["content"];
  EXPECT_EQ(content[0]["type"], "input_text");
  EXPECT_EQ(content[1], (ojson{{"type", "input_image"}, {"image_url", "https://x.test/a.png"}}));
  EXPECT_EQ(content[2], (ojson{{"type", "input_file"}, {"file_url", "https://x.test/a.pdf"}}));
}

TEST(ContentParts, AnthropicSendsImageAndDocumentBlocksWithBase64Sources) {
  const auto body = encoded_parts(
      "anthropic",
      invoice_turn({ContentPart::image(kPartPng, "image/png"), ContentPart::document(kPartPdf)}));
  const auto& content = body["messages"][0]["content"];
  EXPECT_EQ(content[1]["type"], "image");
  EXPECT_EQ(content[1]["source"],
            (ojson{{"type", "base64"}, {"media_type", "image/png"}, {"data", kPartPngBase64}}));
  EXPECT_EQ(content[2]["type"], "document");
  EXPECT_EQ(content[2]["source"]["media_type"], "application/pdf");
}

TEST(ContentParts, GeminiSendsInlineDataAndFileData) {
  const auto body =
      encoded_parts("gemini", invoice_turn({ContentPart::image(kPartPng, "image/png"),
                                            ContentPart::document_url("https://x.test/a.pdf")}));
  const auto& parts = body["contents"][0]["parts"];
  EXPECT_EQ(parts[1],
            (ojson{{"inlineData", {{"mimeType", "image/png"}, {"data", kPartPngBase64}}}}));
  EXPECT_EQ(parts[2],
            (ojson{{"fileData",
                    {{"mimeType", "application/pdf"}, {"fileUri", "https://x.test/a.pdf"}}}}));
}

TEST(ContentParts, BedrockSendsFormatsBytesAndADocumentNameItTakes) {
  const auto body = encoded_parts(
      "bedrock", invoice_turn({ContentPart::image(kPartPng, "image/png"),
                               ContentPart::document(kPartPdf, "application/pdf", "in_v.pdf")}));
  const auto& content = body["messages"][0]["content"];
  EXPECT_EQ(content[1]["image"]["format"], "png");
  EXPECT_EQ(content[1]["image"]["source"]["bytes"], kPartPngBase64);
  EXPECT_EQ(content[2]["document"]["format"], "pdf");
  EXPECT_EQ(content[2]["document"]["name"], "in-v-pdf");
}

TEST(ContentParts, MistralWritesImageUrlAndDocumentUrlAsStrings) {
  const auto body =
      encoded_parts("mistral", invoice_turn({ContentPart::image(kPartPng, "image/png"),
                                             ContentPart::document_url("https://x.test/a.pdf")}));
  const auto& content = body["messages"][0]["content"];
  EXPECT_EQ(content[1]["image_url"], "data:image/png;base64," + kPartPngBase64);
  EXPECT_EQ(content[2],
            (ojson{{"type", "document_url"}, {"document_url", "https://x.test/a.pdf"}}));
}

TEST(ContentParts, OllamaSendsImagesAsABase64ArrayOnTheMessage) {
  const auto body = encoded_parts("ollama", invoice_turn({ContentPart::image(kPartPng, "image/png"),
                                                          ContentPart::of_text("Totals only.")}));
  const auto& message = body["messages"][0];
  EXPECT_EQ(message["content"], "Extract the invoice.\n\nTotals only.");
  EXPECT_EQ(message["images"], ojson::array({kPartPngBase64}));
}

TEST(ContentParts, AProviderWithoutDocumentsRefusesOneBeforeSending) {
  for (const char* provider : {"ollama", "azure-openai", "llama-cpp", "vllm"}) {
    EXPECT_NE(parts_refusal(provider, invoice_turn({ContentPart::document(kPartPdf)}))
                  .find("takes no documents"),
              std::string::npos)
        << provider;
  }
}

TEST(ContentParts, AProviderTakingOnlyBytesRefusesAUrl) {
  for (const char* provider : {"bedrock", "ollama", "llama-cpp"}) {
    EXPECT_NE(
        parts_refusal(provider, invoice_turn({ContentPart::image_url("https://x.test/a.png")}))
            .find("as bytes, not URLs"),
        std::string::npos)
        << provider;
  }
}

TEST(ContentParts, AMediaTypeTheProviderDoesNotTakeIsRefused) {
  const auto message =
      parts_refusal("anthropic", invoice_turn({ContentPart::image(kPartPng, "image/tiff")}));
  EXPECT_NE(message.find("turn 1 part 1 (image, image/tiff)"), std::string::npos) << message;
  EXPECT_NE(message.find("image/jpeg, image/png, image/gif, image/webp"), std::string::npos);
}

TEST(ContentParts, AnImageOverBedrocksLimitIsRefusedNamingTheLimit) {
  const std::string large = kPartPng + std::string(3'932'160, 'x');
  const auto message =
      parts_refusal("bedrock", invoice_turn({ContentPart::image(large, "image/png")}));
  EXPECT_NE(message.find("over bedrock's limit of 3.75 MiB per image"), std::string::npos)
      << message;
  EXPECT_NE(message.find("Converse API's Message reference"), std::string::npos);
  // At the limit it is sent.
  EXPECT_EQ(
      parts_refusal("bedrock",
                    invoice_turn({ContentPart::image(large.substr(0, 3'932'160), "image/png")})),
      "");
}

TEST(ContentParts, AnImageOverAnthropicsLimitIsRefused) {
  const std::string large = kPartPng + std::string(5 * 1024 * 1024, 'x');
  EXPECT_NE(parts_refusal("anthropic", invoice_turn({ContentPart::image(large, "image/png")}))
                .find("limit of 5.00 MiB per image"),
            std::string::npos);
}

TEST(ContentParts, BedrockRefusesADocumentWithoutText) {
  Turn turn = invoice_turn({ContentPart::document(kPartPdf)});
  turn.text.clear();
  EXPECT_NE(parts_refusal("bedrock", turn).find("needs text in the same message"),
            std::string::npos);
}

TEST(ContentParts, TheRecordKeepsTheDigestAndSizeNotTheBytes) {
  const Turn turn = invoice_turn({ContentPart::image(kPartPng, "image/png")});
  const std::string body = make_provider("anthropic")
                               ->encode(CallSpec{.base_url = "http://127.0.0.1:1", .turns = {turn}})
                               .body;
  ASSERT_NE(body.find(kPartPngBase64), std::string::npos);
  const std::string kept = detail::without_part_bytes(body, {turn});
  EXPECT_EQ(kept.find(kPartPngBase64), std::string::npos);
  EXPECT_NE(
      kept.find("<image/png, 14 bytes, sha256:" + detail::hex(detail::sha256(kPartPng)) + ">"),
      std::string::npos)
      << kept;
  EXPECT_FALSE(ojson::parse(kept, nullptr, false).is_discarded());
}

}  // namespace
}  // namespace accord
