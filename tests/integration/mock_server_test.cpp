// accord-mock over real HTTP: the real binary, started per test by MockProcess, queried by curl.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "fixtures/mock_http.hpp"
#include "fixtures/mock_process.hpp"

namespace {

using nlohmann::json;

constexpr const char* kSentinel = "sk-test-SENTINEL-123";

const json kChatRequest = {{"model", "gpt-4o-2024-08-06"},
                           {"messages", {{{"role", "user"}, {"content", "Extract it."}}}}};
const json kResponsesRequest = {{"model", "gpt-4.1"}, {"input", "Extract it."}};
const json kMessagesRequest = {{"model", "claude-sonnet-4-5"},
                               {"max_tokens", 1024},
                               {"messages", {{{"role", "user"}, {"content", "Extract it."}}}}};

std::string scenario(const json& replies) {
  return json{{"replies", replies}}.dump();
}

mock_http::Result post(const MockProcess& mock, const std::string& path, const json& body,
                       mock_http::Options options = {}) {
  return mock_http::post(mock.base_url() + path, body.dump(), std::move(options));
}

// POSTs and returns the parsed 200 body; a non-200 or unparsable reply fails the test.
json post_ok(const MockProcess& mock, const std::string& path, const json& body) {
  const auto result = post(mock, path, body);
  EXPECT_EQ(result.code, CURLE_OK);
  EXPECT_EQ(result.status, 200) << result.body;
  return json::parse(result.body);
}

json chat(const MockProcess& mock, const json& request = kChatRequest) {
  return post_ok(mock, "/chat/completions", request);
}
json responses(const MockProcess& mock, const json& request = kResponsesRequest) {
  return post_ok(mock, "/responses", request);
}
json messages(const MockProcess& mock, const json& request = kMessagesRequest) {
  return post_ok(mock, "/messages", request);
}

json with(json request, const json& extra) {
  request.update(extra);
  return request;
}

const json kForcedChat = with(
    kChatRequest, {{"tools",
                    {{{"type", "function"},
                      {"function", {{"name", "record"}, {"parameters", {{"type", "object"}}}}}}}},
                   {"tool_choice", {{"type", "function"}, {"function", {{"name", "record"}}}}}});
const json kForcedResponses =
    with(kResponsesRequest, {{"tools",
                              {{{"type", "function"},
                                {"name", "record"},
                                {"strict", true},
                                {"parameters", {{"type", "object"}}}}}},
                             {"tool_choice", {{"type", "function"}, {"name", "record"}}}});
const json kForcedMessages = with(
    kMessagesRequest, {{"tools", {{{"name", "record"}, {"input_schema", {{"type", "object"}}}}}},
                       {"tool_choice", {{"type", "tool"}, {"name", "record"}}}});

const json kValue = {{"vendor", "ACME"}, {"total", 1250}};

// ---------------------------------------------------------------------------------------------
// The process

TEST(MockServerProcess, AnnouncesItsPortAndAnswersHealth) {
  REQUIRE_MOCK();
  MockProcess mock("");
  EXPECT_GT(mock.port(), 0);
  EXPECT_EQ(mock.base_url(), "http://127.0.0.1:" + std::to_string(mock.port()) + "/v1");
  const auto result = mock_http::get(mock.root_url() + "/_accord/health");
  EXPECT_EQ(result.status, 200);
}

TEST(MockServerProcess, ExitsWithZeroOnSigterm) {
  REQUIRE_MOCK();
  MockProcess mock("");
  EXPECT_EQ(mock.stop(), 0);
}

TEST(MockServerProcess, StopsPromptlyWhileAReplyIsStalled) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"stall_after_headers_ms", 600000}}}));
  std::promise<void> headers_seen;
  auto seen = headers_seen.get_future();
  std::thread client([&] {
    mock_http::Options options;
    options.timeout_ms = 60'000;
    options.on_headers = [&] { headers_seen.set_value(); };
    (void)post(mock, "/chat/completions", kChatRequest, options);
  });
  seen.wait();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(mock.stop(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  client.join();
}

// A real API keeps thousands of idle keep-alive connections open; a fixed pool of workers made
// the caller after the 64th wait for some idle connection's 5 s keep-alive timeout, and an
// accept backlog of 5 dropped the connections of a burst.
TEST(MockServerProcess, AnswersWhileHundredsOfIdleConnectionsAreOpen) {
  REQUIRE_MOCK();
  MockProcess mock("");
  std::vector<int> idle;
  for (int i = 0; i < 300; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    // A connect whose SYN the server's accept backlog dropped waits a 1 s retransmission.
    const timeval limit{.tv_sec = 1, .tv_usec = 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(mock.port()));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
    idle.push_back(fd);
  }
  mock_http::Options options;
  options.timeout_ms = 2'000;
  const auto result = mock_http::get(mock.root_url() + "/_accord/health", options);
  for (const int fd : idle) ::close(fd);
  EXPECT_EQ(result.code, CURLE_OK);
  EXPECT_EQ(result.status, 200);
}

TEST(MockServerProcess, RejectsAnInvalidScenarioAtStartup) {
  REQUIRE_MOCK();
  EXPECT_THROW(MockProcess(R"({"replies":[{"jsno":{}}]})"), std::runtime_error);
}

TEST(MockServerProcess, AcceptsAScenarioLargerThanAnArgument) {
  REQUIRE_MOCK();
  const std::string big(200'000, 'x');
  MockProcess mock(scenario({{{"text", big}}}));
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], big);
}

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions

TEST(MockChatCompletions, JsonReplyIsTheSerialisedValueAsContent) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  const auto reply = chat(mock);
  EXPECT_EQ(reply["object"], "chat.completion");
  EXPECT_EQ(reply["id"].get<std::string>().rfind("chatcmpl-", 0), 0u);
  EXPECT_EQ(reply["model"], "gpt-4o-2024-08-06");
  EXPECT_TRUE(reply["created"].is_number_integer());
  const auto& choice = reply["choices"][0];
  EXPECT_EQ(choice["finish_reason"], "stop");
  EXPECT_EQ(choice["message"]["role"], "assistant");
  EXPECT_TRUE(choice["message"]["refusal"].is_null());
  EXPECT_EQ(json::parse(choice["message"]["content"].get<std::string>()), kValue);
}

TEST(MockChatCompletions, UsageHasPlausibleCountsThatAddUp) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  const auto usage = chat(mock)["usage"];
  EXPECT_GT(usage["prompt_tokens"].get<int>(), 0);
  EXPECT_GT(usage["completion_tokens"].get<int>(), 0);
  EXPECT_EQ(usage["total_tokens"].get<int>(),
            usage["prompt_tokens"].get<int>() + usage["completion_tokens"].get<int>());
}

TEST(MockChatCompletions, UsageOverrideReplacesCountsAndTotalFollows) {
  REQUIRE_MOCK();
  MockProcess mock(scenario(
      {{{"json", kValue}, {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 7}}}}}));
  const auto usage = chat(mock)["usage"];
  EXPECT_EQ(usage["prompt_tokens"], 100);
  EXPECT_EQ(usage["completion_tokens"], 7);
  EXPECT_EQ(usage["total_tokens"], 107);
}

TEST(MockChatCompletions, ForcedToolAnswersWithThatToolsCall) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  const auto message = chat(mock, kForcedChat)["choices"][0]["message"];
  EXPECT_TRUE(message["content"].is_null());
  ASSERT_EQ(message["tool_calls"].size(), 1u);
  const auto& call = message["tool_calls"][0];
  EXPECT_EQ(call["type"], "function");
  EXPECT_EQ(call["function"]["name"], "record");
  EXPECT_EQ(json::parse(call["function"]["arguments"].get<std::string>()), kValue);
}

TEST(MockChatCompletions, TextReplyIsSentVerbatim) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"text", "{\"vendor\": \"ACME\","}}}));
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "{\"vendor\": \"ACME\",");
}

TEST(MockChatCompletions, RefusalFillsRefusalAndNullsContent) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"refusal", "I can't help with that."}}}));
  const auto choice = chat(mock)["choices"][0];
  EXPECT_TRUE(choice["message"]["content"].is_null());
  EXPECT_EQ(choice["message"]["refusal"], "I can't help with that.");
  EXPECT_EQ(choice["finish_reason"], "stop");
}

TEST(MockChatCompletions, TruncatedReplyEndsWithLength) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"truncated", "{\"vendor\":\"AC"}}}));
  const auto choice = chat(mock)["choices"][0];
  EXPECT_EQ(choice["finish_reason"], "length");
  EXPECT_EQ(choice["message"]["content"], "{\"vendor\":\"AC");
}

TEST(MockChatCompletions, ContentFilterEndsWithContentFilter) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"content_filter", true}}}));
  const auto choice = chat(mock)["choices"][0];
  EXPECT_EQ(choice["finish_reason"], "content_filter");
  EXPECT_TRUE(choice["message"]["content"].is_null());
}

TEST(MockChatCompletions, EmptyReplyHasNoChoices) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"empty", true}}}));
  const auto reply = chat(mock);
  ASSERT_TRUE(reply["choices"].is_array());
  EXPECT_TRUE(reply["choices"].empty());
}

TEST(MockChatCompletions, ToolCallsCarryStringArgumentsVerbatim) {
  REQUIRE_MOCK();
  MockProcess mock(
      scenario({{{"tool_calls",
                  {{{"name", "lookup"}, {"arguments", "{\"base\":"}, {"id", "call_fixed"}},
                   {{"name", "convert"}, {"arguments", {{"amount", 3}}}}}}}}));
  const auto choice = chat(mock)["choices"][0];
  EXPECT_EQ(choice["finish_reason"], "tool_calls");
  const auto& calls = choice["message"]["tool_calls"];
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0]["id"], "call_fixed");
  EXPECT_EQ(calls[0]["function"]["arguments"], "{\"base\":");
  EXPECT_EQ(calls[1]["function"]["name"], "convert");
  EXPECT_EQ(json::parse(calls[1]["function"]["arguments"].get<std::string>()),
            json({{"amount", 3}}));
  EXPECT_NE(calls[1]["id"], calls[0]["id"]);
}

TEST(MockChatCompletions, ErrorStatusUsesOpenAiEnvelopeAndScriptedHeaders) {
  REQUIRE_MOCK();
  MockProcess mock(scenario(
      {{{"status", 429}, {"headers", {{"retry-after", "2"}, {"retry-after-ms", "1500"}}}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  EXPECT_EQ(result.status, 429);
  EXPECT_EQ(result.header("retry-after"), "2");
  EXPECT_EQ(result.header("retry-after-ms"), "1500");
  const auto body = json::parse(result.body);
  EXPECT_EQ(body["error"]["code"], "rate_limit_exceeded");
  EXPECT_TRUE(body["error"]["message"].is_string());
  EXPECT_TRUE(body["error"].contains("param"));
}

TEST(MockChatCompletions, ErrorFieldsOverrideTheDefaultEnvelope) {
  REQUIRE_MOCK();
  MockProcess mock(
      scenario({{{"status", 429},
                 {"error", {{"type", "insufficient_quota"}, {"code", "insufficient_quota"}}}}}));
  const auto body = json::parse(post(mock, "/chat/completions", kChatRequest).body);
  EXPECT_EQ(body["error"]["type"], "insufficient_quota");
  EXPECT_EQ(body["error"]["code"], "insufficient_quota");
}

TEST(MockChatCompletions, ScriptedBodyIsSentAsGiven) {
  REQUIRE_MOCK();
  MockProcess mock(scenario(
      {{{"status", 502}, {"body", "<html>bad gateway</html>"}, {"content_type", "text/html"}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  EXPECT_EQ(result.status, 502);
  EXPECT_EQ(result.body, "<html>bad gateway</html>");
  EXPECT_EQ(result.header("content-type"), "text/html");
}

TEST(MockChatCompletions, BodyWithoutStatusIsAWronglyShaped200) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"body", {{"unexpected", true}}}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(json::parse(result.body), json({{"unexpected", true}}));
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses

std::string output_text(const json& response) {
  std::string text;
  for (const auto& item : response["output"])
    if (item["type"] == "message")
      for (const auto& part : item["content"])
        if (part["type"] == "output_text") text += part["text"].get<std::string>();
  return text;
}

TEST(MockResponses, JsonReplyIsAnOutputTextPart) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  const auto reply = responses(mock);
  EXPECT_EQ(reply["object"], "response");
  EXPECT_EQ(reply["id"].get<std::string>().rfind("resp_", 0), 0u);
  EXPECT_EQ(reply["model"], "gpt-4.1");
  EXPECT_EQ(reply["status"], "completed");
  EXPECT_TRUE(reply["incomplete_details"].is_null());
  EXPECT_EQ(json::parse(output_text(reply)), kValue);
  EXPECT_EQ(reply["usage"]["total_tokens"].get<int>(),
            reply["usage"]["input_tokens"].get<int>() + reply["usage"]["output_tokens"].get<int>());
}

TEST(MockResponses, ForcedToolAnswersWithAFunctionCallItem) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  const auto output = responses(mock, kForcedResponses)["output"];
  ASSERT_EQ(output.size(), 1u);
  EXPECT_EQ(output[0]["type"], "function_call");
  EXPECT_EQ(output[0]["name"], "record");
  EXPECT_TRUE(output[0]["call_id"].is_string());
  EXPECT_EQ(json::parse(output[0]["arguments"].get<std::string>()), kValue);
}

TEST(MockResponses, RefusalIsARefusalPart) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"refusal", "No."}}}));
  const auto reply = responses(mock);
  EXPECT_EQ(reply["status"], "completed");
  const auto& part = reply["output"][0]["content"][0];
  EXPECT_EQ(part["type"], "refusal");
  EXPECT_EQ(part["refusal"], "No.");
}

TEST(MockResponses, TruncatedReplyIsIncompleteForMaxOutputTokens) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"truncated", "{\"ven"}}}));
  const auto reply = responses(mock);
  EXPECT_EQ(reply["status"], "incomplete");
  EXPECT_EQ(reply["incomplete_details"]["reason"], "max_output_tokens");
  EXPECT_EQ(output_text(reply), "{\"ven");
}

TEST(MockResponses, ContentFilterIsIncompleteForContentFilter) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"content_filter", true}}}));
  const auto reply = responses(mock);
  EXPECT_EQ(reply["status"], "incomplete");
  EXPECT_EQ(reply["incomplete_details"]["reason"], "content_filter");
}

TEST(MockResponses, EmptyReplyHasNoOutputItems) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"empty", true}}}));
  const auto reply = responses(mock);
  EXPECT_EQ(reply["status"], "completed");
  EXPECT_TRUE(reply["output"].empty());
}

TEST(MockResponses, ToolCallsBecomeFunctionCallItems) {
  REQUIRE_MOCK();
  MockProcess mock(scenario(
      {{{"tool_calls", {{{"name", "lookup"}, {"arguments", "not json"}, {"id", "call_7"}}}}}}));
  const auto item = responses(mock)["output"][0];
  EXPECT_EQ(item["type"], "function_call");
  EXPECT_EQ(item["call_id"], "call_7");
  EXPECT_EQ(item["arguments"], "not json");
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages

TEST(MockMessages, JsonReplyIsATextBlock) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  const auto reply = messages(mock);
  EXPECT_EQ(reply["type"], "message");
  EXPECT_EQ(reply["role"], "assistant");
  EXPECT_EQ(reply["id"].get<std::string>().rfind("msg_", 0), 0u);
  EXPECT_EQ(reply["model"], "claude-sonnet-4-5");
  EXPECT_EQ(reply["stop_reason"], "end_turn");
  EXPECT_TRUE(reply["stop_sequence"].is_null());
  ASSERT_EQ(reply["content"].size(), 1u);
  EXPECT_EQ(reply["content"][0]["type"], "text");
  EXPECT_EQ(json::parse(reply["content"][0]["text"].get<std::string>()), kValue);
  EXPECT_GT(reply["usage"]["input_tokens"].get<int>(), 0);
  EXPECT_GT(reply["usage"]["output_tokens"].get<int>(), 0);
}

TEST(MockMessages, ForcedToolAnswersWithToolUseInputObject) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  const auto reply = messages(mock, kForcedMessages);
  EXPECT_EQ(reply["stop_reason"], "tool_use");
  const auto& block = reply["content"][0];
  EXPECT_EQ(block["type"], "tool_use");
  EXPECT_EQ(block["name"], "record");
  EXPECT_EQ(block["id"].get<std::string>().rfind("toolu_", 0), 0u);
  EXPECT_EQ(block["input"], kValue);
}

TEST(MockMessages, RefusalStopsWithRefusalAndDetails) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"refusal", "Declined."}}}));
  const auto reply = messages(mock);
  EXPECT_EQ(reply["stop_reason"], "refusal");
  EXPECT_TRUE(reply["content"].empty());
  EXPECT_EQ(reply["stop_details"]["type"], "refusal");
  EXPECT_EQ(reply["stop_details"]["explanation"], "Declined.");
}

TEST(MockMessages, TruncatedReplyStopsWithMaxTokens) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"truncated", "{\"to"}}}));
  const auto reply = messages(mock);
  EXPECT_EQ(reply["stop_reason"], "max_tokens");
  EXPECT_EQ(reply["content"][0]["text"], "{\"to");
}

TEST(MockMessages, ContentFilterIsARefusal) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"content_filter", true}}}));
  EXPECT_EQ(messages(mock)["stop_reason"], "refusal");
}

TEST(MockMessages, EmptyReplyHasAnEmptyContentList) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"empty", true}}}));
  const auto reply = messages(mock);
  EXPECT_EQ(reply["stop_reason"], "end_turn");
  EXPECT_TRUE(reply["content"].empty());
}

TEST(MockMessages, ToolCallStringArgumentsBecomeObjectWhenTheyParseElseAString) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"tool_calls",
                               {{{"name", "a"}, {"arguments", "{\"x\":1}"}},
                                {{"name", "b"}, {"arguments", "{broken"}}}}}}));
  const auto content = messages(mock)["content"];
  ASSERT_EQ(content.size(), 2u);
  EXPECT_EQ(content[0]["input"], json({{"x", 1}}));
  EXPECT_EQ(content[1]["input"], "{broken");
}

TEST(MockMessages, ErrorStatusUsesAnthropicEnvelope) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"status", 529}}}));
  const auto result = post(mock, "/messages", kMessagesRequest);
  EXPECT_EQ(result.status, 529);
  const auto body = json::parse(result.body);
  EXPECT_EQ(body["type"], "error");
  EXPECT_EQ(body["error"]["type"], "overloaded_error");
  EXPECT_TRUE(body["request_id"].is_string());
  EXPECT_EQ(result.header("request-id"), body["request_id"]);
}

// ---------------------------------------------------------------------------------------------
// Routing and the queue

TEST(MockRouting, UnknownPathIsA404InOpenAiEnvelope) {
  REQUIRE_MOCK();
  MockProcess mock("");
  const auto result = post(mock, "/embeddings", json::object());
  EXPECT_EQ(result.status, 404);
  const auto body = json::parse(result.body);
  EXPECT_EQ(body["error"]["type"], "invalid_request_error");
  EXPECT_TRUE(body["error"]["code"].is_null());
  EXPECT_NE(body["error"]["message"].get<std::string>().find("/v1/embeddings"), std::string::npos);
}

TEST(MockRouting, NonJsonRequestIsA400AndKeepsTheScriptedReply) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"text", "first"}}, {{"text", "second"}}}));
  const auto bad = mock_http::post(mock.base_url() + "/chat/completions", "{not json");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "first");
}

TEST(MockQueue, RepliesAreConsumedInOrderAndTheLastRepeats) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"text", "one"}}, {{"text", "two"}}}));
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "one");
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "two");
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "two");
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "two");
}

TEST(MockQueue, OneQueueServesAllEndpoints) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"text", "one"}}, {{"text", "two"}}, {{"text", "three"}}}));
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "one");
  EXPECT_EQ(output_text(responses(mock)), "two");
  EXPECT_EQ(messages(mock)["content"][0]["text"], "three");
}

TEST(MockQueue, PostingAScenarioReplacesItAndRestartsTheQueue) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"text", "old"}}}));
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "old");
  const auto set = mock_http::post(mock.root_url() + "/_accord/scenario",
                                   scenario({{{"text", "new1"}}, {{"text", "new2"}}}));
  EXPECT_EQ(set.status, 200);
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "new1");
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "new2");
}

TEST(MockQueue, PostingAnInvalidScenarioIsA400NamingTheProblem) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"text", "kept"}}}));
  const auto set = mock_http::post(mock.root_url() + "/_accord/scenario",
                                   R"({"replies":[{"text":"a","json":1}]})");
  EXPECT_EQ(set.status, 400);
  EXPECT_NE(set.body.find("replies[0]"), std::string::npos);
  EXPECT_EQ(chat(mock)["choices"][0]["message"]["content"], "kept");
}

TEST(MockQueue, ConcurrentRequestsEachTakeTheirOwnReply) {
  REQUIRE_MOCK();
  constexpr int kClients = 8;
  json replies = json::array();
  for (int i = 0; i < kClients; ++i) replies.push_back({{"text", "r" + std::to_string(i)}});
  MockProcess mock(scenario(replies));
  std::vector<std::string> contents(kClients);
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back([&, i] {
      const auto result = post(mock, "/chat/completions", kChatRequest);
      if (result.status == 200)
        contents[i] = json::parse(result.body)["choices"][0]["message"]["content"];
    });
  }
  for (auto& c : clients) c.join();
  std::sort(contents.begin(), contents.end());
  for (int i = 0; i < kClients; ++i) EXPECT_EQ(contents[i], "r" + std::to_string(i));
  EXPECT_EQ(mock.requests().size(), static_cast<std::size_t>(kClients));
}

// ---------------------------------------------------------------------------------------------
// The request log

mock_http::Options with_credentials() {
  mock_http::Options options;
  options.headers = {"Content-Type: application/json",
                     std::string("Authorization: Bearer ") + kSentinel,
                     std::string("x-api-key: ") + kSentinel,
                     std::string("api-key: ") + kSentinel,
                     std::string("x-goog-api-key: ") + kSentinel,
                     std::string("X-Custom-Token: ") + kSentinel,
                     std::string("X-Innocent: ") + kSentinel,
                     "anthropic-version: 2023-06-01"};
  return options;
}

TEST(MockLog, WritesOneJsonLinePerRequestWithParsedBody) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  (void)chat(mock);
  (void)messages(mock);
  const auto entries = mock.requests();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["method"], "POST");
  EXPECT_EQ(entries[0]["path"], "/v1/chat/completions");
  EXPECT_EQ(entries[0]["body"], kChatRequest);
  EXPECT_EQ(entries[0]["headers"]["content-type"], "application/json");
  EXPECT_EQ(entries[1]["path"], "/v1/messages");
}

TEST(MockLog, NonJsonBodyIsLoggedAsAString) {
  REQUIRE_MOCK();
  MockProcess mock("");
  (void)mock_http::post(mock.base_url() + "/chat/completions", "{not json");
  EXPECT_EQ(mock.requests()[0]["body"], "{not json");
}

TEST(MockLog, CredentialHeadersAreRedactedInTheLogFile) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  (void)post(mock, "/chat/completions", kChatRequest, with_credentials());
  (void)post(mock, "/messages", kMessagesRequest, with_credentials());
  const auto text = mock.log_text();
  EXPECT_EQ(text.find(kSentinel), std::string::npos) << text;
  EXPECT_EQ(text.find("SENTINEL"), std::string::npos);
  const auto headers = mock.requests()[0]["headers"];
  EXPECT_EQ(headers["authorization"], "[redacted]");
  EXPECT_EQ(headers["x-api-key"], "[redacted]");
  EXPECT_EQ(headers["api-key"], "[redacted]");
  EXPECT_EQ(headers["x-custom-token"], "[redacted]");
  EXPECT_EQ(headers["anthropic-version"], "2023-06-01");
}

TEST(MockLog, CredentialHeadersAreRedactedInTheAdminRequestList) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}}}));
  (void)post(mock, "/responses", kResponsesRequest, with_credentials());
  const auto result = mock_http::get(mock.root_url() + "/_accord/requests");
  ASSERT_EQ(result.status, 200);
  EXPECT_EQ(result.body.find("SENTINEL"), std::string::npos) << result.body;
  const auto entries = json::parse(result.body);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0]["path"], "/v1/responses");
  EXPECT_EQ(entries[0]["headers"]["authorization"], "[redacted]");
}

TEST(MockLog, RequestListKeepsTheNewestAndCountsEveryRequest) {
  REQUIRE_MOCK();
  MockProcess mock("", "", {"--keep-requests", "2"});
  for (int i = 0; i < 5; ++i) {
    (void)mock_http::post(mock.base_url() + "/chat/completions?n=" + std::to_string(i),
                          kChatRequest.dump());
  }
  const auto result = mock_http::get(mock.root_url() + "/_accord/requests");
  ASSERT_EQ(result.status, 200);
  EXPECT_EQ(result.header("accord-requests-received"), "5");
  const auto entries = json::parse(result.body);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["query"]["n"], "3");
  EXPECT_EQ(entries[1]["query"]["n"], "4");
  EXPECT_EQ(mock.requests().size(), 5u) << "the --log file keeps every request";
}

TEST(MockLog, CredentialQueryParametersAreRedacted) {
  REQUIRE_MOCK();
  MockProcess mock("");
  (void)mock_http::post(mock.base_url() + "/chat/completions?key=" + kSentinel + "&alt=json",
                        kChatRequest.dump());
  const auto entry = mock.requests()[0];
  EXPECT_EQ(mock.log_text().find("SENTINEL"), std::string::npos);
  EXPECT_EQ(entry["query"]["key"], "[redacted]");
  EXPECT_EQ(entry["query"]["alt"], "json");
}

TEST(MockLog, AdminRequestsAreNotLogged) {
  REQUIRE_MOCK();
  MockProcess mock("");
  (void)mock_http::get(mock.root_url() + "/_accord/health");
  (void)mock_http::get(mock.root_url() + "/_accord/requests");
  EXPECT_TRUE(mock.requests().empty());
}

// ---------------------------------------------------------------------------------------------
// Faults, on the wire

TEST(MockFaults, DropClosesTheConnectionWithoutAnyResponse) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"drop", true}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  EXPECT_EQ(result.code, CURLE_GOT_NOTHING) << curl_easy_strerror(result.code);
  EXPECT_EQ(result.status, 0);
  EXPECT_TRUE(result.body.empty());
  EXPECT_EQ(mock.requests().size(), 1u);  // the request was received and logged first
}

TEST(MockFaults, DropThenSuccessServesTheNextReply) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"drop", true}}, {{"json", kValue}}}));
  EXPECT_EQ(post(mock, "/messages", kMessagesRequest).code, CURLE_GOT_NOTHING);
  EXPECT_EQ(messages(mock)["stop_reason"], "end_turn");
}

TEST(MockFaults, PartialBodySendsHeadersAndHalfTheBodyThenCloses) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"partial_body", true}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  EXPECT_EQ(result.code, CURLE_PARTIAL_FILE) << curl_easy_strerror(result.code);
  EXPECT_EQ(result.status, 200);
  ASSERT_GT(result.content_length, 0);
  EXPECT_GT(result.body.size(), 0u);
  EXPECT_LT(static_cast<double>(result.body.size()), result.content_length);
  EXPECT_FALSE(json::accept(result.body));
}

TEST(MockFaults, StallAfterHeadersDeliversHeadersThenNothing) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"stall_after_headers_ms", 600000}}}));
  mock_http::Options options;
  options.timeout_ms = 300;
  const auto result = post(mock, "/responses", kResponsesRequest, options);
  EXPECT_EQ(result.code, CURLE_OPERATION_TIMEDOUT) << curl_easy_strerror(result.code);
  EXPECT_TRUE(result.got_headers);
  EXPECT_EQ(result.status, 200);
  EXPECT_TRUE(result.body.empty());
}

TEST(MockFaults, StallEndsWithTheFullBody) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"stall_after_headers_ms", 50}}}));
  const auto reply = messages(mock);
  EXPECT_EQ(json::parse(reply["content"][0]["text"].get<std::string>()), kValue);
}

TEST(MockFaults, DelayHoldsBackEvenTheHeaders) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"delay_ms", 600000}}}));
  mock_http::Options options;
  options.timeout_ms = 300;
  const auto result = post(mock, "/chat/completions", kChatRequest, options);
  EXPECT_EQ(result.code, CURLE_OPERATION_TIMEDOUT);
  EXPECT_FALSE(result.got_headers);
  EXPECT_EQ(result.status, 0);
}

TEST(MockFaults, DelayedReplyArrivesAfterTheDelay) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"delay_ms", 200}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  EXPECT_EQ(result.status, 200);
  EXPECT_GE(result.elapsed, std::chrono::milliseconds(200));
}

TEST(MockFaults, PadBytesMakesAValid20MiBBody) {
  REQUIRE_MOCK();
  constexpr std::size_t kSize = 20u * 1024u * 1024u;
  MockProcess mock(scenario({{{"json", kValue}, {"pad_bytes", kSize}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  ASSERT_EQ(result.code, CURLE_OK);
  EXPECT_EQ(result.body.size(), kSize);
  const auto reply = json::parse(result.body);
  EXPECT_EQ(json::parse(reply["choices"][0]["message"]["content"].get<std::string>()), kValue);
}

TEST(MockFaults, PadBytesAlsoGrowsErrorBodies) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"status", 500}, {"pad_bytes", 4096}}}));
  const auto result = post(mock, "/messages", kMessagesRequest);
  EXPECT_EQ(result.status, 500);
  EXPECT_EQ(result.body.size(), 4096u);
  EXPECT_EQ(json::parse(result.body)["error"]["type"], "api_error");
}

// Counts nesting without building the document: the point of the fault is that it is too deep.
std::size_t nesting_of(const std::string& text) {
  std::size_t depth = 0, deepest = 0;
  for (const char c : text) {
    if (c == '{' || c == '[') deepest = std::max(deepest, ++depth);
    if (c == '}' || c == ']') --depth;
  }
  return deepest;
}

TEST(MockFaults, NestDepthMakesTheContentThatDeep) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"nest_depth", 100000}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  ASSERT_EQ(result.status, 200);
  const auto reply = json::parse(result.body);  // the envelope itself stays shallow
  const auto content = reply["choices"][0]["message"]["content"].get<std::string>();
  EXPECT_EQ(nesting_of(content), 100000u);
  EXPECT_EQ(content.rfind("{\"n\":{\"n\":", 0), 0u);
}

TEST(MockFaults, NestDepthOnAForcedAnthropicToolNestsTheInputItself) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"nest_depth", 100000}}}));
  const auto result = post(mock, "/messages", kForcedMessages);
  ASSERT_EQ(result.status, 200);
  EXPECT_GE(nesting_of(result.body), 100000u);
  EXPECT_NE(result.body.find("\"input\":{\"n\":{\"n\":"), std::string::npos);
}

TEST(MockFaults, InvalidUtf8PutsRawInvalidBytesInTheContent) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"invalid_utf8", true}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  ASSERT_EQ(result.status, 200);
  EXPECT_NE(result.body.find("\xFF\xFE\xC3"), std::string::npos);
  EXPECT_FALSE(json::accept(result.body));  // nlohmann rejects invalid UTF-8
}

TEST(MockFaults, InvalidUtf8ReachesAnthropicToolInputToo) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValue}, {"invalid_utf8", true}}}));
  const auto result = post(mock, "/messages", kForcedMessages);
  ASSERT_EQ(result.status, 200);
  EXPECT_NE(result.body.find("\"input\":{\"\xFF\xFE\xC3"), std::string::npos);
}

TEST(MockFaults, ScriptedHeadersAccompanyASuccess) {
  REQUIRE_MOCK();
  MockProcess mock(
      scenario({{{"json", kValue}, {"headers", {{"x-ratelimit-remaining-tokens", "0"}}}}}));
  const auto result = post(mock, "/chat/completions", kChatRequest);
  EXPECT_EQ(result.header("x-ratelimit-remaining-tokens"), "0");
  EXPECT_FALSE(result.header("x-request-id").empty());
}

// ---------------------------------------------------------------------------------------------
// Batches (the client side runs both protocols end to end in batch_test.cpp)

// An OpenAI file upload of `jsonl` with purpose "batch"; returns the file id.
std::string upload_batch_file(const MockProcess& mock, const std::string& jsonl) {
  const std::string boundary = "test-boundary-1";
  const std::string body = "--" + boundary +
                           "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n"
                           "--" +
                           boundary +
                           "\r\nContent-Disposition: form-data; name=\"file\"; "
                           "filename=\"in.jsonl\"\r\n\r\n" +
                           jsonl + "\r\n--" + boundary + "--\r\n";
  mock_http::Options options;
  options.headers = {"Content-Type: multipart/form-data; boundary=" + boundary};
  const auto result = mock_http::post(mock.base_url() + "/files", body, options);
  EXPECT_EQ(result.status, 200) << result.body;
  return json::parse(result.body).value("id", "");
}

TEST(MockBatches, OpenAiInputLineWithoutACustomIdFailsTheBatchUnrun) {
  REQUIRE_MOCK();
  MockProcess mock(R"({"replies":[{"json":{"a":1}}]})");
  const auto file = upload_batch_file(
      mock,
      json{{"method", "POST"}, {"url", "/v1/chat/completions"}, {"body", kChatRequest}}.dump());
  const auto created = post_ok(mock, "/batches",
                               {{"input_file_id", file},
                                {"endpoint", "/v1/chat/completions"},
                                {"completion_window", "24h"}});
  const auto batch =
      mock_http::get(mock.base_url() + "/batches/" + created["id"].get<std::string>());
  const auto state = json::parse(batch.body);
  EXPECT_EQ(state["status"], "failed");
  EXPECT_EQ(state["errors"]["data"][0]["line"], 1);
  EXPECT_TRUE(state["output_file_id"].is_null());
}

TEST(MockBatches, AnthropicCustomIdOutsideItsPatternIsRejected) {
  REQUIRE_MOCK();
  MockProcess mock("");
  const json request = {{"requests", {{{"custom_id", "has space"}, {"params", kMessagesRequest}}}}};
  const auto result = mock_http::post(mock.base_url() + "/messages/batches", request.dump());
  EXPECT_EQ(result.status, 400);
  EXPECT_NE(result.body.find("custom_id"), std::string::npos) << result.body;
}

TEST(MockBatches, AnthropicResultsWaitForTheBatchToEnd) {
  REQUIRE_MOCK();
  MockProcess mock(R"({"replies":[{"json":{"a":1}}],"batch_polls":2})");
  const json request = {{"requests", {{{"custom_id", "one"}, {"params", kMessagesRequest}}}}};
  const auto created = post_ok(mock, "/messages/batches", request);
  const std::string url = mock.base_url() + "/messages/batches/" + created["id"].get<std::string>();
  EXPECT_EQ(mock_http::get(url + "/results").status, 404);
  EXPECT_EQ(json::parse(mock_http::get(url).body)["processing_status"], "in_progress");
  const auto ended = json::parse(mock_http::get(url).body);
  ASSERT_EQ(ended["processing_status"], "ended");
  EXPECT_EQ(ended["results_url"], url + "/results");
  const auto line = json::parse(mock_http::get(url + "/results").body);
  EXPECT_EQ(line["custom_id"], "one");
  EXPECT_EQ(line["result"]["type"], "succeeded");
}

}  // namespace
