// Converse and Gemini join turns of one role in a row into one message. An assistant turn that
// carries the provider's own message (Turn::raw, sent back as a placeholder for its text) joins
// the turn before or after it item by item, as a turn built from text does.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "accord/providers/provider.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

struct JoinedTurnsCase {
  const char* provider;
  const char* messages;  // where the request keeps its messages
  const char* items;     // where a message keeps its items
  const char* raw_items;
};

const JoinedTurnsCase kJoinedTurnsCases[] = {
    {"bedrock", "messages", "content", R"([{"text":"first"},{"text":"second"}])"},
    {"gemini", "contents", "parts", R"([{"text":"first"},{"text":"second"}])"},
};

ojson joined_turns_body(const JoinedTurnsCase& c, bool raw_first) {
  const auto provider = make_provider(c.provider);
  CallSpec spec;
  spec.base_url = "http://127.0.0.1:9";
  spec.model = "joined-turns-model";
  spec.max_tokens = 100;
  spec.turns.push_back({Turn::Role::user, "Hello.", {}, {}, {}});
  Turn raw{Turn::Role::assistant, "", {}, {}, {}};
  raw.raw = ProviderMessage(ojson::parse(c.raw_items));
  const Turn text{Turn::Role::assistant, "third", {}, {}, {}};
  spec.turns.push_back(raw_first ? raw : text);
  spec.turns.push_back(raw_first ? text : raw);
  return ojson::parse(provider->encode(spec).body);
}

std::vector<std::string> joined_texts(const ojson& body, const JoinedTurnsCase& c) {
  const ojson& messages = body.at(c.messages);
  EXPECT_EQ(messages.size(), 2U) << body.dump();
  std::vector<std::string> texts;
  for (const auto& item : messages.back().at(c.items)) texts.push_back(item.at("text"));
  return texts;
}

TEST(JoinedTurns, AMessageAsReceivedThenATextTurnJoinItemByItem) {
  for (const auto& c : kJoinedTurnsCases) {
    SCOPED_TRACE(c.provider);
    EXPECT_EQ(joined_texts(joined_turns_body(c, /*raw_first=*/true), c),
              (std::vector<std::string>{"first", "second", "third"}));
  }
}

TEST(JoinedTurns, ATextTurnThenAMessageAsReceivedJoinItemByItem) {
  for (const auto& c : kJoinedTurnsCases) {
    SCOPED_TRACE(c.provider);
    EXPECT_EQ(joined_texts(joined_turns_body(c, /*raw_first=*/false), c),
              (std::vector<std::string>{"third", "first", "second"}));
  }
}

}  // namespace
}  // namespace accord
