// Request parameters over real HTTP: each provider puts each parameter it takes at its own place
// (accord-mock refuses a wrong type, range or place with the 400 the API would give), refuses one
// it does not take before sending, merges the call's parameters over the client's, sends extra
// headers without letting them replace credentials, and merges the extra body last.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;
using testing_support::mock_client_options;

// One parameter set alone, and where and how each provider's request must carry it.
struct Expected {
  std::string pointer;
  json value;
};
using Places = std::map<std::string, Expected>;

RequestParameters only(const std::string& name) {
  RequestParameters p;
  if (name == "temperature") p.temperature = 0.25;
  if (name == "top_p") p.top_p = 0.5;
  if (name == "seed") p.seed = 7;
  if (name == "stop") p.stop = std::vector<std::string>{"END"};
  if (name == "reasoning_effort") p.reasoning_effort = "low";
  if (name == "thinking_budget") p.thinking_budget = 2048;
  if (name == "service_tier") p.service_tier = "auto";
  if (name == "user") p.user = "user-42";
  if (name == "metadata") p.metadata = std::map<std::string, std::string>{{"team", "billing"}};
  if (name == "prompt_cache") p.prompt_cache = true;
  return p;
}

const json kThinking = {{"type", "enabled"}, {"budget_tokens", 2048}};

Places openai_chat_places() {
  return {{"temperature", {"/temperature", 0.25}},
          {"top_p", {"/top_p", 0.5}},
          {"seed", {"/seed", 7}},
          {"stop", {"/stop", {"END"}}},
          {"reasoning_effort", {"/reasoning_effort", "low"}},
          {"service_tier", {"/service_tier", "auto"}},
          {"user", {"/user", "user-42"}},
          {"metadata", {"/metadata", {{"team", "billing"}}}}};
}

Places sampling_places(const std::string& seed) {
  return {{"temperature", {"/temperature", 0.25}},
          {"top_p", {"/top_p", 0.5}},
          {"seed", {seed, 7}},
          {"stop", {"/stop", {"END"}}}};
}

// Written from each API's reference, not from the codecs' tables.
std::map<std::string, Places> expected_places() {
  Places azure = openai_chat_places();
  azure.erase("service_tier");
  const Places responses{{"temperature", {"/temperature", 0.25}},
                         {"top_p", {"/top_p", 0.5}},
                         {"reasoning_effort", {"/reasoning/effort", "low"}},
                         {"service_tier", {"/service_tier", "auto"}},
                         {"user", {"/user", "user-42"}},
                         {"metadata", {"/metadata", {{"team", "billing"}}}}};
  // Azure's deployments set the service tier, on both of its shapes.
  Places azure_responses = responses;
  azure_responses.erase("service_tier");
  return {
      {"openai-chat", openai_chat_places()},
      {"azure-openai", azure},
      {"openai-responses", responses},
      {"azure-openai-responses", azure_responses},
      {"anthropic",
       {{"temperature", {"/temperature", 0.25}},
        {"top_p", {"/top_p", 0.5}},
        {"stop", {"/stop_sequences", {"END"}}},
        {"thinking_budget", {"/thinking", kThinking}},
        {"service_tier", {"/service_tier", "auto"}},
        {"user", {"/metadata/user_id", "user-42"}},
        {"prompt_cache", {"/messages/0/content/0/cache_control", {{"type", "ephemeral"}}}}}},
      {"gemini",
       {{"temperature", {"/generationConfig/temperature", 0.25}},
        {"top_p", {"/generationConfig/topP", 0.5}},
        {"seed", {"/generationConfig/seed", 7}},
        {"stop", {"/generationConfig/stopSequences", {"END"}}},
        {"reasoning_effort", {"/generationConfig/thinkingConfig/thinkingLevel", "low"}},
        {"thinking_budget", {"/generationConfig/thinkingConfig/thinkingBudget", 2048}}}},
      {"bedrock",
       {{"temperature", {"/inferenceConfig/temperature", 0.25}},
        {"top_p", {"/inferenceConfig/topP", 0.5}},
        {"stop", {"/inferenceConfig/stopSequences", {"END"}}},
        {"thinking_budget", {"/additionalModelRequestFields/thinking", kThinking}},
        {"metadata", {"/requestMetadata", {{"team", "billing"}}}},
        {"prompt_cache", {"/messages/0/content/1", {{"cachePoint", {{"type", "default"}}}}}}}},
      {"mistral", sampling_places("/random_seed")},
      {"generic", sampling_places("/seed")},
      {"llama-cpp", sampling_places("/seed")},
      {"vllm", sampling_places("/seed")},
      {"ollama",
       {{"temperature", {"/options/temperature", 0.25}},
        {"top_p", {"/options/top_p", 0.5}},
        {"seed", {"/options/seed", 7}},
        {"stop", {"/options/stop", {"END"}}},
        {"reasoning_effort", {"/think", "low"}}}},
  };
}

ClientOptions options_for(const std::string& provider, const MockProcess& mock) {
  auto options = mock_client_options(provider, mock.base_url());
  options.max_tokens = 4096;  // above a 2048-token thinking budget, as Anthropic requires
  return options;
}

json last_body(const MockProcess& mock) {
  const auto requests = mock.requests();
  return requests.empty() ? json() : requests.back()["body"];
}

class Parameters : public ::testing::TestWithParam<std::string> {};

TEST_P(Parameters, EachParameterTakenReachesItsPlaceAndTheMockAcceptsIt) {
  REQUIRE_MOCK();
  const std::string provider = GetParam();
  const auto places = expected_places().at(provider);
  std::vector<std::string> listed;
  for (const auto& [name, place] : places) listed.push_back(name);
  auto taken = parameters_taken(provider);
  std::sort(taken.begin(), taken.end());
  EXPECT_EQ(taken, listed);

  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client(options_for(provider, mock));
  for (const auto& [name, expected] : places) {
    auto request = refund_request();
    request.parameters = only(name);
    const auto result = client.extract(request);
    ASSERT_TRUE(result.ok()) << name << ": " << result.error().message;
    const auto body = last_body(mock);
    const json::json_pointer at(expected.pointer);
    ASSERT_TRUE(body.contains(at)) << name << " not at " << expected.pointer << ": " << body.dump();
    EXPECT_EQ(body[at], expected.value) << name;
  }
}

TEST_P(Parameters, ParameterNotTakenIsRefusedBeforeAnythingIsSent) {
  REQUIRE_MOCK();
  const std::string provider = GetParam();
  const auto places = expected_places().at(provider);
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client(options_for(provider, mock));
  for (const auto& name : parameter_names()) {
    if (places.contains(name)) continue;
    auto request = refund_request();
    request.parameters = only(name);
    try {
      (void)client.extract(request);
      ADD_FAILURE() << provider << " took " << name;
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(name), std::string::npos) << message;
      EXPECT_NE(message.find(provider), std::string::npos) << message;
    }
  }
  EXPECT_EQ(mock.requests().size(), 0U);
}

INSTANTIATE_TEST_SUITE_P(Providers, Parameters, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName());

TEST(RequestParameters, CallParametersOverrideTheClientsFieldByField) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  auto options = mock_client_options("openai-chat", mock.base_url());
  options.parameters.temperature = 0.1;
  options.parameters.seed = 5;
  const Client client(options);
  auto request = refund_request();
  request.parameters.temperature = 0.75;
  ASSERT_TRUE(client.extract(request).ok());
  const auto body = last_body(mock);
  EXPECT_EQ(body["temperature"], 0.75);
  EXPECT_EQ(body["seed"], 5);
}

TEST(RequestParameters, ExtraBodyMergesLastAsAMergePatch) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  auto options = mock_client_options("openai-chat", mock.base_url());
  options.parameters.user = "user-42";
  options.parameters.extra_body = {{"logprobs", true}, {"max_completion_tokens", 77}};
  const Client client(options);
  auto request = refund_request();
  // The call's patch comes after the client's: a null removes what the client's or the codec put.
  request.parameters.extra_body = {{"user", nullptr}, {"logprobs", nullptr}, {"top_logprobs", 0}};
  ASSERT_TRUE(client.extract(request).ok());
  const auto body = last_body(mock);
  EXPECT_EQ(body["max_completion_tokens"], 77);
  EXPECT_FALSE(body.contains("user"));
  EXPECT_FALSE(body.contains("logprobs"));
  EXPECT_EQ(body["top_logprobs"], 0);
  EXPECT_EQ(body["response_format"]["type"], "json_schema");
}

TEST(RequestParameters, ExtraBodyThatIsNotAnObjectIsRefused) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  auto request = refund_request();
  request.parameters.extra_body = json::array({1});
  const Client client(mock_client_options("anthropic", mock.base_url()));
  EXPECT_THROW((void)client.extract(request), std::invalid_argument);
  EXPECT_EQ(mock.requests().size(), 0U);
}

TEST(RequestParameters, ExtraHeadersReachTheServerAndTheirSecretsStayOutOfTheTrace) {
  REQUIRE_MOCK();
  const std::string secret = "tok-SECRET-9f8e7d";
  // A server that echoes the header's value back in its reply.
  auto echoed = kValidRefund;
  echoed["note"] = "seen " + secret;
  MockProcess mock(scenario({{{"json", echoed}}}));
  auto options = mock_client_options("anthropic", mock.base_url());
  options.parameters.extra_headers = {{"anthropic-beta", "prompt-caching-2024-07-31"},
                                      {"x-trace-token", secret}};
  const Client client(options);
  const auto result = client.extract(refund_request());
  ASSERT_TRUE(result.ok()) << result.error().message;
  const auto headers = mock.requests().back()["headers"];
  EXPECT_EQ(headers["anthropic-beta"], "prompt-caching-2024-07-31");
  EXPECT_TRUE(headers.contains("x-trace-token"));
  EXPECT_EQ(headers["anthropic-version"], "2023-06-01");  // untouched: no extra header named it
  EXPECT_EQ(result.trace().to_json().dump().find(secret), std::string::npos);
  EXPECT_EQ(result.trace().to_text().find(secret), std::string::npos);
}

// Credential-named header values: the client's (which the call overrides) and the call's two.
const std::string kClientToken = "tok-CLIENT-a1b2c3";
const std::string kCallToken = "tok-CALL-d4e5f6";
const std::string kCallOtherToken = "tok-OTHER-0a9b8c";

// The trace, as JSON and as text, of a call whose reply (read whole or streamed) echoes all three
// values: the client sets x-trace-token, the call sets it over the client's and x-other-token.
std::string trace_of_a_header_echo(bool stream) {
  auto echoed = kValidRefund;
  echoed["note"] = kClientToken + " " + kCallToken + " " + kCallOtherToken;
  MockProcess mock(scenario({{{"json", echoed}}}));
  auto options = mock_client_options("anthropic", mock.base_url());
  options.parameters.extra_headers = {{"x-trace-token", kClientToken}};
  options.stream.enabled = stream;
  const Client client(options);
  auto request = refund_request();
  request.parameters.extra_headers = {{"x-trace-token", kCallToken},
                                      {"x-other-token", kCallOtherToken}};
  const auto result = client.extract(request);
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.trace().to_json().dump() + "\n" + result.trace().to_text();
}

TEST(RequestParameters, ACallsOwnCredentialHeaderEchoedInTheReplyStaysOutOfTheTrace) {
  REQUIRE_MOCK();
  EXPECT_EQ(trace_of_a_header_echo(false).find(kCallOtherToken), std::string::npos);
}

TEST(RequestParameters, AClientHeaderTheCallOverridesStaysOutOfTheTraceWhenEchoed) {
  REQUIRE_MOCK();
  EXPECT_EQ(trace_of_a_header_echo(false).find(kClientToken), std::string::npos);
}

TEST(RequestParameters, AStreamedReplyKeepsTheClientsHeaderSecretsOutOfTheTrace) {
  REQUIRE_MOCK();
  EXPECT_EQ(trace_of_a_header_echo(true).find(kClientToken), std::string::npos);
}

TEST(RequestParameters, ExtraHeaderThatWouldReplaceCredentialsIsRefused) {
  REQUIRE_MOCK();
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  for (const auto& [provider, header] :
       std::vector<std::pair<std::string, std::string>>{{"openai-chat", "Authorization"},
                                                        {"anthropic", "X-Api-Key"},
                                                        {"gemini", "x-goog-api-key"},
                                                        {"bedrock", "X-Amz-Date"}}) {
    auto options = mock_client_options(provider, mock.base_url());
    options.parameters.extra_headers = {{header, "Bearer other"}};
    const Client client(options);
    try {
      (void)client.extract(refund_request());
      ADD_FAILURE() << provider << " sent " << header;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(header), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(mock.requests().size(), 0U);
}

TEST(RequestParameters, MergedComposesExtraBodiesClientFirst) {
  RequestParameters client;
  client.extra_body = {{"a", {{"b", 1}, {"c", 2}}}, {"d", 3}};
  client.extra_headers = {{"X-One", "1"}, {"x-two", "2"}};
  RequestParameters call;
  call.extra_body = {{"a", {{"c", nullptr}}}, {"e", 4}};
  call.extra_headers = {{"x-one", "one"}};
  const auto both = merged(client, call);
  EXPECT_EQ(both.extra_body, (json{{"a", {{"b", 1}, {"c", nullptr}}}, {"d", 3}, {"e", 4}}));
  EXPECT_EQ(both.extra_headers, (Headers{{"x-two", "2"}, {"x-one", "one"}}));
}

}  // namespace
}  // namespace accord
