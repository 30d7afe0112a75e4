// accord extract's request parameters and prices: --temperature, --seed and --param reach the
// request at the provider's places; a parameter the provider does not take, or a --param that is
// not KEY=JSON, stops the command before any request; --price-table puts the cost in the summary.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fixtures/cli_run.hpp"
#include "fixtures/mock_process.hpp"

namespace {

using nlohmann::json;

constexpr const char* kOrder = R"({
  "type": "object",
  "properties": {"item": {"type": "string"}, "count": {"type": "integer", "minimum": 1}},
  "required": ["item", "count"],
  "additionalProperties": false
})";

const json kReply = {{"item", "kettle"}, {"count", 2}};

std::string scenario_of(const json& reply) {
  return json{{"replies", {reply}}}.dump();
}

class CliParameters : public cli_testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (IsSkipped()) return;
    write("order.json", kOrder);
    write("mail.txt", "Two kettles, please.");
  }

  cli_testing::Outcome extract(const std::string& provider, const std::string& base_url,
                               std::vector<std::string> more) {
    std::vector<std::string> args = {"extract", file("order.json"), "--provider",
                                     provider,  "--base-url",       base_url,
                                     "--input", file("mail.txt")};
    args.insert(args.end(), more.begin(), more.end());
    return run(args);
  }
};

TEST_F(CliParameters, TemperatureSeedAndParamsReachTheRequest) {
  MockProcess mock(scenario_of({{"json", kReply}}));
  const auto r = extract("openai-chat", mock.base_url(),
                         {"--temperature", "0.3", "--seed", "9", "--param", "top_p=0.8", "--param",
                          "stop=[\"END\"]", "--param", "logprobs=true"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto body = mock.requests().back()["body"];
  EXPECT_EQ(body["temperature"], 0.3);
  EXPECT_EQ(body["seed"], 9);
  EXPECT_EQ(body["top_p"], 0.8);
  EXPECT_EQ(body["stop"], json({"END"}));
  EXPECT_EQ(body["logprobs"], true);  // not a parameter: a member of the body
}

TEST_F(CliParameters, DottedParamKeyNestsInTheBody) {
  MockProcess mock(scenario_of({{"json", kReply}}));
  const auto r = extract("gemini", mock.base_url(), {"--param", "generationConfig.topK=40"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto body = mock.requests().back()["body"];
  EXPECT_EQ(body["generationConfig"]["topK"], 40);
  EXPECT_TRUE(body["generationConfig"].contains("maxOutputTokens"));  // merged, not replaced
}

TEST_F(CliParameters, ParameterTheProviderDoesNotTakeStopsBeforeAnyRequest) {
  MockProcess mock(scenario_of({{"json", kReply}}));
  const auto r = extract("anthropic", mock.root_url(), {"--seed", "3"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("seed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("anthropic"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("extracting with"), std::string::npos) << r.err;
  EXPECT_EQ(mock.requests().size(), 0U);
}

TEST_F(CliParameters, ParamThatIsNotJsonIsAUsageError) {
  MockProcess mock(scenario_of({{"json", kReply}}));
  const auto r = extract("openai-chat", mock.base_url(), {"--param", "user=alice"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--param user=alice: the value is not JSON"), std::string::npos) << r.err;
  EXPECT_EQ(mock.requests().size(), 0U);
}

TEST_F(CliParameters, ParamOfTheWrongTypeIsAUsageError) {
  MockProcess mock(scenario_of({{"json", kReply}}));
  const auto r = extract("openai-chat", mock.base_url(), {"--param", "seed=\"nine\""});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--param seed=\"nine\""), std::string::npos) << r.err;
  EXPECT_EQ(mock.requests().size(), 0U);
}

TEST_F(CliParameters, PriceTableGivesTheCallsCostInTheSummary) {
  MockProcess mock(scenario_of(
      {{"json", kReply},
       {"usage",
        {{"input_tokens", 1000}, {"output_tokens", 100}, {"cache_read_input_tokens", 500}}}}));
  write("prices.json", R"({"currency": "EUR", "models": {"claude-test": {"input": 3, "output": 15,
                          "cache_read": 0.3}}})");
  const auto r = extract("anthropic", mock.root_url(),
                         {"--model", "claude-test", "--price-table", file("prices.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  // 1000 uncached at 3, 500 read at 0.3, 100 out at 15, per million.
  EXPECT_NE(r.err.find("accord: cost 0.004650 EUR"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("input from cache 500"), std::string::npos) << r.err;
}

TEST_F(CliParameters, PriceTableWithoutTheModelSaysSo) {
  MockProcess mock(scenario_of({{"json", kReply}}));
  write("prices.json", R"({"models": {"other": {"input": 1, "output": 1}}})");
  const auto r = extract("openai-chat", mock.base_url(),
                         {"--model", "gpt-test", "--price-table", file("prices.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("no cost: the price table has no model gpt-test"), std::string::npos)
      << r.err;
}

TEST_F(CliParameters, UnreadablePriceTableStopsBeforeAnyRequest) {
  MockProcess mock(scenario_of({{"json", kReply}}));
  write("prices.json", R"({"models": {"gpt-test": {"input": "cheap", "output": 1}}})");
  const auto r = extract("openai-chat", mock.base_url(), {"--price-table", file("prices.json")});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("\"input\""), std::string::npos) << r.err;
  EXPECT_EQ(mock.requests().size(), 0U);
}

}  // namespace
