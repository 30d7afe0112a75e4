// accord extract --mode: left at per-model, bedrock sends native structured output to a model
// AWS lists it for and a forced tool to any other; response-format and forced-tool are sent as
// given whatever the model; another name stops the command before any request.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fixtures/cli_run.hpp"
#include "fixtures/mock_process.hpp"

namespace {

using nlohmann::json;

constexpr const char* kItemOrder = R"({
  "type": "object",
  "properties": {"item": {"type": "string"}},
  "required": ["item"],
  "additionalProperties": false
})";

constexpr const char* kListed = "us.anthropic.claude-haiku-4-5-20251001-v1:0";
constexpr const char* kUnlisted = "anthropic.claude-3-5-haiku-20241022-v1:0";
// Keys of the machine's own would be signed with and refused by accord-mock's check.
const std::vector<std::string> kNoAwsKeys = {
    "AWS_BEARER_TOKEN_BEDROCK=", "AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY="};

class CliMode : public cli_testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (IsSkipped()) return;
    write("order.json", kItemOrder);
    write("mail.txt", "A kettle, please.");
  }

  // The body bedrock was sent for `model` with `more` options, after a successful run.
  json sent(const char* model, std::vector<std::string> more = {}) {
    MockProcess mock(json{{"replies", {{{"json", {{"item", "kettle"}}}}}}}.dump());
    std::vector<std::string> args = {
        "extract", file("order.json"), "--provider",    "bedrock", "--model",
        model,     "--base-url",       mock.base_url(), "--input", file("mail.txt")};
    args.insert(args.end(), more.begin(), more.end());
    const auto r = run(args, kNoAwsKeys);
    EXPECT_EQ(r.code, 0) << r.err;
    return mock.requests().at(0)["body"];
  }
};

bool native(const json& body) {
  return body.contains("outputConfig") && !body.contains("toolConfig");
}
bool forced(const json& body) {
  return !body.contains("outputConfig") && body["toolConfig"].contains("toolChoice");
}

TEST_F(CliMode, PerModelIsTheDefault) {
  EXPECT_TRUE(native(sent(kListed)));
  EXPECT_TRUE(forced(sent(kUnlisted)));
}

TEST_F(CliMode, ResponseFormatAndForcedToolAreSentAsGiven) {
  EXPECT_TRUE(native(sent(kUnlisted, {"--mode", "response-format"})));
  EXPECT_TRUE(forced(sent(kListed, {"--mode", "forced-tool"})));
}

TEST_F(CliMode, AnotherNameStopsBeforeAnyRequest) {
  MockProcess mock(json{{"replies", {{{"json", {{"item", "kettle"}}}}}}}.dump());
  const auto r = run({"extract", file("order.json"), "--provider", "bedrock", "--base-url",
                      mock.base_url(), "--input", file("mail.txt"), "--mode", "native"},
                     kNoAwsKeys);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--mode"), std::string::npos) << r.err;
  EXPECT_EQ(mock.requests().size(), 0u);
}

}  // namespace
