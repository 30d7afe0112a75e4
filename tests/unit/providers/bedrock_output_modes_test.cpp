// Bedrock's two ways to structured output, chosen per model: Converse's native outputConfig for
// the models AWS lists it for (through inference profiles and ARNs too), the forced toolConfig
// tool for every other; every other provider leaves the response format. And the cachePoint
// after the whole first user turn.

#include <gtest/gtest.h>

#include "accord/providers/provider.hpp"
#include "providers/bedrock/output_modes.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

// The smallest object schema: these tests are about where it goes, not what it says.
const ojson kIdSchema = {{"type", "object"}, {"properties", {{"id", {{"type", "integer"}}}}}};

OutputMode mode_for(std::string_view model) {
  return make_provider("bedrock")->output_mode_for(model).mode;
}

TEST(BedrockOutputModes, ClaudeModelsAwsListsTakeNativeStructuredOutput) {
  for (const char* model :
       {"anthropic.claude-haiku-4-5-20251001-v1:0", "anthropic.claude-sonnet-4-5-20250929-v1:0",
        "anthropic.claude-opus-4-5-20251101-v1:0", "anthropic.claude-opus-4-6-v1"}) {
    EXPECT_EQ(mode_for(model), OutputMode::response_format) << model;
  }
}

TEST(BedrockOutputModes, InferenceProfilesAndArnsNameTheirFoundationModel) {
  for (const char* model :
       {"us.anthropic.claude-sonnet-4-5-20250929-v1:0", "global.anthropic.claude-opus-4-6-v1",
        "eu.anthropic.claude-haiku-4-5-20251001-v1:0",
        "apac.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-haiku-4-5-20251001-v1:0",
        "arn:aws:bedrock:eu-west-1:123456789012:inference-profile/"
        "eu.anthropic.claude-sonnet-4-5-20250929-v1:0"}) {
    EXPECT_EQ(mode_for(model), OutputMode::response_format) << model;
  }
  EXPECT_EQ(detail::bedrock_foundation_model(
                "arn:aws:bedrock:us-west-2:123456789012:inference-profile/us.qwen.qwen3-32b-v1:0"),
            "qwen.qwen3-32b-v1:0");
}

TEST(BedrockOutputModes, OpenWeightModelsAwsListsTakeNativeStructuredOutput) {
  for (const char* model : {"qwen.qwen3-32b-v1:0", "deepseek.v3-v1:0", "google.gemma-3-27b-it",
                            "mistral.mistral-large-3-675b-instruct", "moonshot.kimi-k2-thinking",
                            "nvidia.nemotron-nano-12b-v2"}) {
    EXPECT_EQ(mode_for(model), OutputMode::response_format) << model;
  }
}

TEST(BedrockOutputModes, UnlistedModelsGetTheForcedTool) {
  for (const char* model :
       {"anthropic.claude-3-5-sonnet-20240620-v1:0", "us.anthropic.claude-sonnet-4-20250514-v1:0",
        "meta.llama3-3-70b-instruct-v1:0", "amazon.nova-pro-v1:0", "deepseek.r1-v1:0",
        "google.gemma-3-4b-it", "test-model", "",
        // An application inference profile's ARN does not say which model is behind it.
        "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5"}) {
    EXPECT_EQ(mode_for(model), OutputMode::forced_tool) << model;
  }
}

TEST(BedrockOutputModes, AListedIdMatchesOnlyUpToAWordBoundary) {
  EXPECT_EQ(mode_for("anthropic.claude-opus-4-50-v1:0"), OutputMode::forced_tool);
  EXPECT_EQ(mode_for("anthropic.claude-opus-4-5x"), OutputMode::forced_tool);
  EXPECT_EQ(mode_for("anthropic.claude-opus-4-5"), OutputMode::response_format);
}

TEST(BedrockOutputModes, TheReasonNamesTheModelAndTheMode) {
  const auto provider = make_provider("bedrock");
  EXPECT_EQ(provider->output_mode_for("us.anthropic.claude-opus-4-6-v1").why,
            "bedrock: us.anthropic.claude-opus-4-6-v1 takes native structured output");
  EXPECT_EQ(provider->output_mode_for("anthropic.claude-3-5-haiku-20241022-v1:0").why,
            "bedrock: forced tool: anthropic.claude-3-5-haiku-20241022-v1:0 is not listed for "
            "native structured output");
  EXPECT_EQ(provider->output_mode_for("meta.llama3-3-70b-instruct-v1:0").why,
            "bedrock: output tool, offered without a toolChoice (the model takes none): "
            "meta.llama3-3-70b-instruct-v1:0 is not listed for native structured output");
}

TEST(BedrockOutputModes, EveryOtherProviderLeavesTheResponseFormat) {
  for (const auto& name : provider_names()) {
    if (name == "bedrock") continue;
    const auto choice = make_provider(name)->output_mode_for("meta.llama3-3-70b-instruct-v1:0");
    EXPECT_EQ(choice.mode, OutputMode::response_format) << name;
    EXPECT_TRUE(choice.why.empty()) << name;
  }
}

struct PerModelCall {
  std::unique_ptr<Provider> provider = make_provider("bedrock");
  WireSchema wire = provider->lower(kIdSchema, Report{});
  CallSpec spec;

  explicit PerModelCall(std::string model) {
    spec.base_url = "https://bedrock-runtime.us-east-1.amazonaws.com";
    spec.model = std::move(model);
    spec.turns.push_back({Turn::Role::user, "Order ORD-1 please.", {}, {}, {}, {}});
    spec.output_name = "order";
    spec.output = &wire;
    spec.mode = OutputMode::per_model;
  }
  [[nodiscard]] ojson body() const { return ojson::parse(provider->encode(spec).body); }
};

TEST(BedrockOutputModes, EncodeChoosesByModelWhenTheCallLeavesItToTheProvider) {
  const ojson native = PerModelCall("us.anthropic.claude-sonnet-4-5-20250929-v1:0").body();
  EXPECT_TRUE(native.contains("outputConfig"));
  EXPECT_FALSE(native.contains("toolConfig"));

  const ojson forced = PerModelCall("us.anthropic.claude-3-5-haiku-20241022-v1:0").body();
  EXPECT_FALSE(forced.contains("outputConfig"));
  EXPECT_EQ(forced["toolConfig"]["toolChoice"]["tool"]["name"], "order");
}

// AWS's ToolChoice reference: Llama and most other models refuse any toolChoice.
TEST(BedrockToolChoice, AModelThatTakesNoToolChoiceIsOfferedTheOutputToolWithoutOne) {
  const ojson body = PerModelCall("meta.llama3-3-70b-instruct-v1:0").body();
  EXPECT_FALSE(body.contains("outputConfig"));
  ASSERT_EQ(body["toolConfig"]["tools"].size(), 1u);
  EXPECT_EQ(body["toolConfig"]["tools"][0]["toolSpec"]["name"], "order");
  EXPECT_FALSE(body["toolConfig"].contains("toolChoice")) << body.dump();
}

TEST(BedrockToolChoice, MistralLargeIsForcedThroughAny) {
  const ojson body = PerModelCall("mistral.mistral-large-2407-v1:0").body();
  EXPECT_EQ(body["toolConfig"]["toolChoice"], ojson::parse(R"({"any": {}})"));
}

TEST(BedrockToolChoice, NovaIsForcedToTheOutputToolByName) {
  const ojson body = PerModelCall("us.amazon.nova-pro-v1:0").body();
  EXPECT_EQ(body["toolConfig"]["toolChoice"]["tool"]["name"], "order");
}

TEST(BedrockToolChoice, AnIdNamingNoFoundationModelKeepsTheForcedTool) {
  const ojson body =
      PerModelCall("arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3")
          .body();
  EXPECT_EQ(body["toolConfig"]["toolChoice"]["tool"]["name"], "order");
}

TEST(BedrockCachePoint, FollowsEveryBlockOfTheFirstUserTurn) {
  PerModelCall call("us.anthropic.claude-sonnet-4-5-20250929-v1:0");
  const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + "pixels";
  auto& first = call.spec.turns.back();
  first.parts = {ContentPart::image(png, "image/png"), ContentPart::of_text("and this note")};
  // A later user turn (a scoped correction's) joins the same Converse message, after the point.
  call.spec.turns.push_back({Turn::Role::user, "Only the orderId, please.", {}, {}, {}, {}});
  call.spec.parameters.prompt_cache = true;
  const ojson content = call.body()["messages"][0]["content"];
  ASSERT_EQ(content.size(), 5u) << content.dump();
  EXPECT_EQ(content[0]["text"], "Order ORD-1 please.");
  EXPECT_TRUE(content[1].contains("image"));
  EXPECT_EQ(content[2]["text"], "and this note");
  EXPECT_EQ(content[3], (ojson{{"cachePoint", {{"type", "default"}}}}));
  EXPECT_EQ(content[4]["text"], "Only the orderId, please.");
}

}  // namespace
}  // namespace accord
