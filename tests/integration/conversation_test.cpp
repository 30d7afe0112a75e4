// Conversations and image/document parts end to end against accord-mock, once per provider: the
// mock checks each API's shape (roles, parts, base64 that decodes to what the media type says),
// corrections go after the caller's turns, a malformed part comes back as the mock's 400, and the
// Trace keeps a digest of the bytes, not the bytes.
#include <gtest/gtest.h>

#include <set>

#include "accord/client.hpp"
#include "core/base64.hpp"
#include "core/sha256.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;
using Role = Turn::Role;

const std::string kReceiptPng = std::string("\x89PNG\r\n\x1a\n", 8) + "a receipt's pixels";
const std::string kRefundPdf = "%PDF-1.7 the refund form";

// Providers whose API takes no document part (accord refuses one before sending).
bool takes_documents(const std::string& provider) {
  static const std::set<std::string> kWithout = {"ollama", "azure-openai", "llama-cpp", "vllm"};
  return !kWithout.contains(provider);
}

class Conversations : public ::testing::TestWithParam<std::string> {
 protected:
  Result<json> run(const std::vector<json>& replies, std::vector<Turn> messages) {
    mock_ = std::make_unique<MockProcess>(scenario(replies));
    client_ = std::make_unique<Client>(
        testing_support::mock_client_options(GetParam(), mock_->base_url()));
    auto request = refund_request();
    request.prompt.clear();
    request.system = "You extract refunds.";
    request.messages = std::move(messages);
    return client_->extract(request);
  }

  // The body of the mock's n-th request, as JSON text.
  [[nodiscard]] std::string sent(std::size_t n) const {
    return mock_->requests().at(n)["body"].dump();  // the log holds it parsed
  }

  static std::vector<Turn> dialogue() {
    return {{.role = Role::user, .text = "I returned a kettle."},
            {.role = Role::assistant, .text = "Which order was it?"},
            {.role = Role::user, .text = "Order ORD-482913; extract the refund."}};
  }

  Turn with_attachments() const {
    Turn turn{.role = Role::user, .text = "Extract the refund from the receipt."};
    turn.parts.push_back(ContentPart::image(kReceiptPng, "image/png"));
    if (takes_documents(GetParam()))
      turn.parts.push_back(ContentPart::document(kRefundPdf, "application/pdf", "refund.pdf"));
    return turn;
  }

  std::unique_ptr<MockProcess> mock_;
  std::unique_ptr<Client> client_;
};

TEST_P(Conversations, TurnsReachTheProviderInTheCallersOrder) {
  const auto result = run({{{"json", kValidRefund}}}, dialogue());
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::string body = sent(0);
  const auto system = body.find("You extract refunds.");
  const auto first = body.find("I returned a kettle.");
  const auto answer = body.find("Which order was it?");
  const auto last = body.find("Order ORD-482913; extract the refund.");
  ASSERT_NE(system, std::string::npos);
  ASSERT_NE(last, std::string::npos);
  EXPECT_LT(first, answer);
  EXPECT_LT(answer, last);
}

TEST_P(Conversations, ImagesAndDocumentsPassTheMocksShapeCheck) {
  const auto result = run({{{"json", kValidRefund}}}, {with_attachments()});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_NE(sent(0).find(detail::base64_encode(kReceiptPng)), std::string::npos);
}

TEST_P(Conversations, TheTraceKeepsADigestOfTheBytesNotTheBytes) {
  const auto result = run({{{"json", kValidRefund}}}, {with_attachments()});
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::string& kept = result.trace().attempts.at(0).request_body;
  EXPECT_EQ(kept.find(detail::base64_encode(kReceiptPng)), std::string::npos);
  EXPECT_NE(kept.find(std::to_string(kReceiptPng.size()) +
                      " bytes, sha256:" + detail::hex(detail::sha256(kReceiptPng))),
            std::string::npos)
      << kept;
  if (takes_documents(GetParam())) {
    EXPECT_EQ(kept.find(detail::base64_encode(kRefundPdf)), std::string::npos);
  }
  EXPECT_FALSE(json::parse(kept, nullptr, false).is_discarded());
}

TEST_P(Conversations, ACorrectionGoesAfterTheCallersTurns) {
  const auto result = run({{{"json", bad_amount()}}, {{"json", kValidRefund}}}, dialogue());
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(mock_->requests().size(), 2u);
  const std::string body = sent(1);
  // Every turn of the caller's is sent again, the correction after the last of them.
  EXPECT_NE(body.find("Which order was it?"), std::string::npos);
  const auto last = body.find("Order ORD-482913; extract the refund.");
  ASSERT_NE(last, std::string::npos);
  EXPECT_NE(body.find("amount", last), std::string::npos);
}

TEST_P(Conversations, AMalformedPartGetsTheMocks400ReportedClearly) {
  Turn turn{.role = Role::user, .text = "Extract the refund."};
  turn.parts.push_back(ContentPart::image("not an image at all", "image/png"));
  const auto result = run({{{"json", kValidRefund}}}, {turn});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::http);
  EXPECT_EQ(result.trace().attempts.at(0).http_status, 400);
  EXPECT_NE(result.error().message.find("the bytes are not"), std::string::npos)
      << result.error().message;
}

TEST_P(Conversations, AConversationEndingWithTheAssistantIsRefusedBeforeSending) {
  auto turns = dialogue();
  turns.pop_back();
  EXPECT_THROW((void)run({{{"json", kValidRefund}}}, turns), std::invalid_argument);
  EXPECT_TRUE(mock_->requests().empty());
}

INSTANTIATE_TEST_SUITE_P(Providers, Conversations, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

}  // namespace
}  // namespace accord
