// accord extract's conversation options against accord-mock: --system, --message, --image and
// --document reach the provider in order and in its shape, and a bad option or file is a usage
// error before any request.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fixtures/cli_run.hpp"
#include "fixtures/mock_process.hpp"

namespace {

using nlohmann::json;

class CliConversation : public cli_testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (IsSkipped()) return;
    write("note.json", R"({"type": "object", "properties": {"total": {"type": "number"}},
                          "required": ["total"], "additionalProperties": false})");
    write("mail.txt", "The receipt is attached.");
    write("receipt.png", std::string("\x89PNG\r\n\x1a\n", 8) + "pixels");
    write("form.pdf", "%PDF-1.7 the form");
  }

  static std::string one_reply() {
    return json{{"replies", {{{"json", {{"total", 12.5}}}}}}}.dump();
  }

  cli_testing::Outcome extract(const MockProcess& mock, std::vector<std::string> extra) {
    std::vector<std::string> args = {"extract",   file("note.json"), "--provider",
                                     "anthropic", "--base-url",      mock.root_url(),
                                     "--input",   file("mail.txt")};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  }
};

TEST_F(CliConversation, SystemMessagesAndFilesReachTheProviderInOrder) {
  MockProcess mock(one_reply());
  const auto r = extract(
      mock, {"--system", "Totals are in euros.", "--message", "user:What did I buy?", "--message",
             "assistant:A lamp.", "--image", file("receipt.png"), "--document", file("form.pdf")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["total"], 12.5);
  const auto body = mock.requests().at(0)["body"];
  EXPECT_NE(body["system"].get<std::string>().find("Totals are in euros."), std::string::npos);
  const auto& messages = body["messages"];
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0]["content"], "What did I buy?");
  EXPECT_EQ(messages[1]["role"], "assistant");
  const auto& last = messages[2]["content"];
  EXPECT_EQ(last[0]["text"], "The receipt is attached.");
  EXPECT_EQ(last[1]["source"]["media_type"], "image/png");  // told from the bytes
  EXPECT_EQ(last[2]["type"], "document");
}

TEST_F(CliConversation, AMessageWithoutAKnownRoleIsAUsageError) {
  MockProcess mock(one_reply());
  const auto r = extract(mock, {"--message", "robot:hello"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--message robot:hello: expected ROLE:TEXT"), std::string::npos) << r.err;
  EXPECT_TRUE(mock.requests().empty());
}

TEST_F(CliConversation, AMissingImageFileIsAUsageError) {
  MockProcess mock(one_reply());
  const auto r = extract(mock, {"--image", file("absent.png")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("absent.png"), std::string::npos) << r.err;
  EXPECT_TRUE(mock.requests().empty());
}

TEST_F(CliConversation, AnImageFileThatIsNoImageIsAUsageError) {
  MockProcess mock(one_reply());
  const auto r = extract(mock, {"--image", file("mail.txt")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("not a PNG, JPEG, GIF or WebP image"), std::string::npos) << r.err;
}

TEST_F(CliConversation, AnImageOverTheProvidersLimitIsRefusedBeforeSending) {
  write("large.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(5 * 1024 * 1024, 'x'));
  MockProcess mock(one_reply());
  const auto r = extract(mock, {"--image", file("large.png")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("over anthropic's limit of 5.00 MiB per image"), std::string::npos) << r.err;
  EXPECT_TRUE(mock.requests().empty());
}

}  // namespace
