// ExtractionLoop::prepare encodes the loop's call in place (not on a copy): the client's key and
// base URL are written into it for the encoding and must not stay there, since the call outlives
// the request (the hooks, the next attempt and a fallback's first request are made from it).
#include <gtest/gtest.h>

#include "accord/client.hpp"
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

}  // namespace
}  // namespace accord
