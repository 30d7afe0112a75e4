// The conversation an ExtractRequest makes, and the ones refused before anything is sent.
#include <gtest/gtest.h>

#include "loop/conversation.hpp"

namespace accord {
namespace {

using Role = Turn::Role;

ExtractRequest conversation_request(std::vector<Turn> messages) {
  ExtractRequest request{.schema = accord::string()};
  request.messages = std::move(messages);
  return request;
}

std::string conversation_refusal(const ExtractRequest& request) {
  try {
    (void)detail::conversation_of(request);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Conversation, ShorthandIsASystemAndAUserTurn) {
  const auto turns = detail::conversation_of(
      {.schema = accord::string(), .prompt = "the text", .system = "be brief"});
  ASSERT_EQ(turns.size(), 2u);
  EXPECT_EQ(turns[0].role, Role::system);
  EXPECT_EQ(turns[1].role, Role::user);
  EXPECT_EQ(turns[1].text, "the text");
}

TEST(Conversation, SystemGoesFirstAndPromptLastAroundTheMessages) {
  auto request = conversation_request(
      {{.role = Role::user, .text = "earlier"}, {.role = Role::assistant, .text = "an answer"}});
  request.system = "be brief";
  request.prompt = "now this";
  const auto turns = detail::conversation_of(request);
  ASSERT_EQ(turns.size(), 4u);
  EXPECT_EQ(turns[0].text, "be brief");
  EXPECT_EQ(turns[1].text, "earlier");
  EXPECT_EQ(turns[2].role, Role::assistant);
  EXPECT_EQ(turns[3].text, "now this");
}

TEST(Conversation, EndingWithAnAssistantTurnIsRefused) {
  EXPECT_NE(conversation_refusal(conversation_request(
                {{.role = Role::user, .text = "q"}, {.role = Role::assistant, .text = "a"}})),
            "");
  EXPECT_NE(conversation_refusal(conversation_request({{.role = Role::user, .text = "q"},
                                                       {.role = Role::assistant, .text = "a"}}))
                .find("turn 2 (assistant)"),
            std::string::npos);
}

TEST(Conversation, OnlySystemTurnsAreRefused) {
  EXPECT_NE(conversation_refusal(conversation_request({{.role = Role::system, .text = "rules"}}))
                .find("only system"),
            std::string::npos);
}

TEST(Conversation, AnEmptyUserTurnIsRefused) {
  EXPECT_NE(conversation_refusal(conversation_request({{.role = Role::user}}))
                .find("turn 1 (user) has no text"),
            std::string::npos);
}

TEST(Conversation, PartsOutsideAUserTurnAreRefused) {
  Turn assistant{.role = Role::assistant, .text = "a"};
  assistant.parts.push_back(ContentPart::image("\x89PNG", "image/png"));
  EXPECT_NE(conversation_refusal(conversation_request({{.role = Role::user, .text = "q"},
                                                       assistant,
                                                       {.role = Role::user, .text = "q"}}))
                .find("only user turns"),
            std::string::npos);
}

TEST(Conversation, APartWithoutBytesOrAMediaTypeIsRefused) {
  Turn user{.role = Role::user, .text = "q"};
  user.parts.push_back(ContentPart::image("", "image/png"));
  EXPECT_NE(conversation_refusal(conversation_request({user})).find("neither bytes nor a URL"),
            std::string::npos);
  user.parts[0] = ContentPart::image("bytes", "");
  EXPECT_NE(conversation_refusal(conversation_request({user})).find("no media type"),
            std::string::npos);
}

TEST(Conversation, ToolResultsAfterNoToolCallsAreRefused) {
  Turn results{.role = Role::tool_results};
  results.results.push_back({.call_id = "c1", .name = "lookup", .content = "{}"});
  EXPECT_NE(conversation_refusal(conversation_request({{.role = Role::user, .text = "q"},
                                                       {.role = Role::assistant, .text = "a"},
                                                       results}))
                .find("does not follow an assistant turn with tool calls"),
            std::string::npos);
}

TEST(Conversation, ToolResultsAfterToolCallsMayEndIt) {
  Turn calls{.role = Role::assistant};
  calls.tool_calls.push_back({.id = "c1", .name = "lookup", .arguments_text = "{}"});
  Turn results{.role = Role::tool_results};
  results.results.push_back({.call_id = "c1", .name = "lookup", .content = "{}"});
  EXPECT_EQ(conversation_refusal(
                conversation_request({{.role = Role::user, .text = "q"}, calls, results})),
            "");
}

}  // namespace
}  // namespace accord
