// CallSpec::tool_required on the wire: every provider that has a way to make the model call one
// of the tools is sent it (Gemini's functionCallingConfig mode ANY among them), and Ollama, which
// has none, is sent no choice; checked in the requests accord-mock received.
#include <gtest/gtest.h>

#include <map>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"

namespace accord {
namespace {

struct RequiredChoice {
  std::string pointer;   // where the provider takes its tool choice
  nlohmann::json value;  // what "call one of the tools" is there; null: no choice is sent
};

// Each provider's way (docs/providers.md).
const std::map<std::string, RequiredChoice>& required_choices() {
  static const std::map<std::string, RequiredChoice> choices = {
      {"openai-chat", {"/tool_choice", "required"}},
      {"openai-responses", {"/tool_choice", "required"}},
      {"azure-openai", {"/tool_choice", "required"}},
      {"azure-openai-responses", {"/tool_choice", "required"}},
      {"mistral", {"/tool_choice", "required"}},
      {"generic", {"/tool_choice", "required"}},
      {"llama-cpp", {"/tool_choice", "required"}},
      {"vllm", {"/tool_choice", "required"}},
      {"anthropic", {"/tool_choice", {{"type", "any"}}}},
      {"bedrock", {"/toolConfig/toolChoice", {{"any", nlohmann::json::object()}}}},
      {"gemini", {"/toolConfig/functionCallingConfig", {{"mode", "ANY"}}}},
      {"ollama", {"/tool_choice", nullptr}},
  };
  return choices;
}

class ToolRequiredOnTheWire : public ::testing::TestWithParam<std::string> {};

TEST_P(ToolRequiredOnTheWire, ARequiredToolIsAskedForInTheProvidersOwnWay) {
  REQUIRE_MOCK();
  const auto expected = required_choices().find(GetParam());
  ASSERT_NE(expected, required_choices().end()) << GetParam() << " has no row here";
  MockProcess mock(R"({"replies":[{"text":"no call"}]})");
  const Client client(testing_support::mock_client_options(GetParam(), mock.base_url()));
  CallSpec call;
  call.turns.push_back(Turn{.role = Turn::Role::user, .text = "What is the rate?"});
  call.tools.push_back({"lookup_rate", "The exchange rate.",
                        WireSchema{.schema = {{"type", "object"},
                                              {"properties", {{"currency", {{"type", "string"}}}}},
                                              {"required", {"currency"}},
                                              {"additionalProperties", false}}}});
  call.tool_required = true;
  (void)client.exchange(call);
  const auto requests = mock.requests();
  ASSERT_EQ(requests.size(), 1U);
  const nlohmann::json& body = requests[0]["body"];
  const nlohmann::json::json_pointer where(expected->second.pointer);
  if (expected->second.value.is_null()) {
    EXPECT_FALSE(body.contains(where)) << body.dump();
    EXPECT_EQ(body.dump().find("toolChoice"), std::string::npos);
  } else {
    ASSERT_TRUE(body.contains(where)) << body.dump();
    EXPECT_EQ(body.at(where), expected->second.value);
  }
}

INSTANTIATE_TEST_SUITE_P(Providers, ToolRequiredOnTheWire, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

}  // namespace
}  // namespace accord
