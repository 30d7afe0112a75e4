// An assistant turn keeps the provider's message as its JSON text (accord/provider_message.hpp):
// reading a reply builds no tree of it, and a conversation re-sent after the reply carries the
// message as the provider sent it (accord-mock writes compact JSON in nlohmann's form, so that is
// byte for byte here), for every provider, over real HTTP against accord-mock.
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "accord/client.hpp"
#include "accord/typed_rules.hpp"
#include "core/provider_message_trees.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/typed_fixtures.hpp"
#include "loop/loop.hpp"
#include "providers/wire.hpp"

namespace accord {
namespace {

// curl underneath; each request body and each reply body kept as sent and received.
class BodyRecordingTransport final : public Transport {
 public:
  TransportResult post(const HttpRequest& request) override {
    TransportResult result = curl_.post(request);
    const std::lock_guard lock(mutex_);
    requests_.push_back(request.body);
    replies_.push_back(result.response ? result.response->body : std::string());
    return result;
  }
  std::vector<std::string> requests() const {
    const std::lock_guard lock(mutex_);
    return requests_;
  }
  std::vector<std::string> replies() const {
    const std::lock_guard lock(mutex_);
    return replies_;
  }

 private:
  CurlTransport curl_;
  mutable std::mutex mutex_;
  std::vector<std::string> requests_;
  std::vector<std::string> replies_;
};

class ProviderMessageOnTheWire : public ::testing::TestWithParam<std::string> {};

TEST_P(ProviderMessageOnTheWire, AConversationResentSendsTheMessageAsReceived) {
  REQUIRE_MOCK();
  const nlohmann::json scenario = {
      {"replies", nlohmann::json::array({{{"json", {{"zeta", 1}, {"alpha", "x\n\u00e9"}}}},
                                         {{"json", {{"ok", true}}}}})}};
  MockProcess mock(scenario.dump());
  auto transport = std::make_shared<BodyRecordingTransport>();
  auto options = testing_support::mock_client_options(GetParam(), mock.base_url());
  options.custom_transport = transport;
  const Client client(options);

  CallSpec call;
  call.turns.push_back(Turn{.role = Turn::Role::user, .text = "Say something."});
  const Exchange first = client.exchange(call);
  ASSERT_EQ(first.reply.status, ReplyStatus::ok) << first.reply.detail;
  const ProviderMessage& message = first.reply.assistant.raw;
  ASSERT_FALSE(message.empty());
  ASSERT_EQ(transport->replies().size(), 1U);
  EXPECT_NE(transport->replies()[0].find(message.text()), std::string::npos)
      << message.text() << "\nnot in\n"
      << transport->replies()[0];

  call.turns.push_back(first.reply.assistant);
  call.turns.push_back(Turn{.role = Turn::Role::user, .text = "Again."});
  const Exchange second = client.exchange(call);
  ASSERT_EQ(second.reply.status, ReplyStatus::ok) << second.reply.detail;
  ASSERT_EQ(transport->requests().size(), 2U);
  // A list of items (the Responses API's output) goes into the request's list item by item.
  const std::string& text = message.text();
  const std::string sent = message.is_array() ? text.substr(1, text.size() - 2) : text;
  EXPECT_NE(transport->requests()[1].find(sent), std::string::npos) << sent << "\nnot in\n"
                                                                    << transport->requests()[1];
}

// A client of accord-mock answering the refund, valid at once, handed to `extract` with the
// request for it.
template <class Extract>
void extract_refund_answered_at_once(const std::string& provider, const Extract& extract) {
  const nlohmann::json scenario = {
      {"replies", nlohmann::json::array({{{"json", typed_fixtures::kRefundJson}}})}};
  MockProcess mock(scenario.dump());
  const Client client(testing_support::mock_client_options(provider, mock.base_url()));
  const ExtractRequest request{.schema = typed<typed_fixtures::Refund>().schema(),
                               .prompt = "Extract."};
  extract(client, request);
}

TEST_P(ProviderMessageOnTheWire, ATypedExtractBuildsNoTreeOfTheReply) {
  REQUIRE_MOCK();
  extract_refund_answered_at_once(
      GetParam(), [](const Client& client, const ExtractRequest& request) {
        const auto envelopes = detail::envelope_trees_built();
        const auto values = detail::reply_trees_built();
        const auto messages = detail::provider_message_trees_built();
        const auto result = client.extract<typed_fixtures::Refund>(request);
        ASSERT_TRUE(result.ok()) << result.error().message;
        EXPECT_EQ(result.value().orderId, "ORD-482913");
        EXPECT_EQ(detail::envelope_trees_built() - envelopes, 0U);
        EXPECT_EQ(detail::reply_trees_built() - values, 0U);
        EXPECT_EQ(detail::provider_message_trees_built() - messages, 0U);
      });
}

// The counter counts every text written from a reply, at once or when first read: a message
// written as the reply is read fails this.
TEST_P(ProviderMessageOnTheWire, AnExtractValidAtOnceWritesNoMessageText) {
  REQUIRE_MOCK();
  extract_refund_answered_at_once(
      GetParam(), [](const Client& client, const ExtractRequest& request) {
        const auto written = detail::provider_message_texts_written();
        const auto result = client.extract(request);
        ASSERT_TRUE(result.ok()) << result.error().message;
        EXPECT_EQ(detail::provider_message_texts_written() - written, 0U);
      });
}

INSTANTIATE_TEST_SUITE_P(Providers, ProviderMessageOnTheWire, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

TEST(ProviderMessage, KeepsTheMembersInTheOrderTheyCame) {
  const auto document = parse_document(R"({"zeta": 1, "alpha": [true, null], "mid": "\u00e9"})");
  ASSERT_TRUE(document.document);
  const ProviderMessage message(document.document->root());
  EXPECT_EQ(message.text(), "{\"zeta\":1,\"alpha\":[true,null],\"mid\":\"\xc3\xa9\"}");
  EXPECT_TRUE(message.is_object());
  EXPECT_EQ(message.tree().begin().key(), "zeta");
}

TEST(ProviderMessage, AReadStringIsWrittenAsItsTreeWouldBeWhereverItsFirstEscapeFalls) {
  // The plain bytes before a string's first escape are copied sixteen at a time: each kind of
  // byte that needs an escape (or is UTF-8) at each place in and past the first blocks.
  for (const std::string special : {"\"", "\\", "\n", "\x01", "\x7f", "\xc3\xa9", "/"}) {
    for (std::size_t plain = 0; plain <= 40; ++plain) {
      const std::string text = std::string(plain, 'a') + special + "tail\"";
      const nlohmann::ordered_json tree = {{"text", text}, {"one", {{"k", text}}}};
      const auto document = parse_document(tree.dump());
      ASSERT_TRUE(document.document);
      EXPECT_EQ(ProviderMessage(document.document->root()).text(), ProviderMessage(tree).text())
          << plain;
    }
  }
}

// A message kept with its reply's document, against the one written at once from the same view.
TEST(ProviderMessageKept, ReadsAsTheMessageWrittenAtOnce) {
  for (const char* text :
       {R"({"zeta": 1, "alpha": [true, null], "mid": "\u00e9\n"})",
        R"([{"type": "text", "text": "{\"a\": 1}"}, {"b": -2.5e3}])", "[]", "{}"}) {
    auto parsed = parse_document(text);
    ASSERT_TRUE(parsed.document) << text;
    const auto document = std::make_shared<const JsonDocument>(*std::move(parsed.document));
    const ProviderMessage now(document->root());
    const ProviderMessage kept(document, document->root());
    EXPECT_EQ(kept.is_object(), now.is_object()) << text;
    EXPECT_EQ(kept.is_array(), now.is_array()) << text;
    EXPECT_EQ(kept.empty(), now.empty()) << text;
    EXPECT_EQ(kept.text(), now.text()) << text;
    EXPECT_EQ(kept, now) << text;
  }
}

TEST(ProviderMessageKept, AScalarIsWrittenAsTheMessageWrittenAtOnce) {
  auto parsed = parse_document(R"({"m": "plain"})");
  ASSERT_TRUE(parsed.document);
  const auto document = std::make_shared<const JsonDocument>(*std::move(parsed.document));
  const JsonView scalar = *document->root().find("m");
  const ProviderMessage kept(document, scalar);
  EXPECT_EQ(kept.text(), ProviderMessage(scalar).text());
  EXPECT_FALSE(kept.is_object());
  EXPECT_FALSE(kept.empty());
}

// A document let go too early leaves the view reading freed buffers; the per-thread pool keeps
// their memory readable, so this can fail only under AddressSanitizer (kept buffers poisoned).
TEST(ProviderMessageKept, KeepsItsDocumentUntilTheTextIsWritten) {
  const std::string text = R"({"role": "assistant", "content": "kept"})";
  auto parsed = parse_document(text);
  ASSERT_TRUE(parsed.document);
  const std::string expected = ProviderMessage(parsed.document->root()).text();
  auto document = std::make_shared<const JsonDocument>(*std::move(parsed.document));
  const ProviderMessage kept(document, document->root());
  document.reset();  // the message's is the last hold on it
  EXPECT_EQ(kept.text(), expected);
}

TEST(ProviderMessageKept, LetsItsDocumentGoOnceTheTextIsWritten) {
  auto parsed = parse_document(R"({"role": "assistant", "content": "let go"})");
  ASSERT_TRUE(parsed.document);
  auto document = std::make_shared<const JsonDocument>(*std::move(parsed.document));
  const std::weak_ptr<const JsonDocument> watched = document;
  const ProviderMessage kept(document, document->root());
  document.reset();
  EXPECT_FALSE(watched.expired());
  (void)kept.text();
  EXPECT_TRUE(watched.expired());
}

TEST(ProviderMessageKept, KnowsItsKindWithoutWritingTheText) {
  for (const char* text : {R"({"content": "an object"})", R"([{"type": "text"}])"}) {
    auto parsed = parse_document(text);
    ASSERT_TRUE(parsed.document) << text;
    const auto document = std::make_shared<const JsonDocument>(*std::move(parsed.document));
    const bool object = document->root().is_object();
    const bool array = document->root().is_array();
    const auto written = detail::provider_message_texts_written();
    const ProviderMessage kept(document, document->root());
    EXPECT_FALSE(kept.empty()) << text;
    EXPECT_EQ(kept.is_object(), object) << text;
    EXPECT_EQ(kept.is_array(), array) << text;
    EXPECT_EQ(detail::provider_message_texts_written() - written, 0U) << text;
    (void)kept.text();
    EXPECT_EQ(detail::provider_message_texts_written() - written, 1U) << text;
  }
}

TEST(ProviderMessageKept, CopiesShareOneWriting) {
  auto parsed = parse_document(R"({"content": [1, 2, 3]})");
  ASSERT_TRUE(parsed.document);
  const auto document = std::make_shared<const JsonDocument>(*std::move(parsed.document));
  const ProviderMessage kept(document, document->root());
  const ProviderMessage copy = kept;  // NOLINT(performance-unnecessary-copy-initialization)
  const auto written = detail::provider_message_texts_written();
  EXPECT_EQ(&copy.text(), &kept.text());
  EXPECT_EQ(detail::provider_message_texts_written() - written, 1U);
}

TEST(ProviderMessageKept, ThreadsReadingAtOnceGetOneText) {
  auto parsed = parse_document(R"({"content": "read from every thread", "n": [1, 2.5, null]})");
  ASSERT_TRUE(parsed.document);
  const std::string expected = ProviderMessage(parsed.document->root()).text();
  const auto document = std::make_shared<const JsonDocument>(*std::move(parsed.document));
  const ProviderMessage kept(document, document->root());
  std::vector<const std::string*> seen(8, nullptr);
  std::vector<std::thread> readers;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    readers.emplace_back([&kept, &seen, i] { seen[i] = &kept.text(); });
  }
  for (auto& reader : readers) reader.join();
  for (const std::string* text : seen) {
    EXPECT_EQ(text, seen.front());
    EXPECT_EQ(*text, expected);
  }
}

TEST(ProviderMessage, ANullTreeIsAnEmptyMessage) {
  const ProviderMessage message{nlohmann::json()};
  EXPECT_TRUE(message.empty());
  EXPECT_FALSE(message.is_array());
  EXPECT_TRUE(message.tree().is_null());
}

}  // namespace
}  // namespace accord
