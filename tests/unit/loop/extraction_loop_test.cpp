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

}  // namespace
}  // namespace accord
