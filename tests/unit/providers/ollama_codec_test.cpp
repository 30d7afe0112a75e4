// Ollama's native /api/chat: the request (format, stream, options.num_predict, no tool choice),
// the reply read status first (done_reason "length" is a cut-off), its counts as usage, its
// error envelope, and its NDJSON stream folded back into the whole body.

#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "providers/stream_assembly.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

const ojson kOllamaSchema = ojson::parse(R"({"type": "object",
    "properties": {"orderId": {"type": "string"}}, "required": ["orderId"]})");

struct OllamaCall {
  WireSchema wire;
  CallSpec spec;
};

OllamaCall call(OutputMode mode, std::string base_url = "http://127.0.0.1:11434") {
  const auto ollama = make_provider("ollama");
  OllamaCall c{ollama->lower(kOllamaSchema, Report{}), {}};
  c.spec.base_url = std::move(base_url);
  c.spec.model = "llama3.2";
  c.spec.max_tokens = 300;
  c.spec.turns.push_back({Turn::Role::user, "Order ORD-1 please.", {}, {}, {}});
  c.spec.output_name = "order";
  c.spec.mode = mode;
  return c;
}

ojson encoded(OllamaCall& c) {
  c.spec.output = &c.wire;
  const auto request = make_provider("ollama")->encode(c.spec);
  return ojson::parse(request.body);
}

Reply decode(const std::string& body, int status = 200) {
  return make_provider("ollama")->decode({status, {}, body}, OutputMode::response_format);
}

TEST(OllamaEncode, SendsTheSchemaAsFormatWithNumPredict) {
  auto c = call(OutputMode::response_format);
  c.spec.output = &c.wire;
  const auto request = make_provider("ollama")->encode(c.spec);
  EXPECT_EQ(request.url, "http://127.0.0.1:11434/api/chat");
  const auto body = ojson::parse(request.body);
  EXPECT_EQ(body["format"], c.wire.schema);
  EXPECT_EQ(body["stream"], false);
  EXPECT_EQ(body["options"]["num_predict"], 300);
  EXPECT_EQ(body["messages"][0]["content"], "Order ORD-1 please.");
}

TEST(OllamaEncode, AForcedToolIsSentAsFormatWithoutAToolChoice) {
  auto c = call(OutputMode::forced_tool);
  const auto body = encoded(c);
  EXPECT_EQ(body["format"], c.wire.schema);
  EXPECT_FALSE(body.contains("tool_choice")) << body;
  EXPECT_FALSE(body.contains("tools")) << body;
}

TEST(OllamaEncode, OllamaHostWithoutSchemeOrWithV1ReachesTheNativeApi) {
  auto bare = call(OutputMode::response_format, "127.0.0.1:11434");
  bare.spec.output = &bare.wire;
  EXPECT_EQ(make_provider("ollama")->encode(bare.spec).url, "http://127.0.0.1:11434/api/chat");
  auto v1 = call(OutputMode::response_format, "http://gpu-box:11434/v1");
  v1.spec.output = &v1.wire;
  EXPECT_EQ(make_provider("ollama")->encode(v1.spec).url, "http://gpu-box:11434/api/chat");
}

TEST(OllamaEncode, ToolResultsNameTheirTool) {
  auto c = call(OutputMode::response_format);
  c.spec.turns.push_back({Turn::Role::assistant, "", {{"", "lookup", R"({"id":1})"}}, {}, {}});
  Turn results{.role = Turn::Role::tool_results};
  results.results.push_back({"", "lookup", "found", false});
  c.spec.turns.push_back(results);
  const auto body = encoded(c);
  EXPECT_EQ(body["messages"][1]["tool_calls"][0]["function"]["arguments"], (ojson{{"id", 1}}));
  EXPECT_EQ(body["messages"][2],
            (ojson{{"role", "tool"}, {"content", "found"}, {"tool_name", "lookup"}}));
}

TEST(OllamaDecode, ContentIsTheOutputAndCountsAreUsage) {
  const auto reply = decode(R"({"model": "llama3.2", "message": {"role": "assistant",
      "content": "{\"orderId\": \"ORD-1\"}"}, "done": true, "done_reason": "stop",
      "prompt_eval_count": 26, "eval_count": 12})");
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId": "ORD-1"})");
  EXPECT_EQ(reply.usage.input_tokens, 26);
  EXPECT_EQ(reply.usage.output_tokens, 12);
  EXPECT_EQ(reply.usage.total_tokens, 38);
}

TEST(OllamaDecode, DoneReasonLengthIsTruncated) {
  const auto reply = decode(R"({"message": {"role": "assistant", "content": "{\"orderId\": \"O"},
      "done": true, "done_reason": "length", "eval_count": 5})");
  EXPECT_EQ(reply.status, ReplyStatus::truncated);
  EXPECT_EQ(reply.text, R"({"orderId": "O)");
}

TEST(OllamaDecode, ToolCallsWithObjectArgumentsAreRead) {
  const auto reply = decode(R"({"message": {"role": "assistant", "content": "",
      "tool_calls": [{"function": {"name": "lookup", "arguments": {"id": 7}}}]},
      "done": true, "done_reason": "stop"})");
  EXPECT_EQ(reply.status, ReplyStatus::tool_calls);
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].name, "lookup");
  EXPECT_EQ(ojson::parse(reply.tool_calls[0].arguments_text), (ojson{{"id", 7}}));
}

TEST(OllamaDecode, ItsErrorEnvelopeIsAnHttpErrorWithItsMessage) {
  const auto reply = decode(R"({"error": "model \"nope\" not found, try pulling it first"})", 404);
  EXPECT_EQ(reply.status, ReplyStatus::http_error);
  EXPECT_NE(reply.detail.find("not found, try pulling it first"), std::string::npos)
      << reply.detail;
}

TEST(OllamaDecode, AnotherShapeIsABadReplyNotAThrow) {
  for (const char* body : {R"({"choices": []})", R"({"message": "hi"})",
                           R"({"message": {"content": 5}})", "[1]", "not json"}) {
    EXPECT_EQ(decode(body).status, ReplyStatus::bad_reply) << body;
  }
}

// The lines of one stream, fed one at a time.
ojson assembled(const std::vector<std::string>& lines, bool& ended, std::string& output) {
  auto assembler = detail::make_stream_assembler("ollama", OutputMode::response_format);
  EXPECT_EQ(detail::stream_framing("ollama"), detail::StreamFraming::json_lines);
  for (const auto& line : lines) {
    const auto taken = assembler->take({{}, line});
    EXPECT_TRUE(taken.problem.empty()) << taken.problem;
    output += taken.output;
  }
  ended = assembler->ended();
  return assembler->body();
}

TEST(OllamaStream, LinesFoldBackIntoTheWholeBody) {
  bool ended = false;
  std::string output;
  const auto body = assembled(
      {R"({"model":"m","message":{"role":"assistant","content":"{\"order"},"done":false})",
       R"({"model":"m","message":{"role":"assistant","content":"Id\": 1}"},"done":false})",
       R"({"model":"m","message":{"role":"assistant","content":""},"done":true,)"
       R"("done_reason":"length","prompt_eval_count":3,"eval_count":4})"},
      ended, output);
  EXPECT_TRUE(ended);
  EXPECT_EQ(output, R"({"orderId": 1})");
  const auto reply = decode(body.dump());
  EXPECT_EQ(reply.status, ReplyStatus::truncated);
  EXPECT_EQ(reply.text, R"({"orderId": 1})");
  EXPECT_EQ(reply.usage.output_tokens, 4);
}

TEST(OllamaStream, AnErrorLineEndsTheStreamWithItsMessage) {
  bool ended = false;
  std::string output;
  const auto body =
      assembled({R"({"error":"an error was encountered while running the model"})"}, ended, output);
  EXPECT_TRUE(ended);
  const auto reply = decode(body.dump());
  EXPECT_EQ(reply.status, ReplyStatus::bad_reply);
  EXPECT_NE(reply.detail.find("while running the model"), std::string::npos) << reply.detail;
}

}  // namespace
}  // namespace accord
