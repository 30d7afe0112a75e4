// ExtractionLoop::prepare encodes the loop's call in place (not on a copy): the client's key and
// base URL are written into it for the encoding and must not stay there, since the call outlives
// the request (the hooks, the next attempt and a fallback's first request are made from it).
#include <gtest/gtest.h>

#include <mutex>

#include "accord/client.hpp"
#include "fixtures/refund_documents.hpp"
#include "fixtures/sentinel_key.hpp"
#include "loop/extraction_loop.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

TEST(ExtractionLoopPrepare, TheCallHoldsNoKeyOrBaseUrlOnceItsRequestIsPrepared) {
  const Client client(
      {.provider = "openai-chat", .base_url = "http://127.0.0.1:9", .api_key = sentinel::kKey});
  detail::ExtractionLoop loop(
      client, {.schema = examples::refund_schema(), .prompt = "refund", .name = "refund"});
  const auto prepared = loop.prepare();
  // The request carries them: the key was in the call while it was encoded.
  EXPECT_TRUE(sentinel::contains(prepared.request.url, "127.0.0.1:9")) << prepared.request.url;
  bool key_sent = false;
  for (const auto& [name, value] : prepared.request.headers)
    key_sent = key_sent || sentinel::contains(value, sentinel::kKey);
  EXPECT_TRUE(key_sent);
  EXPECT_EQ(loop.call().api_key, "");
  EXPECT_EQ(loop.call().base_url, "");
}

// prepare() keeps the call's own parameters aside only when prepare_sent replaces them (the client
// or the call sets some): either way the request carries the client's and the call's, and the
// call is given back with its own, which the next attempt and a fallback start from.
TEST(ExtractionLoopPrepare, TheCallKeepsItsOwnParametersWhateverTheClientSets) {
  for (const bool client_sets : {false, true}) {
    for (const bool call_sets : {false, true}) {
      ClientOptions options{.provider = "openai-chat", .base_url = "http://127.0.0.1:9"};
      if (client_sets) options.parameters.temperature = 0.25;
      const Client client(std::move(options));
      ExtractRequest request{.schema = examples::refund_schema(), .prompt = "refund"};
      if (call_sets) request.parameters.seed = 7;
      detail::ExtractionLoop loop(client, request);
      const auto prepared = loop.prepare();
      EXPECT_EQ(loop.call().parameters, request.parameters) << client_sets << call_sets;
      const auto body = nlohmann::json::parse(prepared.request.body);
      EXPECT_EQ(body.contains("temperature"), client_sets) << body.dump();
      EXPECT_EQ(body.contains("seed"), call_sets) << body.dump();
    }
  }
}

// Answers every request with one valid refund, as openai-chat writes it, and keeps each body it
// was given: what the attempt's record must equal.
class CannedRefundTransport final : public Transport {
 public:
  TransportResult post(const HttpRequest& request) override {
    const std::lock_guard lock(mutex_);
    bodies_.push_back(request.body);
    const nlohmann::json reply = {
        {"choices",
         {{{"message",
            {{"role", "assistant"}, {"content", testing_documents::kValidRefund.dump()}}},
           {"finish_reason", "stop"}}}},
        {"usage", {{"prompt_tokens", 3}, {"completion_tokens", 2}, {"total_tokens", 5}}}};
    return {HttpResponse{.status = 200, .headers = {}, .body = reply.dump()}, std::nullopt, {}};
  }
  [[nodiscard]] std::vector<std::string> bodies() const {
    const std::lock_guard lock(mutex_);
    return bodies_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> bodies_;
};

Client canned_client(const std::shared_ptr<CannedRefundTransport>& transport) {
  return Client({.provider = "openai-chat",
                 .base_url = "http://127.0.0.1:9",
                 .api_key = sentinel::kKey,
                 .custom_transport = transport});
}

// The record of a body with no key in it is the body sent, byte for byte: on the first call
// (encoded whole), the second (its shape probed) and later ones (written into the kept shape),
// blocking or not.
TEST(ExtractionLoopPrepare, EveryAttemptRecordsTheBodyTheTransportWasGiven) {
  const auto transport = std::make_shared<CannedRefundTransport>();
  const Client client = canned_client(transport);
  std::vector<std::string> recorded;
  for (const std::string prompt : {"one", "two \"quoted\"", "three", "four, longer than before"}) {
    auto request = testing_documents::refund_request();
    request.prompt = prompt;
    const auto result = client.extract(request);
    ASSERT_TRUE(result.ok()) << result.error().message;
    recorded.push_back(result.trace().attempts.at(0).request_body);
  }
  const auto result = client.extract_async(testing_documents::refund_request()).get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  recorded.push_back(result.trace().attempts.at(0).request_body);
  EXPECT_EQ(recorded, transport->bodies());
}

// A key in the caller's own text is sent as written (the caller put it there) and recorded
// redacted.
TEST(ExtractionLoopPrepare, AKeyInThePromptIsSentButNotRecorded) {
  const auto transport = std::make_shared<CannedRefundTransport>();
  const Client client = canned_client(transport);
  auto request = testing_documents::refund_request();
  request.prompt = std::string("the key is ") + sentinel::kKey;
  const auto result = client.extract(request);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(transport->bodies().size(), 1U);
  EXPECT_TRUE(sentinel::contains(transport->bodies()[0], sentinel::kKey));
  const std::string& kept = result.trace().attempts.at(0).request_body;
  EXPECT_FALSE(sentinel::contains(kept, sentinel::kKey)) << kept;
  EXPECT_EQ(kept, client.redacted(transport->bodies()[0]));
}

}  // namespace
}  // namespace accord
