// accord extract --fallback PROVIDER:MODEL[@URL] against two accord-mock instances: the first
// unavailable, the second answering, and the summary naming who answered.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fixtures/cli_run.hpp"
#include "fixtures/mock_process.hpp"

namespace {

using cli_testing::slurp;
using nlohmann::json;

class CliFallback : public cli_testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (IsSkipped()) return;
    write("order.json", R"({"title": "order", "type": "object",
      "properties": {"orderId": {"type": "string"}}, "required": ["orderId"],
      "additionalProperties": false})");
    write("mail.txt", "Order ORD-1 arrived broken.");
  }

  // accord extract with `fallback` exits 2, saying `why`, and sends nothing.
  void expect_refused_before_any_request(const std::string& fallback, const std::string& why) {
    MockProcess first(scenario({{{"json", {{"orderId", "ORD-1"}}}}}));
    const auto r = extract(first, {fallback});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    EXPECT_EQ(first.requests().size(), 0u);
  }

  static std::string scenario(const std::vector<json>& replies) {
    return json{{"replies", replies}}.dump();
  }
  static json unavailable() { return {{"status", 503}}; }

  // accord extract against `first` as openai-chat, with `fallbacks` after it.
  cli_testing::Outcome extract(const MockProcess& first,
                               const std::vector<std::string>& fallbacks) {
    std::vector<std::string> args = {"extract",        file("order.json"), "--provider",
                                     "openai-chat",    "--base-url",       first.base_url(),
                                     "--model",        "test-model",       "--input",
                                     file("mail.txt"), "--trace",          file("t.json")};
    for (const auto& fallback : fallbacks) args.insert(args.end(), {"--fallback", fallback});
    return run(args, {"OPENAI_API_KEY=", "ANTHROPIC_API_KEY="});
  }
};

TEST_F(CliFallback, UnavailableProviderFallsBackToTheNextAndSaysWhoAnswered) {
  MockProcess first(scenario({unavailable(), unavailable(), unavailable()}));
  MockProcess second(scenario({{{"json", {{"orderId", "ORD-1"}}}}}));
  const auto r = extract(first, {"anthropic:claude-test@" + second.root_url()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), (json{{"orderId", "ORD-1"}}));
  EXPECT_NE(r.err.find("answered by anthropic (model claude-test)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("attempt 2 to anthropic claude-test: HTTP 200"), std::string::npos) << r.err;
  const auto trace = json::parse(slurp(file("t.json")));
  EXPECT_EQ(trace["provider"], "anthropic");
  EXPECT_EQ(trace["attempts"][0]["provider"], "openai-chat");
  EXPECT_EQ(second.requests().size(), 1u);
}

TEST_F(CliFallback, FallbacksAreTriedInTheOrderGiven) {
  MockProcess first(scenario({unavailable(), unavailable(), unavailable()}));
  MockProcess second(scenario({unavailable(), unavailable(), unavailable()}));
  MockProcess third(scenario({{{"json", {{"orderId", "ORD-1"}}}}}));
  const auto r = extract(first, {"anthropic:claude-test@" + second.root_url(),
                                 "openai-responses:gpt-test@" + third.base_url()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("answered by openai-responses (model gpt-test)"), std::string::npos)
      << r.err;
  EXPECT_EQ(json::parse(slurp(file("t.json")))["attempts"].size(), 3u);
}

// A model id may carry '@' (Vertex AI's dated ids): only an '@' that starts a URL ends it.
TEST_F(CliFallback, ModelWithAnAtSignKeepsIt) {
  MockProcess first(scenario({unavailable(), unavailable(), unavailable()}));
  MockProcess second(scenario({{{"json", {{"orderId", "ORD-1"}}}}}));
  const auto r = extract(first, {"anthropic:claude-x@20240620@" + second.root_url()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("answered by anthropic (model claude-x@20240620)"), std::string::npos)
      << r.err;
}

TEST_F(CliFallback, UnknownFallbackProviderExitsTwoBeforeAnyRequest) {
  expect_refused_before_any_request("nosuch:model", "nosuch");
}

TEST_F(CliFallback, HostedFallbackWithoutAKeyExitsTwoBeforeAnyRequest) {
  expect_refused_before_any_request("anthropic:claude-test@https://api.invalid.example",
                                    "fallback anthropic");
}

}  // namespace
