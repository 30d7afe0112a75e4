// A client with no API key for an endpoint off this machine refuses to send (naming the
// variable it looked in) instead of sending a request with no key; loopback endpoints such as
// accord-mock, and the generic provider's local servers, go without one.
#include <gtest/gtest.h>

#include <stdexcept>

#include "accord/client.hpp"
#include "accord/providers/provider.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "fixtures/scoped_env.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

std::string refusal(const Client& client) {
  try {
    (void)client.extract(refund_request());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ApiKey, EmptyKeyVariableForAHostedEndpointThrowsBeforeSending) {
  for (const auto& provider : provider_names()) {
    const auto profile = make_provider(provider);
    if (!profile->needs_api_key()) continue;
    const std::string variable(profile->api_key_env());
    const ScopedEnv empty(variable, "");
    const Client client({.provider = provider, .base_url = "https://api.example.invalid/v1"});
    const auto message = refusal(client);
    EXPECT_NE(message.find(variable + " is empty or unset"), std::string::npos)
        << provider << ": " << message;
    EXPECT_THROW((void)client.extract_async(refund_request()), std::invalid_argument) << provider;
  }
}

TEST(ApiKey, HostNameThatStartsLikeALoopbackAddressNeedsAKey) {
  const ScopedEnv empty("OPENAI_API_KEY", "");
  const Client client({.provider = "openai-chat", .base_url = "https://127.example.com/v1"});
  EXPECT_NE(refusal(client).find("OPENAI_API_KEY is empty or unset"), std::string::npos);
}

TEST(ApiKey, LoopbackEndpointGoesWithoutAKey) {
  const ScopedEnv empty("OPENAI_API_KEY", "");
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client({.provider = "openai-chat", .base_url = mock.base_url()});
  auto result = client.extract(refund_request());
  EXPECT_TRUE(result.ok()) << result.error().message;
}

TEST(ApiKey, GenericProviderGoesWithoutAKeyAnywhere) {
  const ScopedEnv empty("ACCORD_GENERIC_API_KEY", "");
  // Not a loopback name, though nothing listens there: the request is sent and refused.
  ClientOptions options{.provider = "generic", .base_url = "http://0.0.0.0:9/v1"};
  options.retry.max_retries = 0;
  const Client client(options);
  auto result = client.extract(refund_request());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::transport) << result.error().message;
}

}  // namespace
}  // namespace accord
