// Whole replies are read to a tape: no provider's codec builds a tree of the envelope
// (detail::envelope_trees_built counts the ones parse_body makes), over real HTTP against
// accord-mock in both output modes; and a tool call's input keeps the text's member order.
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "accord/providers/provider.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"
#include "providers/wire.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

class EnvelopeTape : public ::testing::TestWithParam<std::string> {
 protected:
  // One extract against a mock answering with the valid refund; the envelope trees it built.
  std::size_t trees_for(OutputMode mode) {
    REQUIRE_MOCK();
    const nlohmann::json scenario = {
        {"replies", nlohmann::json::array({{{"json", testing_documents::kValidRefund}}})}};
    MockProcess mock(scenario.dump());
    const Client client({.provider = GetParam(),
                         .model = "test-model",
                         .base_url = mock.base_url(),
                         .api_key = "sk-test-envelope"});
    const ExtractRequest request{
        .schema = examples::refund_schema(), .prompt = "Extract the refund.", .mode = mode};
    const std::size_t before = detail::envelope_trees_built();
    const auto result = client.extract(request);
    const std::size_t built = detail::envelope_trees_built() - before;
    EXPECT_TRUE(result.ok()) << GetParam() << ": " << result.error().message;
    if (result.ok()) {
      EXPECT_EQ(result.value(), testing_documents::kValidRefund);
    }
    return built;
  }
};

TEST_P(EnvelopeTape, EveryCodecReadsTheEnvelopeWithoutATree) {
  EXPECT_EQ(trees_for(OutputMode::response_format), 0u);
}

TEST_P(EnvelopeTape, EveryCodecReadsAForcedToolReplyWithoutATree) {
  EXPECT_EQ(trees_for(OutputMode::forced_tool), 0u);
}

INSTANTIATE_TEST_SUITE_P(Providers, EnvelopeTape, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

TEST(EnvelopeTape, AToolCallsInputKeepsTheTextsMemberOrder) {
  const auto anthropic = make_provider("anthropic");
  const Reply reply = anthropic->decode(
      {200,
       {},
       R"({"type":"message","content":[{"type":"tool_use","id":"t1","name":"refund",)"
       R"("input":{"zeta":1, "alpha":[true,null,2.5,-3,"x\n\u00e9"],"mid":{"b":{},"a":[]}}}],)"
       R"("stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":4}})"},
      OutputMode::forced_tool);
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(
      reply.tool_calls[0].arguments_text,
      "{\"zeta\":1,\"alpha\":[true,null,2.5,-3,\"x\\n\xc3\xa9\"],\"mid\":{\"b\":{},\"a\":[]}}");
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.usage.total_tokens, 7);
}

TEST(EnvelopeTape, ABodyThatIsNotJsonIsStillSaidInTheSameWords) {
  const auto chat = make_provider("openai-chat");
  const Reply reply = chat->decode({200, {}, "{\"choices\": [oops"}, OutputMode::response_format);
  EXPECT_EQ(reply.status, ReplyStatus::bad_reply);
  EXPECT_EQ(reply.detail, "the body is not JSON: {\"choices\": [oops");
  const Reply deep = chat->decode({200, {}, std::string(600, '[') + std::string(600, ']')},
                                  OutputMode::response_format);
  EXPECT_EQ(deep.detail, "the body nests deeper than 512 levels");
  const Reply empty = chat->decode({200, {}, ""}, OutputMode::response_format);
  EXPECT_EQ(empty.detail, "the body is empty");
  const Reply list = chat->decode({200, {}, "[1]"}, OutputMode::response_format);
  EXPECT_EQ(list.detail, "the body is not a JSON object: [1]");
}

TEST(EnvelopeTape, AnAzureFilterVerdictThatIsNotABooleanSaysNotFiltered) {
  const auto azure = make_provider("azure-openai");
  const Reply reply = azure->decode(
      {200,
       {},
       R"({"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",)"
       R"("content":"{}"},"content_filter_results":{"hate":{"filtered":"yes"}}}],)"
       R"("prompt_filter_results":[{"content_filter_results":{"violence":{"filtered":1}}}]})"},
      OutputMode::response_format);
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, "{}");
}

}  // namespace
}  // namespace accord
