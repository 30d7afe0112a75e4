// azure-openai-responses encodes in one pass of the Responses codec under its own name and
// parameter places: what it refuses names azure-openai-responses, the parameters land where the
// Responses API takes them, and the extra headers go over Azure's own.
#include <gtest/gtest.h>

#include <stdexcept>

#include "accord/providers/provider.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

CallSpec azure_call() {
  CallSpec call{.base_url = "https://example.openai.azure.com", .api_key = "k", .model = "m"};
  call.turns = {Turn{.role = Turn::Role::user, .text = "Extract the invoice."}};
  return call;
}

std::string refusal(const CallSpec& call) {
  try {
    (void)make_provider("azure-openai-responses")->encode(call);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(AzureResponsesEncode, APartItDoesNotTakeIsRefusedUnderItsOwnName) {
  auto call = azure_call();
  call.turns[0].parts = {ContentPart::image("\x89PNG\r\n\x1a\npixels", "image/tiff")};
  const std::string message = refusal(call);
  EXPECT_TRUE(message.starts_with("azure-openai-responses: ")) << message;
}

TEST(AzureResponsesEncode, AParameterItDoesNotTakeIsRefusedUnderItsOwnName) {
  auto call = azure_call();
  call.parameters.service_tier = "flex";  // Azure's deployments set it; openai-responses takes it
  const std::string message = refusal(call);
  EXPECT_NE(message.find("service_tier is not taken by the azure-openai-responses provider"),
            std::string::npos)
      << message;
}

TEST(AzureResponsesEncode, ParametersAndExtraHeadersGoOutInOnePass) {
  auto call = azure_call();
  call.parameters.temperature = 0.3;
  call.parameters.extra_headers = {{"x-ms-client-request-id", "r-1"}};
  const auto request = make_provider("azure-openai-responses")->encode(call);
  const auto body = ojson::parse(request.body);
  EXPECT_EQ(body["temperature"], 0.3);
  EXPECT_TRUE(
      request.url.starts_with("https://example.openai.azure.com/openai/responses?api-version="))
      << request.url;
  const auto has = [&](const std::string& name, const std::string& value) {
    for (const auto& [n, v] : request.headers)
      if (n == name && v == value) return true;
    return false;
  };
  EXPECT_TRUE(has("api-key", "k"));
  EXPECT_TRUE(has("x-ms-client-request-id", "r-1"));
}

}  // namespace
}  // namespace accord
