// Provider codecs: request bodies per provider and output mode (corrective turns included), and
// status-first decoding of replies, malformed ones included, never throwing.

#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "fixtures/codec_calls.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;
using nlohmann::json;

const ojson kSchema = ojson::parse(R"({"type": "object",
    "properties": {"orderId": {"type": "string"}}, "required": ["orderId"],
    "additionalProperties": false})");

std::unique_ptr<Provider> provider(const char* name) {
  auto p = make_provider(name);
  EXPECT_NE(p, nullptr) << name;
  return p;
}

struct Call {
  WireSchema wire;
  CallSpec spec;
};

// A first attempt: system + user turns, the refund-like schema as output.
Call first_attempt(const Provider& p, OutputMode mode, std::string key = "sk-test") {
  Call c{p.lower(kSchema, Report{}), {}};
  c.spec.base_url = "http://127.0.0.1:9/v1";
  c.spec.api_key = std::move(key);
  c.spec.model = "m-1";
  c.spec.max_tokens = 300;
  c.spec.turns.push_back({Turn::Role::system, "Extract the order.", {}, {}, {}});
  c.spec.turns.push_back({Turn::Role::user, "Order ORD-123456 please.", {}, {}, {}});
  c.spec.output_name = "refund";
  c.spec.mode = mode;
  return c;
}

// Appends the corrective turns after a reply decoded from `reply_body`.
void add_correction(Call& c, const Provider& p, const std::string& reply_body) {
  const Reply reply = p.decode({200, {}, reply_body}, c.spec.mode);
  c.spec.turns.push_back(reply.assistant);
  const std::string issues = "That JSON failed validation:\n✖ bad\nReturn the corrected JSON only.";
  if (c.spec.mode == OutputMode::forced_tool) {
    ASSERT_EQ(reply.tool_calls.size(), 1u);
    Turn results{Turn::Role::tool_results, "", {}, {}, {}};
    results.results.push_back({reply.tool_calls[0].id, reply.tool_calls[0].name, issues, true});
    c.spec.turns.push_back(results);
  } else {
    c.spec.turns.push_back({Turn::Role::user, issues, {}, {}, {}});
  }
}

ojson body_of(const HttpRequest& request) {
  return ojson::parse(request.body);
}

using testing_support::decode;
using testing_support::header;

// ---- registry and small types ---------------------------------------------------------------

TEST(ProvidersRegistry, MakesEveryListedProviderUnderItsOwnName) {
  for (const auto& name : provider_names()) {
    auto p = make_provider(name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_EQ(p->name(), name);
    EXPECT_FALSE(p->default_base_url().empty());
  }
  EXPECT_EQ(provider_names().size(), 12u);
}

TEST(ProvidersRegistry, UnknownNameGivesNull) {
  EXPECT_EQ(make_provider("no-such-provider"), nullptr);
}

TEST(ReplyTypes, UsageAddsEachCount) {
  Usage a{10, 5, 15};
  a += Usage{1, 2, 3};
  EXPECT_EQ(a, (Usage{11, 7, 18}));
}

TEST(ReplyTypes, StatusNamesAreSnakeCase) {
  EXPECT_EQ(to_string(ReplyStatus::content_filtered), "content_filtered");
  EXPECT_EQ(to_string(ReplyStatus::tool_calls), "tool_calls");
  EXPECT_EQ(to_string(ReplyStatus::bad_reply), "bad_reply");
}

// ---- OpenAI chat: encode --------------------------------------------------------------------

TEST(OpenAIChatEncode, ResponseFormatRequestCarriesStrictSchemaAndTokenLimit) {
  auto p = provider("openai-chat");
  auto c = first_attempt(*p, OutputMode::response_format);
  c.spec.output = &c.wire;
  const auto request = p->encode(c.spec);
  EXPECT_EQ(request.url, "http://127.0.0.1:9/v1/chat/completions");
  EXPECT_EQ(header(request, "authorization"), "Bearer sk-test");
  EXPECT_EQ(header(request, "content-type"), "application/json");
  const ojson expected = {
      {"model", "m-1"},
      {"messages",
       {{{"role", "system"}, {"content", "Extract the order."}},
        {{"role", "user"}, {"content", "Order ORD-123456 please."}}}},
      {"response_format",
       {{"type", "json_schema"},
        {"json_schema", {{"name", "refund"}, {"strict", true}, {"schema", kSchema}}}}},
      {"max_completion_tokens", 300}};
  EXPECT_EQ(body_of(request), expected);
}

TEST(OpenAIChatEncode, NoAuthorizationHeaderWithoutAKey) {
  auto p = provider("openai-chat");
  auto c = first_attempt(*p, OutputMode::response_format, "");
  EXPECT_FALSE(header(p->encode(c.spec), "authorization").has_value());
}

TEST(OpenAIChatEncode, CorrectionEchoesTheAssistantMessageThenTheIssues) {
  auto p = provider("openai-chat");
  auto c = first_attempt(*p, OutputMode::response_format);
  c.spec.output = &c.wire;
  add_correction(c, *p, R"({"choices": [{"index": 0, "finish_reason": "stop",
      "message": {"role": "assistant", "content": "{\"orderId\": 5}", "refusal": null}}]})");
  const auto messages = body_of(p->encode(c.spec))["messages"];
  ASSERT_EQ(messages.size(), 4u);
  // The message goes back with its members in the provider's order.
  EXPECT_EQ(messages[2].dump(),
            R"({"role":"assistant","content":"{\"orderId\": 5}","refusal":null})");
  EXPECT_EQ(messages[3]["role"], "user");
  EXPECT_EQ(messages[3]["content"].get<std::string>().rfind("That JSON failed validation:", 0), 0u);
}

TEST(OpenAIChatEncode, ForcedToolModeSendsOneStrictToolAndForcesIt) {
  auto p = provider("openai-chat");
  auto c = first_attempt(*p, OutputMode::forced_tool);
  c.spec.output = &c.wire;
  const auto body = body_of(p->encode(c.spec));
  EXPECT_FALSE(body.contains("response_format"));
  ASSERT_EQ(body["tools"].size(), 1u);
  EXPECT_EQ(body["tools"][0]["type"], "function");
  EXPECT_EQ(body["tools"][0]["function"]["name"], "refund");
  EXPECT_EQ(body["tools"][0]["function"]["parameters"], kSchema);
  EXPECT_EQ(body["tools"][0]["function"]["strict"], true);
  EXPECT_EQ(body["tool_choice"],
            ojson::parse(R"({"type": "function", "function": {"name": "refund"}})"));
  EXPECT_EQ(body["parallel_tool_calls"], false);
}

TEST(OpenAIChatEncode, ForcedToolCorrectionAnswersTheCallWithAToolMessage) {
  auto p = provider("openai-chat");
  auto c = first_attempt(*p, OutputMode::forced_tool);
  c.spec.output = &c.wire;
  add_correction(c, *p, R"({"choices": [{"index": 0, "finish_reason": "stop",
      "message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "refund", "arguments": "{\"orderId\": 5}"}}]}}]})");
  const auto messages = body_of(p->encode(c.spec))["messages"];
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_EQ(messages[2]["tool_calls"][0]["id"], "call_1");
  EXPECT_EQ(messages[3]["role"], "tool");
  EXPECT_EQ(messages[3]["tool_call_id"], "call_1");
  EXPECT_NE(messages[3]["content"].get<std::string>().find("✖ bad"), std::string::npos);
}

TEST(OpenAIChatEncode, UserToolsAreStrictFunctionsWithoutParallelCalls) {
  auto p = provider("openai-chat");
  auto c = first_attempt(*p, OutputMode::response_format);
  c.spec.tools.push_back({"lookup", "Finds an order.", p->lower(kSchema, Report{})});
  const auto body = body_of(p->encode(c.spec));
  EXPECT_EQ(body["tools"][0], ojson::parse(R"({"type": "function", "function": {
      "name": "lookup", "description": "Finds an order.", "parameters": )" +
                                           kSchema.dump() + R"(, "strict": true}})"));
  EXPECT_FALSE(body.contains("tool_choice"));
  EXPECT_EQ(body["parallel_tool_calls"], false);
}

// A Contract hands the encoder its wire schema serialised once; the body must be the very text a
// copy of the schema would give, on every provider, in both output modes, with tools around it.
TEST(ProvidersEncode, SchemaTextSerialisedOnceGivesTheSameBodyAsACopy) {
  for (const auto& name : provider_names()) {
    for (const OutputMode mode : {OutputMode::response_format, OutputMode::forced_tool}) {
      auto p = provider(name.c_str());
      auto c = first_attempt(*p, mode);
      c.spec.output = &c.wire;
      c.spec.tools.push_back({"lookup", "Finds an order.", p->lower(kSchema, Report{})});
      c.spec.turns.push_back({Turn::Role::user, "caf\u00e9 \"quoted\" \xff", {}, {}, {}});
      const std::string copied = p->encode(c.spec).body;
      const std::string text = c.wire.schema.dump();
      c.spec.output_text = &text;
      EXPECT_EQ(p->encode(c.spec).body, copied) << name;
    }
  }
}

TEST(ProvidersEncode, SplicedBodyEscapesEveryAsciiCharacterAsNlohmannDoes) {
  std::string every_ascii;
  for (int c = 0; c < 0x80; ++c) every_ascii += static_cast<char>(c);
  for (const auto& name : provider_names()) {
    auto p = provider(name.c_str());
    auto c = first_attempt(*p, OutputMode::forced_tool);
    c.spec.output = &c.wire;
    c.spec.tools.push_back({"lookup", every_ascii, p->lower(kSchema, Report{})});
    c.spec.turns.push_back({Turn::Role::system, every_ascii, {}, {}, {}});
    c.spec.turns.push_back({Turn::Role::user, every_ascii + "\u00e9", {}, {}, {}});
    const std::string copied = p->encode(c.spec).body;
    const std::string text = c.wire.schema.dump();
    c.spec.output_text = &text;
    EXPECT_EQ(p->encode(c.spec).body, copied) << name;
  }
}

TEST(GenericEncode, UsesMaxTokensAndStillSendsTheSchema) {
  auto p = provider("generic");
  auto c = first_attempt(*p, OutputMode::response_format, "");
  c.spec.output = &c.wire;
  const auto request = p->encode(c.spec);
  EXPECT_EQ(request.url, "http://127.0.0.1:9/v1/chat/completions");
  EXPECT_FALSE(header(request, "authorization").has_value());
  const auto body = body_of(request);
  EXPECT_EQ(body["max_tokens"], 300);
  EXPECT_FALSE(body.contains("max_completion_tokens"));
  EXPECT_EQ(body["response_format"]["json_schema"]["schema"], kSchema);
}

// ---- OpenAI chat: decode --------------------------------------------------------------------

TEST(OpenAIChatDecode, ContentIsTheOutputWithUsage) {
  const auto reply = decode("openai-chat", R"({"id": "chatcmpl-1", "object": "chat.completion",
      "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
        "content": "{\"orderId\":\"ORD-123456\"}", "refusal": null}}],
      "usage": {"prompt_tokens": 91, "completion_tokens": 23, "total_tokens": 114}})");
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"ORD-123456"})");
  EXPECT_EQ(reply.usage, (Usage{91, 23, 114}));
  EXPECT_EQ(reply.assistant.role, Turn::Role::assistant);
  EXPECT_EQ(reply.assistant.raw.tree()["content"], reply.text);
}

TEST(OpenAIChatDecode, TotalIsTheSumWhenAbsent) {
  const auto reply = decode("openai-chat", R"({"choices": [{"finish_reason": "stop",
      "message": {"content": "{}"}}], "usage": {"prompt_tokens": 4, "completion_tokens": 6}})");
  EXPECT_EQ(reply.usage.total_tokens, 10);
}

TEST(OpenAIChatDecode, RefusalFieldIsARefusal) {
  const auto reply = decode("openai-chat", R"({"choices": [{"index": 0, "finish_reason": "stop",
      "message": {"role": "assistant", "content": null,
                  "refusal": "Sorry, I can't help with that request."}}]})");
  EXPECT_EQ(reply.status, ReplyStatus::refusal);
  EXPECT_EQ(reply.text, "Sorry, I can't help with that request.");
}

TEST(OpenAIChatDecode, LengthIsTruncatedWithThePartialText) {
  const auto reply = decode("openai-chat", R"({"choices": [{"index": 0, "finish_reason": "length",
      "message": {"role": "assistant", "content": "{\"orderId\":\"OR", "refusal": null}}]})");
  EXPECT_EQ(reply.status, ReplyStatus::truncated);
  EXPECT_EQ(reply.text, R"({"orderId":"OR)");
  EXPECT_EQ(reply.detail, "length");
}

TEST(OpenAIChatDecode, ContentFilterIsNamed) {
  const auto reply = decode("openai-chat", R"({"choices": [{"finish_reason": "content_filter",
      "message": {"role": "assistant", "content": null}}]})");
  EXPECT_EQ(reply.status, ReplyStatus::content_filtered);
}

TEST(OpenAIChatDecode, ToolCallsAreFoundByTheListNotTheFinishReason) {
  const auto reply = decode("openai-chat", R"({"choices": [{"finish_reason": "stop",
      "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "call_Q7x9",
        "type": "function", "function": {"name": "lookup_fx_rate",
        "arguments": "{\"base\":\"EUR\",\"quote\":\"USD\"}"}}]}}]})");
  EXPECT_EQ(reply.status, ReplyStatus::tool_calls);
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].id, "call_Q7x9");
  EXPECT_EQ(reply.tool_calls[0].name, "lookup_fx_rate");
  EXPECT_EQ(reply.tool_calls[0].arguments_text, R"({"base":"EUR","quote":"USD"})");
  EXPECT_EQ(reply.assistant.tool_calls.size(), 1u);
}

TEST(OpenAIChatDecode, ForcedToolCallArgumentsAreTheOutput) {
  const auto reply = decode("openai-chat", R"({"choices": [{"finish_reason": "stop",
      "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1",
        "type": "function", "function": {"name": "refund", "arguments": "{\"orderId\":\"x\"}"}}]}}]})",
                            200, OutputMode::forced_tool);
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"x"})");
}

TEST(OpenAIChatDecode, NullContentIsEmpty) {
  const auto reply = decode("openai-chat", R"({"choices": [{"finish_reason": "stop",
      "message": {"role": "assistant", "content": null, "refusal": null}}]})");
  EXPECT_EQ(reply.status, ReplyStatus::empty);
}

TEST(OpenAIChatDecode, QuotaErrorKeepsMessageAndPrefersCode) {
  const auto reply = decode(
      "openai-chat",
      R"({"error": {"message": "You exceeded your current quota, please check your plan and billing details.",
      "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}})",
      429);
  EXPECT_EQ(reply.status, ReplyStatus::http_error);
  EXPECT_EQ(reply.error_code, "insufficient_quota");
  EXPECT_EQ(reply.detail.rfind("You exceeded your current quota", 0), 0u);
}

TEST(OpenAIChatDecode, ErrorWithNullCodeFallsBackToType) {
  const auto reply = decode("openai-chat", R"({"error": {"message": "Invalid schema.",
      "type": "invalid_request_error", "param": "response_format", "code": null}})",
                            400);
  EXPECT_EQ(reply.error_code, "invalid_request_error");
  EXPECT_EQ(reply.detail, "Invalid schema.");
}

TEST(OpenAIChatDecode, ErrorStatusWithHtmlBodyStillNamesTheStatus) {
  const auto reply = decode("openai-chat", "<html>Bad gateway</html>", 502);
  EXPECT_EQ(reply.status, ReplyStatus::http_error);
  EXPECT_EQ(reply.detail, "HTTP 502: <html>Bad gateway</html>");
}

TEST(OpenAIChatDecode, MalformedBodiesAreBadRepliesNeverThrows) {
  const char* const bodies[] = {
      "",
      "not json",
      "[1, 2]",
      "{}",
      R"({"choices": {}})",
      R"({"choices": []})",
      R"({"choices": [3]})",
      R"({"choices": [{"message": "hi"}]})",
      R"({"choices": [{"message": {"content": 5}}]})",
      R"({"choices": [{"message": {"content": null, "tool_calls": {}}}]})",
      R"({"choices": [{"message": {"content": null, "tool_calls": [{"id": "x"}]}}]})",
      R"({"choices": [{"message": {"tool_calls": [{"function": {"name": "f", "arguments": 1}}]}}]})",
      R"({"choices": [{"message": {"content": "{\"a\":)"};
  for (const char* body : bodies) {
    Reply reply;
    EXPECT_NO_THROW(reply = decode("openai-chat", body)) << body;
    EXPECT_EQ(reply.status, ReplyStatus::bad_reply) << body;
    EXPECT_FALSE(reply.detail.empty()) << body;
  }
}

TEST(OpenAIChatDecode, EmptyChoicesSaysSo) {
  EXPECT_EQ(decode("openai-chat", R"({"choices": []})").detail,
            "the reply's choices array is empty");
}

TEST(ProvidersDecode, DeeplyNestedBodyIsABadReply) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const auto& name : provider_names()) {
    Reply reply;
    EXPECT_NO_THROW(reply =
                        make_provider(name)->decode({200, {}, deep}, OutputMode::response_format));
    EXPECT_EQ(reply.status, ReplyStatus::bad_reply) << name;
  }
}

// ---- OpenAI Responses -----------------------------------------------------------------------

TEST(OpenAIResponsesEncode, TextFormatInstructionsAndInput) {
  auto p = provider("openai-responses");
  auto c = first_attempt(*p, OutputMode::response_format);
  c.spec.output = &c.wire;
  const auto request = p->encode(c.spec);
  EXPECT_EQ(request.url, "http://127.0.0.1:9/v1/responses");
  EXPECT_EQ(header(request, "authorization"), "Bearer sk-test");
  const ojson expected = {
      {"model", "m-1"},
      {"instructions", "Extract the order."},
      {"input", {{{"role", "user"}, {"content", "Order ORD-123456 please."}}}},
      {"text",
       {{"format",
         {{"type", "json_schema"}, {"name", "refund"}, {"strict", true}, {"schema", kSchema}}}}},
      {"max_output_tokens", 300}};
  EXPECT_EQ(body_of(request), expected);
}

const char* const kResponsesOk = R"({"id": "resp_9f1", "object": "response",
    "status": "completed", "error": null, "incomplete_details": null,
    "output": [{"type": "reasoning", "id": "rs_1", "summary": []},
               {"type": "message", "id": "msg_71", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "annotations": [], "text": "{\"orderId\":"},
                            {"type": "output_text", "annotations": [], "text": "\"ORD-1\"}"}]}],
    "usage": {"input_tokens": 84, "output_tokens": 22, "total_tokens": 106}})";

TEST(OpenAIResponsesEncode, CorrectionEchoesTheOutputItemsThenTheIssues) {
  auto p = provider("openai-responses");
  auto c = first_attempt(*p, OutputMode::response_format);
  c.spec.output = &c.wire;
  add_correction(c, *p, kResponsesOk);
  const auto input = body_of(p->encode(c.spec))["input"];
  ASSERT_EQ(input.size(), 4u);
  EXPECT_EQ(input[1]["type"], "reasoning");
  EXPECT_EQ(input[2]["id"], "msg_71");
  EXPECT_EQ(input[3]["role"], "user");
}

TEST(OpenAIResponsesEncode, ForcedToolIsFlatAndItsCorrectionIsAFunctionCallOutput) {
  auto p = provider("openai-responses");
  auto c = first_attempt(*p, OutputMode::forced_tool);
  c.spec.output = &c.wire;
  add_correction(c, *p, R"({"status": "completed", "output": [{"type": "function_call",
      "id": "fc_12", "call_id": "call_A1", "name": "refund", "arguments": "{\"orderId\":1}",
      "status": "completed"}]})");
  const auto body = body_of(p->encode(c.spec));
  EXPECT_FALSE(body.contains("text"));
  EXPECT_EQ(body["tools"][0], ojson::parse(R"({"type": "function", "name": "refund",
      "description": "Return the final answer by calling this tool once; its input is the answer.",
      "parameters": )" + kSchema.dump() + R"(, "strict": true})"));
  EXPECT_EQ(body["tool_choice"], ojson::parse(R"({"type": "function", "name": "refund"})"));
  const auto& input = body["input"];
  ASSERT_EQ(input.size(), 3u);
  EXPECT_EQ(input[1]["type"], "function_call");
  EXPECT_EQ(input[2]["type"], "function_call_output");
  EXPECT_EQ(input[2]["call_id"], "call_A1");
}

TEST(OpenAIResponsesDecode, JoinsOutputTextSkippingReasoning) {
  const auto reply = decode("openai-responses", kResponsesOk);
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"ORD-1"})");
  EXPECT_EQ(reply.usage, (Usage{84, 22, 106}));
  EXPECT_TRUE(reply.assistant.raw.is_array());
  EXPECT_EQ(reply.assistant.raw.tree().size(), 2u);
}

TEST(OpenAIResponsesDecode, RefusalPartIsARefusal) {
  const auto reply = decode("openai-responses", R"({"status": "completed",
      "incomplete_details": null, "output": [{"type": "message", "id": "msg_72",
      "role": "assistant", "status": "completed",
      "content": [{"type": "refusal", "refusal": "I can't assist with that."}]}]})");
  EXPECT_EQ(reply.status, ReplyStatus::refusal);
  EXPECT_EQ(reply.text, "I can't assist with that.");
}

TEST(OpenAIResponsesDecode, MaxOutputTokensIsTruncated) {
  const auto reply = decode("openai-responses", R"({"status": "incomplete",
      "incomplete_details": {"reason": "max_output_tokens"}, "output": [{"type": "message",
      "id": "msg_73", "role": "assistant", "status": "incomplete",
      "content": [{"type": "output_text", "annotations": [], "text": "{\"vendor\":\"ACME"}]}]})");
  EXPECT_EQ(reply.status, ReplyStatus::truncated);
  EXPECT_EQ(reply.text, R"({"vendor":"ACME)");
  EXPECT_EQ(reply.detail, "max_output_tokens");
}

TEST(OpenAIResponsesDecode, ContentFilterIsNamed) {
  const auto reply = decode("openai-responses", R"({"status": "incomplete",
      "incomplete_details": {"reason": "content_filter"}, "output": []})");
  EXPECT_EQ(reply.status, ReplyStatus::content_filtered);
}

TEST(OpenAIResponsesDecode, FunctionCallItemsAreToolCalls) {
  const auto reply = decode("openai-responses", R"({"status": "completed",
      "output": [{"type": "function_call", "id": "fc_12", "call_id": "call_A1",
      "name": "lookup_fx_rate", "arguments": "{\"base\":\"EUR\"}", "status": "completed"}]})");
  EXPECT_EQ(reply.status, ReplyStatus::tool_calls);
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].id, "call_A1");
  EXPECT_EQ(reply.tool_calls[0].arguments_text, R"({"base":"EUR"})");
}

TEST(OpenAIResponsesDecode, ForcedFunctionCallIsTheOutput) {
  const auto reply = decode("openai-responses", R"({"status": "completed",
      "output": [{"type": "function_call", "call_id": "c", "name": "refund",
      "arguments": "{\"orderId\":\"x\"}"}]})",
                            200, OutputMode::forced_tool);
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"x"})");
}

TEST(OpenAIResponsesDecode, NoOutputTextIsEmpty) {
  EXPECT_EQ(decode("openai-responses", R"({"status": "completed", "output": []})").status,
            ReplyStatus::empty);
}

TEST(OpenAIResponsesDecode, RateLimitErrorUsesTheEnvelope) {
  const auto reply = decode("openai-responses", R"({"error": {"message": "Rate limit reached.",
      "type": "tokens", "param": null, "code": "rate_limit_exceeded"}})",
                            429);
  EXPECT_EQ(reply.status, ReplyStatus::http_error);
  EXPECT_EQ(reply.error_code, "rate_limit_exceeded");
  EXPECT_EQ(reply.detail, "Rate limit reached.");
}

TEST(OpenAIResponsesDecode, FailedResponseIsABadReplyWithTheError) {
  const auto reply = decode("openai-responses", R"({"status": "failed",
      "error": {"code": "server_error", "message": "The model failed."}, "output": []})");
  EXPECT_EQ(reply.status, ReplyStatus::bad_reply);
  EXPECT_EQ(reply.error_code, "server_error");
  EXPECT_EQ(reply.detail, "The model failed.");
}

TEST(OpenAIResponsesDecode, MalformedBodiesAreBadRepliesNeverThrows) {
  const char* const bodies[] = {
      "",
      "{",
      "\"text\"",
      R"({"status": "completed"})",
      R"({"output": {}})",
      R"({"output": [1]})",
      R"({"output": [{"type": "message"}]})",
      R"({"output": [{"type": "function_call", "name": "f", "arguments": 3}]})"};
  for (const char* body : bodies) {
    Reply reply;
    EXPECT_NO_THROW(reply = decode("openai-responses", body)) << body;
    EXPECT_EQ(reply.status, ReplyStatus::bad_reply) << body;
    EXPECT_FALSE(reply.detail.empty()) << body;
  }
}

// ---- Anthropic ------------------------------------------------------------------------------

TEST(AnthropicEncode, OutputConfigRequestWithHeaders) {
  auto p = provider("anthropic");
  auto c = first_attempt(*p, OutputMode::response_format);
  c.spec.output = &c.wire;
  const auto request = p->encode(c.spec);
  EXPECT_EQ(request.url, "http://127.0.0.1:9/v1/messages");
  EXPECT_EQ(header(request, "x-api-key"), "sk-test");
  EXPECT_EQ(header(request, "anthropic-version"), "2023-06-01");
  EXPECT_EQ(header(request, "content-type"), "application/json");
  EXPECT_FALSE(header(request, "authorization").has_value());
  const ojson expected = {
      {"model", "m-1"},
      {"max_tokens", 300},
      {"system", "Extract the order."},
      {"messages", {{{"role", "user"}, {"content", "Order ORD-123456 please."}}}},
      {"output_config", {{"format", {{"type", "json_schema"}, {"schema", kSchema}}}}}};
  EXPECT_EQ(body_of(request), expected);
}

TEST(AnthropicEncode, NoKeyHeaderWithoutAKey) {
  auto p = provider("anthropic");
  auto c = first_attempt(*p, OutputMode::response_format, "");
  const auto request = p->encode(c.spec);
  EXPECT_FALSE(header(request, "x-api-key").has_value());
  EXPECT_EQ(header(request, "anthropic-version"), "2023-06-01");
}

TEST(AnthropicEncode, CorrectionEchoesTheContentBlocksThenTheIssues) {
  auto p = provider("anthropic");
  auto c = first_attempt(*p, OutputMode::response_format);
  c.spec.output = &c.wire;
  add_correction(c, *p, R"({"type": "message", "role": "assistant", "stop_reason": "end_turn",
      "content": [{"type": "text", "text": "{\"orderId\": 5}"}]})");
  const auto messages = body_of(p->encode(c.spec))["messages"];
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(json(messages[1]), json::parse(R"({"role": "assistant",
      "content": [{"type": "text", "text": "{\"orderId\": 5}"}]})"));
  EXPECT_EQ(messages[2]["role"], "user");
}

TEST(AnthropicEncode, ForcedToolModeAndItsCorrectionAsAnErrorToolResult) {
  auto p = provider("anthropic");
  auto c = first_attempt(*p, OutputMode::forced_tool);
  c.spec.output = &c.wire;
  add_correction(c, *p, R"({"type": "message", "role": "assistant", "stop_reason": "tool_use",
      "content": [{"type": "tool_use", "id": "toolu_01Ab", "name": "refund",
                   "input": {"orderId": 5}}]})");
  const auto body = body_of(p->encode(c.spec));
  EXPECT_FALSE(body.contains("output_config"));
  EXPECT_EQ(body["tools"][0]["name"], "refund");
  EXPECT_EQ(body["tools"][0]["input_schema"], kSchema);
  EXPECT_EQ(body["tool_choice"], ojson::parse(R"({"type": "tool", "name": "refund"})"));
  const auto& messages = body["messages"];
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[1]["content"][0]["type"], "tool_use");
  EXPECT_EQ(messages[2]["role"], "user");
  const auto& result = messages[2]["content"][0];
  EXPECT_EQ(result["type"], "tool_result");
  EXPECT_EQ(result["tool_use_id"], "toolu_01Ab");
  EXPECT_EQ(result["is_error"], true);
  EXPECT_NE(result["content"].get<std::string>().find("✖ bad"), std::string::npos);
}

TEST(AnthropicEncode, TextAfterToolResultsJoinsTheirUserTurn) {
  auto p = provider("anthropic");
  auto c = first_attempt(*p, OutputMode::response_format);
  Turn assistant{Turn::Role::assistant, "", {{"toolu_1", "lookup", R"({"id":1})"}}, {}, {}};
  Turn results{
      Turn::Role::tool_results, "", {}, {{"toolu_1", "lookup", "{\"ok\":true}", false}}, {}};
  c.spec.turns.push_back(assistant);
  c.spec.turns.push_back(results);
  c.spec.turns.push_back({Turn::Role::user, "Now answer.", {}, {}, {}});
  const auto messages = body_of(p->encode(c.spec))["messages"];
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[1]["content"][0],
            ojson::parse(R"({"type": "tool_use", "id": "toolu_1", "name": "lookup",
                             "input": {"id": 1}})"));
  EXPECT_EQ(messages[2]["content"], ojson::parse(R"([
      {"type": "tool_result", "tool_use_id": "toolu_1", "content": "{\"ok\":true}"},
      {"type": "text", "text": "Now answer."}])"));
}

TEST(AnthropicDecode, TextBlocksAreTheOutputAfterThinking) {
  const auto reply = decode("anthropic", R"({"id": "msg_01Xy", "type": "message",
      "role": "assistant", "content": [{"type": "thinking", "thinking": "hmm", "signature": "s"},
      {"type": "text", "text": "{\"orderId\":\"ORD-1\"}"}], "stop_reason": "end_turn",
      "usage": {"input_tokens": 212, "output_tokens": 31, "cache_creation_input_tokens": 5,
                "cache_read_input_tokens": 3}})");
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"ORD-1"})");
  // The cache reads and writes are counted in the input and kept apart as well.
  EXPECT_EQ(reply.usage, (Usage{.input_tokens = 220,
                                .output_tokens = 31,
                                .total_tokens = 251,
                                .cache_read_input_tokens = 3,
                                .cache_write_input_tokens = 5}));
  EXPECT_EQ(reply.assistant.raw.tree().size(), 2u);
}

TEST(AnthropicDecode, RefusalUsesTheExplanationWhenThereIsNoText) {
  const auto reply = decode("anthropic", R"({"id": "msg_01Rf", "type": "message",
      "role": "assistant", "content": [], "stop_reason": "refusal", "stop_sequence": null,
      "stop_details": {"type": "refusal", "category": "general_harms",
                       "explanation": "Request declined under the usage policy."},
      "usage": {"input_tokens": 40, "output_tokens": 4}})");
  EXPECT_EQ(reply.status, ReplyStatus::refusal);
  EXPECT_EQ(reply.text, "Request declined under the usage policy.");
}

TEST(AnthropicDecode, MaxTokensAndContextWindowAreTruncated) {
  for (const char* stop : {"max_tokens", "model_context_window_exceeded"}) {
    const auto reply = decode("anthropic", std::string(R"({"content": [{"type": "text",
        "text": "{\"vendor\":\"ACME Corp\",\"to"}], "stop_reason": ")") +
                                               stop + "\"}");
    EXPECT_EQ(reply.status, ReplyStatus::truncated) << stop;
    EXPECT_EQ(reply.text, R"({"vendor":"ACME Corp","to)");
  }
}

TEST(AnthropicDecode, ToolUseBlocksAreToolCallsWithSerialisedInput) {
  const auto reply = decode("anthropic", R"({"content": [{"type": "tool_use", "id": "toolu_01Ab",
      "name": "lookup_fx_rate", "input": {"base": "EUR", "quote": "USD"}}],
      "stop_reason": "tool_use"})");
  EXPECT_EQ(reply.status, ReplyStatus::tool_calls);
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].id, "toolu_01Ab");
  EXPECT_EQ(reply.tool_calls[0].arguments_text, R"({"base":"EUR","quote":"USD"})");
}

TEST(AnthropicDecode, ForcedToolInputIsTheOutput) {
  const auto reply = decode("anthropic", R"({"content": [{"type": "tool_use", "id": "t",
      "name": "refund", "input": {"orderId": "x"}}], "stop_reason": "tool_use"})",
                            200, OutputMode::forced_tool);
  EXPECT_EQ(reply.status, ReplyStatus::ok);
  EXPECT_EQ(reply.text, R"({"orderId":"x"})");
}

TEST(AnthropicDecode, NoTextIsEmpty) {
  EXPECT_EQ(decode("anthropic", R"({"content": [], "stop_reason": "end_turn"})").status,
            ReplyStatus::empty);
}

TEST(AnthropicDecode, OverloadedErrorKeepsTypeAndMessage) {
  const auto reply = decode("anthropic", R"({"type": "error", "error": {"type": "overloaded_error",
      "message": "Overloaded"}, "request_id": "req_011AbCdEf"})",
                            529);
  EXPECT_EQ(reply.status, ReplyStatus::http_error);
  EXPECT_EQ(reply.error_code, "overloaded_error");
  EXPECT_EQ(reply.detail, "Overloaded");
}

TEST(AnthropicDecode, MalformedBodiesAreBadRepliesNeverThrows) {
  const char* const bodies[] = {
      "",
      "nope",
      "[]",
      R"({"stop_reason": "end_turn"})",
      R"({"content": "text"})",
      R"({"content": [7]})",
      R"({"content": [{"type": "tool_use", "id": "t", "name": "f"}]})",
      R"({"type": "error", "error": {"type": "api_error", "message": "boom"}})"};
  for (const char* body : bodies) {
    Reply reply;
    EXPECT_NO_THROW(reply = decode("anthropic", body)) << body;
    EXPECT_EQ(reply.status, ReplyStatus::bad_reply) << body;
    EXPECT_FALSE(reply.detail.empty()) << body;
  }
}

// Some gateways and proxies answer 200 with an error envelope. Each codec looks up the member its
// reply must hold and hands what it found to error_in_success (src/providers/wire.hpp): a body
// without that member that is an error envelope is a bad reply keeping the provider's words; a
// body with it is read as a reply, whatever else it holds.
constexpr const char* kEnvelopeCodecs[] = {"openai-chat", "anthropic", "gemini",
                                           "bedrock",     "ollama",    "openai-responses"};

constexpr const char* kErrorEnvelope =
    R"({"error":{"message":"the upstream is overloaded","code":"upstream_busy"}})";

TEST(ErrorInSuccess, AnErrorEnvelopeWithA2xxStatusIsABadReplyKeepingTheProvidersWords) {
  for (const char* codec : kEnvelopeCodecs) {
    const Reply reply = decode(codec, kErrorEnvelope);
    EXPECT_EQ(reply.status, ReplyStatus::bad_reply) << codec;
    EXPECT_EQ(reply.detail,
              "the provider sent an error with a 2xx status: the upstream is overloaded")
        << codec;
    EXPECT_EQ(reply.error_code, "upstream_busy") << codec;
  }
}

TEST(ErrorInSuccess, ABodyWithoutItsMemberThatIsNoErrorEnvelopeIsNotReadAsOne) {
  for (const char* codec : kEnvelopeCodecs) {
    const Reply reply = decode(codec, R"({"id":"x"})");
    EXPECT_EQ(reply.status, ReplyStatus::bad_reply) << codec;
    EXPECT_EQ(reply.detail.find("sent an error"), std::string::npos) << codec << reply.detail;
  }
}

// The member present: an "error" beside it is not the reply's reading (the oracle: the same body
// without the error member decodes alike).
TEST(ErrorInSuccess, ABodyHoldingItsMemberIsReadAsAReplyBesideAnErrorMember) {
  const std::string reply_body =
      R"("choices":[{"index":0,"message":{"role":"assistant","content":"{\"a\":1}"},)"
      R"("finish_reason":"stop"}])";
  const Reply with_error =
      decode("openai-chat", R"({"error":{"message":"ignored"},)" + reply_body + "}");
  const Reply without = decode("openai-chat", "{" + reply_body + "}");
  EXPECT_EQ(with_error.status, without.status);
  EXPECT_EQ(with_error.text, without.text);
  EXPECT_EQ(with_error.detail, without.detail);
}

}  // namespace
}  // namespace accord
