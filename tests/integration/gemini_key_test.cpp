// The gemini provider reads its key as the official SDKs do: GEMINI_API_KEY, else GOOGLE_API_KEY;
// with neither, a hosted endpoint is refused naming both.

#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "fixtures/scoped_env.hpp"

namespace accord {
namespace {

constexpr const char* kHostedGemini = "https://generativelanguage.example.invalid";

TEST(GeminiKey, GoogleApiKeyIsReadWhenGeminiApiKeyIsUnset) {
  const ScopedEnv gemini("GEMINI_API_KEY", "");
  const ScopedEnv google("GOOGLE_API_KEY", "gk-test-key");
  const Client client({.provider = "gemini", .base_url = kHostedGemini});
  EXPECT_EQ(client.unusable_reason(), std::nullopt);
}

TEST(GeminiKey, NeitherVariableSetNamesBoth) {
  const ScopedEnv gemini("GEMINI_API_KEY", "");
  const ScopedEnv google("GOOGLE_API_KEY", "");
  const Client client({.provider = "gemini", .base_url = kHostedGemini});
  const auto reason = client.unusable_reason();
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("GEMINI_API_KEY is empty or unset (as is GOOGLE_API_KEY)"),
            std::string::npos)
      << *reason;
}

}  // namespace
}  // namespace accord
