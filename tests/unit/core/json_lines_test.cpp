// JSON lines (NDJSON) read as they arrive: a line split between reads is one event, blank lines
// and CRs are not events, and a last line without its break is kept for finish().

#include <gtest/gtest.h>

#include "core/json_lines.hpp"

namespace accord::detail {
namespace {

std::vector<std::string> data(const std::vector<SseEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) out.push_back(e.data);
  return out;
}

TEST(JsonLinesReader, ALineSplitAcrossReadsIsOneEvent) {
  JsonLinesReader reader;
  EXPECT_TRUE(reader.feed(R"({"a":)").empty());
  EXPECT_EQ(data(reader.feed("1}\n{\"b\":2}\n")),
            (std::vector<std::string>{R"({"a":1})", R"({"b":2})"}));
}

TEST(JsonLinesReader, BlankLinesAndCarriageReturnsAreNotEvents) {
  JsonLinesReader reader;
  EXPECT_EQ(data(reader.feed("\n\r\n{\"a\":1}\r\n  \n")), (std::vector<std::string>{R"({"a":1})"}));
}

TEST(JsonLinesReader, ALastLineWithoutItsBreakComesFromFinish) {
  JsonLinesReader reader;
  EXPECT_TRUE(reader.feed(R"({"done":true})").empty());
  const auto last = reader.finish();
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->data, R"({"done":true})");
  EXPECT_FALSE(reader.finish().has_value());
}

}  // namespace
}  // namespace accord::detail
