// The incremental JSON reader and the server-sent-event reader: a text cut anywhere reads the
// same as the text whole.
#include <gtest/gtest.h>

#include "core/json_stream_reader.hpp"
#include "core/sse.hpp"

namespace accord::detail {
namespace {

using nlohmann::json;

struct Reading {
  std::vector<std::string> closed;  // "path=value" per close, in order
  json value;
  JsonStreamReader::State state = JsonStreamReader::State::reading;
};

Reading read_in_pieces(std::string_view text, const std::vector<std::size_t>& cuts) {
  Reading out;
  JsonStreamReader reader([&](const Path& path, const json& value) {
    out.closed.push_back(path.to_pointer() + "=" + value.dump());
    return true;
  });
  std::size_t from = 0;
  for (const std::size_t cut : cuts) {
    reader.feed(text.substr(from, cut - from));
    from = cut;
  }
  reader.feed(text.substr(from));
  reader.finish();
  out.value = reader.value();
  out.state = reader.state();
  return out;
}

constexpr std::string_view kDocument =
    R"( {"name": "Zo\u00eb \"Q\" \\ caf\u00e9", "n": -12.5e+3, "ok": true, "none": null,
        "list": [1, [], {}, [false, "x"], {"k": "v"}], "emoji": "\ud83d\ude00 é",
        "nested": {"a": {"b": [0.5]}}, "n": 7} )";

TEST(JsonStreamReader, EverySplitPointGivesTheSameClosesAndValue) {
  const Reading whole = read_in_pieces(kDocument, {});
  ASSERT_EQ(whole.state, JsonStreamReader::State::complete);
  EXPECT_EQ(whole.value, json::parse(kDocument));
  for (std::size_t cut = 1; cut < kDocument.size(); ++cut) {
    const Reading split = read_in_pieces(kDocument, {cut});
    ASSERT_EQ(split.closed, whole.closed) << "cut at " << cut;
    ASSERT_EQ(split.value, whole.value) << "cut at " << cut;
  }
}

TEST(JsonStreamReader, ByteAtATimeGivesTheSameClosesAndValue) {
  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < kDocument.size(); ++i) cuts.push_back(i);
  const Reading bytes = read_in_pieces(kDocument, cuts);
  const Reading whole = read_in_pieces(kDocument, {});
  EXPECT_EQ(bytes.closed, whole.closed);
  EXPECT_EQ(bytes.value, whole.value);
}

TEST(JsonStreamReader, ReportsEachPartThenItsContainer) {
  const Reading reading = read_in_pieces(R"({"a": [1, {"b": "x"}], "c": null})", {});
  const std::vector<std::string> expected = {"/a/0=1",
                                             "/a/1/b=\"x\"",
                                             "/a/1={\"b\":\"x\"}",
                                             "/a=[1,{\"b\":\"x\"}]",
                                             "/c=null",
                                             "={\"a\":[1,{\"b\":\"x\"}],\"c\":null}"};
  EXPECT_EQ(reading.closed, expected);
}

TEST(JsonStreamReader, OpenContainersHoldTheClosedPartsSoFar) {
  JsonStreamReader reader([](const Path&, const json&) { return true; });
  reader.feed(R"({"a": 1, "b": [true, "unfinished)");
  EXPECT_EQ(reader.value(), json::parse(R"({"a": 1, "b": [true]})"));
  EXPECT_EQ(reader.state(), JsonStreamReader::State::reading);
}

TEST(JsonStreamReader, TopLevelNumberClosesAtTheEnd) {
  const Reading reading = read_in_pieces("42", {1});
  EXPECT_EQ(reading.closed, std::vector<std::string>{"=42"});
  EXPECT_EQ(reading.state, JsonStreamReader::State::complete);
}

TEST(JsonStreamReader, CallbackReturningFalseStopsTheReader) {
  int calls = 0;
  JsonStreamReader reader([&](const Path&, const json&) { return ++calls < 2; });
  reader.feed(R"({"a": 1, "b": 2, "c": 3})");
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(reader.state(), JsonStreamReader::State::stopped);
}

TEST(JsonStreamReader, TextThatIsNotJsonFailsWithoutThrowing) {
  for (const std::string_view bad : {R"({"a" 1})", R"([1,,2])", R"({"a": tru})", R"({"a": "\x"})",
                                     R"([1] 2)", R"({'a': 1})", "[01]"}) {
    const Reading reading = read_in_pieces(bad, {});
    EXPECT_EQ(reading.state, JsonStreamReader::State::failed) << bad;
  }
}

TEST(JsonStreamReader, NestingBeyondTheLimitFails) {
  JsonStreamReader reader([](const Path&, const json&) { return true; }, {}, 3);
  reader.feed("[[[[1]]]]");
  EXPECT_EQ(reader.state(), JsonStreamReader::State::failed);
}

TEST(SseReader, EventsSplitAnywhereAndAnyLineEndingReadTheSame) {
  const std::string stream =
      ": keep-alive\r\nevent: one\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n"
      "data: two\n\nevent: ignored-without-data\n\ndata:three\r\rdata: [DONE]\n\n";
  const auto whole = SseReader().feed(stream);
  ASSERT_EQ(whole.size(), 4u);
  EXPECT_EQ(whole[0].event, "one");
  EXPECT_EQ(whole[0].data, "{\"a\":\n1}");
  EXPECT_EQ(whole[1].data, "two");
  EXPECT_EQ(whole[2].data, "three");
  EXPECT_EQ(whole[3].data, "[DONE]");
  for (std::size_t cut = 1; cut < stream.size(); ++cut) {
    SseReader reader;
    auto events = reader.feed(stream.substr(0, cut));
    for (auto& event : reader.feed(stream.substr(cut))) events.push_back(std::move(event));
    ASSERT_EQ(events.size(), whole.size()) << "cut at " << cut;
    for (std::size_t i = 0; i < events.size(); ++i) {
      EXPECT_EQ(events[i].event, whole[i].event);
      EXPECT_EQ(events[i].data, whole[i].data);
    }
  }
}

}  // namespace
}  // namespace accord::detail
