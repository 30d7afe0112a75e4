// The registry: every provider is one line there, and what the rest of accord asks of a provider
// by name (its profile, its stream, its batch API) comes from that line.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "accord/batch.hpp"
#include "accord/providers/provider.hpp"
#include "providers/batch_protocol.hpp"
#include "providers/stream_assembly.hpp"

namespace accord {
namespace {

TEST(ProviderRegistry, EveryListedProviderAnswersToItsName) {
  const auto names = provider_names();
  ASSERT_FALSE(names.empty());
  for (const auto& name : names) {
    const auto provider = make_provider(name);
    ASSERT_NE(provider, nullptr) << name;
    EXPECT_EQ(provider->name(), name);
  }
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
}

TEST(ProviderRegistry, AnUnknownNameHasNoProviderStreamOrBatchApi) {
  EXPECT_EQ(make_provider("openai"), nullptr);
  EXPECT_FALSE(has_batch_api("openai"));
  EXPECT_EQ(detail::make_stream_assembler("openai", OutputMode::response_format), nullptr);
}

TEST(ProviderRegistry, HasBatchApiIsWhetherTheProviderMakesABatchProtocol) {
  const HttpRequest call{
      "http://127.0.0.1:9/v1/messages", {{"content-type", "application/json"}}, "{}"};
  for (const auto& name : provider_names()) {
    const auto protocol = detail::make_batch_protocol(
        name, "http://127.0.0.1:9/v1", call, [](HttpRequest) { return HttpResponse{}; },
        [](std::string text) { return text; });
    EXPECT_EQ(has_batch_api(name), protocol != nullptr) << name;
  }
}

TEST(ProviderRegistry, EveryProviderStreamsInBothOutputModes) {
  for (const auto& name : provider_names()) {
    for (const auto mode : {OutputMode::response_format, OutputMode::forced_tool}) {
      EXPECT_NE(detail::make_stream_assembler(name, mode), nullptr) << name;
    }
  }
}

// The Chat Completions shape sends usage in a stream only when asked; the others always do.
TEST(ProviderRegistry, AStreamedRequestAsksForUsageOnlyWhereTheShapeNeedsIt) {
  for (const auto& [name, expected] : std::vector<std::pair<std::string, std::string>>{
           {"openai-chat",
            R"({"model":"m","stream":true,"stream_options":{"include_usage":true}})"},
           {"generic", R"({"model":"m","stream":true,"stream_options":{"include_usage":true}})"},
           {"openai-responses", R"({"model":"m","stream":true})"},
           {"anthropic", R"({"model":"m","stream":true})"},
       }) {
    HttpRequest request{"http://127.0.0.1:9/v1", {}, R"({"model":"m"})"};
    detail::ask_for_stream(request, name);
    EXPECT_EQ(request.body, expected) << name;
  }
}

}  // namespace
}  // namespace accord
