// A typed extract reads its struct from the parsed reply in place (#26): no nlohmann::json is
// built for a reply that parsed as sent, had nothing to unlower and needed no repair; a tree is
// built only where one is needed (unlowering a null, a repair, extract()'s own Result).
#include <gtest/gtest.h>

#include <future>

#include "accord/client.hpp"
#include "accord/typed_rules.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/typed_fixtures.hpp"
#include "loop/loop.hpp"

namespace accord {
namespace {

using nlohmann::json;
using typed_fixtures::kRefundJson;
using typed_fixtures::Refund;

class TypedExtractInPlace : public ::testing::Test {
 protected:
  Client client_for(const std::vector<json>& replies, const std::string& provider = "openai-chat") {
    mock_ = std::make_unique<MockProcess>(json{{"replies", replies}}.dump());
    return Client(testing_support::mock_client_options(provider, mock_->base_url()));
  }
  // Trees of reply values built by `call`.
  template <class Call>
  static std::uint64_t trees_built_by(const Call& call) {
    const auto before = detail::reply_trees_built();
    call();
    return detail::reply_trees_built() - before;
  }
  std::unique_ptr<MockProcess> mock_;
  ExtractRequest request_{.schema = typed<Refund>().schema(), .prompt = "Extract."};
};

TEST_F(TypedExtractInPlace, ATypedExtractBuildsNoTreeForTheReply) {
  REQUIRE_MOCK();
  for (const std::string provider : {"openai-chat", "anthropic", "gemini"}) {
    const auto client = client_for({{{"json", kRefundJson}}}, provider);
    std::optional<Result<Refund>> result;
    EXPECT_EQ(trees_built_by([&] { result = client.extract<Refund>(request_); }), 0U) << provider;
    ASSERT_TRUE(result->ok()) << provider << ": " << result->error().message;
    EXPECT_EQ(result->value().orderId, "ORD-482913");
    EXPECT_EQ(result->value().amount, 42.5);
  }
}

TEST_F(TypedExtractInPlace, ATypedExtractAsyncBuildsNoTreeForTheReply) {
  REQUIRE_MOCK();
  const auto client = client_for({{{"json", kRefundJson}}});
  std::optional<Result<Refund>> result;
  EXPECT_EQ(trees_built_by([&] { result = client.extract_async<Refund>(request_).get(); }), 0U);
  ASSERT_TRUE(result->ok()) << result->error().message;
  EXPECT_EQ(result->value().refundDate, "2026-11-20");
}

TEST_F(TypedExtractInPlace, AnUntypedExtractBuildsTheOneTreeItsResultHolds) {
  REQUIRE_MOCK();
  const auto client = client_for({{{"json", kRefundJson}}});
  std::optional<Result<json>> result;
  EXPECT_EQ(trees_built_by([&] { result = client.extract(request_); }), 1U);
  ASSERT_TRUE(result->ok()) << result->error().message;
  EXPECT_EQ(result->value(), kRefundJson);
}

TEST_F(TypedExtractInPlace, ANullForANulledOptionalIsUnloweredOnATree) {
  REQUIRE_MOCK();
  json reply = kRefundJson;
  reply["note"] = nullptr;  // OpenAI strict mode's absent optional field
  const auto client = client_for({{{"json", reply}}, {{"json", reply}}});
  std::optional<Result<Refund>> typed_result;
  EXPECT_EQ(trees_built_by([&] { typed_result = client.extract<Refund>(request_); }), 1U);
  ASSERT_TRUE(typed_result->ok()) << typed_result->error().message;
  EXPECT_FALSE(typed_result->value().note.has_value());
  const auto result = client.extract(request_);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_FALSE(result.value().contains("note"));
}

TEST_F(TypedExtractInPlace, ATextRepairIsReadFromItsTree) {
  REQUIRE_MOCK();
  const auto client = client_for({{{"text", "```json\n" + kRefundJson.dump() + "\n```"}}});
  const auto result = client.extract<Refund>(request_);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().orderId, "ORD-482913");
  ASSERT_EQ(result.trace().attempts.front().repairs.size(), 1U);
  EXPECT_EQ(result.trace().attempts.front().repairs.front().kind, RepairKind::text_around_json);
}

TEST_F(TypedExtractInPlace, AnInvalidReplyIsCorrectedAndTheCorrectionReadInPlace) {
  REQUIRE_MOCK();
  json wrong = kRefundJson;
  wrong["orderId"] = 7;
  const auto client = client_for({{{"json", wrong}}, {{"json", kRefundJson}}});
  std::optional<Result<Refund>> called;
  // One tree: the invalid reply's, for its correction; the corrected reply is read in place.
  EXPECT_EQ(trees_built_by([&] {
              called = client.extract<Refund>(
                  {.schema = typed<Refund>().schema(),
                   .prompt = "Extract.",
                   .correction = CorrectionPolicy{.style = CorrectionStyle::whole_object}});
            }),
            1U);
  const auto& result = *called;
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2U);
  EXPECT_FALSE(result.trace().attempts.front().issues.empty());
  EXPECT_EQ(result.value().orderId, "ORD-482913");
}

}  // namespace
}  // namespace accord
