// Reply repair in the extraction loop, over real HTTP against accord-mock for every provider: a
// reply repairs make valid needs no correction and says what was repaired; one they do not make
// valid is corrected with the model's own text, as without repairs.
#include <gtest/gtest.h>
#include <httplib.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

class RepairLoop : public ::testing::TestWithParam<std::string> {
 protected:
  Result<json> run(const std::vector<json>& replies, std::optional<RepairPolicy> repair = {},
                   bool stream = false) {
    mock_ = std::make_unique<MockProcess>(scenario(replies));
    ClientOptions options{.provider = GetParam(),
                          .model = "test-model",
                          .base_url = mock_->base_url(),
                          .api_key = "sk-test-SENTINEL-123"};
    options.transport.total_timeout = std::chrono::milliseconds(5000);
    options.stream = StreamOptions{.enabled = stream, .stop_at_first_issue = stream};
    const Client client(options);
    return client.extract({.schema = examples::refund_schema(),
                           .prompt = "Extract the refund.",
                           .name = "refund",
                           .repair = repair});
  }

  // The text of the last request accord-mock received.
  std::string last_request() const {
    httplib::Client http("127.0.0.1", mock_->port());
    auto response = http.Get("/_accord/requests");
    EXPECT_TRUE(response);
    return json::parse(response->body).back()["body"].dump();
  }

  std::unique_ptr<MockProcess> mock_;
};

json with_amount(json amount) {
  json doc = kValidRefund;
  doc["amount"] = std::move(amount);
  return doc;
}

const std::string kFenced = "Here is the refund:\n```json\n" + kValidRefund.dump(2) + "\n```";

TEST_P(RepairLoop, FencedReplyIsTakenWithoutACorrection) {
  auto result = run({{{"text", kFenced}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  ASSERT_EQ(result.trace().attempts.size(), 1u);
  const auto& attempt = result.trace().attempts[0];
  ASSERT_FALSE(attempt.repairs.empty());
  EXPECT_EQ(attempt.repairs[0].kind, RepairKind::text_around_json);
  EXPECT_EQ(attempt.content, kFenced);  // the record keeps what the model wrote
}

TEST_P(RepairLoop, AmountSentAsAStringIsTakenWithoutACorrection) {
  auto result = run({{{"json", with_amount("42.50")}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value(), kValidRefund);
  ASSERT_EQ(result.trace().attempts.size(), 1u);
  EXPECT_EQ(result.trace().attempts[0].repairs,
            (Repairs{{RepairKind::number_from_string, Path{"amount"}, "\"42.50\"", "42.5"}}));
}

TEST_P(RepairLoop, RepairOffSendsTheCorrectionAsBefore) {
  auto result =
      run({{{"json", with_amount("42.50")}}, {{"json", kValidRefund}}}, RepairPolicy::off);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  EXPECT_TRUE(result.trace().attempts[0].repairs.empty());
  EXPECT_FALSE(result.trace().attempts[0].issues.empty());
}

TEST_P(RepairLoop, ReplyRepairsDoNotMakeValidIsCorrectedWithTheModelsOwnText) {
  const std::string fenced_swapped = "```json\n" + swapped_dates().dump() + "\n```";
  auto result = run({{{"text", fenced_swapped}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  const auto& first = result.trace().attempts[0];
  ASSERT_EQ(first.issues.size(), 1u);
  EXPECT_EQ(first.issues[0].message, "refundDate is before orderDate");
  const std::string correction = last_request();
  EXPECT_NE(correction.find(json(fenced_swapped).dump().substr(1, 40)), std::string::npos)
      << correction;
}

TEST_P(RepairLoop, ScalarCoercionIsNotTakenWhenTheValueStaysInvalid) {
  json doc = swapped_dates();
  doc["amount"] = "42.50";
  auto result = run({{{"json", doc}}, {{"json", kValidRefund}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2u);
  const auto& first = result.trace().attempts[0];
  EXPECT_TRUE(first.repairs.empty());
  // The model hears of the string it sent for a number (the date rule waits on a valid object,
  // as Zod's refinements do).
  ASSERT_EQ(first.issues.size(), 1u);
  EXPECT_EQ(first.issues[0].code, IssueCode::invalid_type);
  EXPECT_EQ(first.issues[0].path, Path{"amount"});
}

TEST_P(RepairLoop, TraceSaysEachRepair) {
  auto result = run({{{"json", with_amount("42.50")}}});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_NE(
      result.trace().to_text().find("repaired: number_from_string at amount: \"42.50\" -> 42.5"),
      std::string::npos)
      << result.trace().to_text();
  const auto repairs = result.trace().to_json()["attempts"][0]["repairs"];
  EXPECT_EQ(
      repairs,
      nlohmann::ordered_json::parse(
          R"([{"kind":"number_from_string","path":"amount","before":"\"42.50\"","after":"42.5"}])"));
}

TEST_P(RepairLoop, StreamDoesNotStopEarlyOnAScalarARepairFixes) {
  auto result = run({{{"json", with_amount("42.50")}}}, {}, true);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 1u);
  EXPECT_FALSE(result.trace().attempts[0].stream.stopped_at.has_value());
  EXPECT_EQ(result.value(), kValidRefund);
}

INSTANTIATE_TEST_SUITE_P(Providers, RepairLoop, ::testing::ValuesIn(provider_names()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

}  // namespace
}  // namespace accord
