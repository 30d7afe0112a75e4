// A typed tool reads its struct straight from the call's parsed arguments (#26): no
// nlohmann::json is built for the input of a call that parsed as sent, had nothing to unlower
// and needed no repair; a tree is built only for a handler that takes one, or when the record's
// input() is asked for. Over real HTTP against accord-mock.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "accord/tools.hpp"
#include "accord/typed_tools.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "loop/loop.hpp"

namespace view_tool_fixtures {

struct ViewShipment {
  std::string sku;
  std::int32_t quantity = 0;
  std::optional<std::string> note;
};
BOOST_DESCRIBE_STRUCT(ViewShipment, (), (sku, quantity, note))

}  // namespace view_tool_fixtures

namespace accord {
namespace {

using nlohmann::json;
using view_tool_fixtures::ViewShipment;

const json kViewToolArguments = {{"sku", "KT-200"}, {"quantity", 3}};

json view_tool_call(const json& arguments) {
  return {{"tool_calls", {{{"id", "c1"}, {"name", "ship"}, {"arguments", arguments}}}}};
}

class TypedToolView : public ::testing::Test {
 protected:
  Client client_for(const std::vector<json>& replies, const std::string& provider) {
    mock_ = std::make_unique<MockProcess>(json{{"replies", replies}}.dump());
    return Client(testing_support::mock_client_options(provider, mock_->base_url()));
  }
  Toolset typed_tools() {
    return Toolset{typed_tool("ship", "Ships an order.",
                              typed<ViewShipment>().field(&ViewShipment::sku, regex("^KT-[0-9]+$")),
                              [this](const ViewShipment& shipment) {
                                shipments_.push_back(shipment);
                                return ToolOutput::ok("shipped");
                              })};
  }
  // Trees of reply values built by a tool run of `tools` on `replies`.
  std::uint64_t trees_built_by_run(const std::vector<json>& replies, const Toolset& tools,
                                   const std::string& provider = "anthropic") {
    const auto client = client_for(replies, provider);
    const auto before = detail::reply_trees_built();
    run_ = run_tools(client, {.prompt = "Ship it."}, tools);
    return detail::reply_trees_built() - before;
  }
  std::unique_ptr<MockProcess> mock_;
  std::vector<ViewShipment> shipments_;
  std::optional<Result<ToolRun>> run_;
};

TEST_F(TypedToolView, ATypedToolCallBuildsNoTreeForItsInput) {
  REQUIRE_MOCK();
  for (const std::string provider : {"anthropic", "openai-chat", "gemini"}) {
    shipments_.clear();
    EXPECT_EQ(trees_built_by_run({view_tool_call(kViewToolArguments), {{"text", "done"}}},
                                 typed_tools(), provider),
              0U)
        << provider;
    ASSERT_TRUE(run_->ok()) << provider << ": " << run_->error().message;
    ASSERT_EQ(shipments_.size(), 1U) << provider;
    EXPECT_EQ(shipments_[0].sku, "KT-200");
    EXPECT_EQ(shipments_[0].quantity, 3);
    EXPECT_EQ(run_->value().calls.at(0).verdict, CallVerdict::ran);
  }
}

TEST_F(TypedToolView, AnUntypedToolCallBuildsTheOneTreeItsHandlerReads) {
  REQUIRE_MOCK();
  std::optional<json> seen;
  const Toolset tools{Tool("ship", "Ships an order.",
                           object({{"sku", string()}, {"quantity", integer()}}),
                           [&seen](const json& input) {
                             seen = input;
                             return ToolOutput::ok("shipped");
                           })};
  EXPECT_EQ(trees_built_by_run({view_tool_call(kViewToolArguments), {{"text", "done"}}}, tools),
            1U);
  ASSERT_TRUE(run_->ok()) << run_->error().message;
  EXPECT_EQ(seen, kViewToolArguments);
  // The record keeps the tree the handler read rather than building another.
  ASSERT_TRUE(run_->value().calls.at(0).arguments.has_value());
  EXPECT_NE(run_->value().calls.at(0).arguments->tree(), nullptr);
}

TEST_F(TypedToolView, TheRecordBuildsTheInputTreeOnlyWhenAsked) {
  REQUIRE_MOCK();
  ASSERT_EQ(
      trees_built_by_run({view_tool_call(kViewToolArguments), {{"text", "done"}}}, typed_tools()),
      0U);
  ASSERT_TRUE(run_->ok()) << run_->error().message;
  const ToolCallRecord& record = run_->value().calls.at(0);
  ASSERT_TRUE(record.arguments.has_value());
  EXPECT_NE(record.arguments->document(), nullptr);
  EXPECT_EQ(record.input(), kViewToolArguments);
}

TEST_F(TypedToolView, ArgumentsThatDoNotParseLeaveTheRecordWithoutArguments) {
  REQUIRE_MOCK();
  trees_built_by_run({view_tool_call("{\"sku\": "), {{"text", "done"}}}, typed_tools(),
                     "openai-chat");
  ASSERT_TRUE(run_->ok()) << run_->error().message;
  const ToolCallRecord& record = run_->value().calls.at(0);
  EXPECT_EQ(record.verdict, CallVerdict::rejected);
  EXPECT_FALSE(record.arguments.has_value());
  EXPECT_TRUE(record.input().is_null());
  EXPECT_TRUE(shipments_.empty());
}

TEST_F(TypedToolView, ARepairedInputReachesTheTypedHandlerFromItsTree) {
  REQUIRE_MOCK();
  // "3" for an integer: the lossless repair makes it 3, on a tree.
  json repaired = kViewToolArguments;
  repaired["quantity"] = "3";
  EXPECT_GE(trees_built_by_run({view_tool_call(repaired), {{"text", "done"}}}, typed_tools()), 1U);
  ASSERT_TRUE(run_->ok()) << run_->error().message;
  ASSERT_EQ(shipments_.size(), 1U);
  EXPECT_EQ(shipments_[0].quantity, 3);
  EXPECT_FALSE(run_->value().calls.at(0).repairs.empty());
}

TEST_F(TypedToolView, AViewHandlerRunsOnATreeGivenToTheTool) {
  const Tool tool = typed_tools().tools().front();
  const ToolOutput output = tool.run(json{{"sku", "KT-7"}, {"quantity", 2}});
  EXPECT_FALSE(output.error.has_value());
  ASSERT_EQ(shipments_.size(), 1U);
  EXPECT_EQ(shipments_[0].sku, "KT-7");
  EXPECT_EQ(shipments_[0].quantity, 2);
}

TEST_F(TypedToolView, AGenericLambdaHandlerMakesATreeTool) {
  const Tool tool("echo", "", object({{"x", integer()}}),
                  [](const auto& input) { return ToolOutput::ok(input); });
  EXPECT_FALSE(tool.reads_view());
  EXPECT_EQ(tool.run(json{{"x", 1}}).result, json({{"x", 1}}));
}

TEST_F(TypedToolView, ATreeHandlerRunsOnAViewGivenToTheTool) {
  const Tool tool("echo", "", object({{"x", integer()}}),
                  [](const json& input) { return ToolOutput::ok(input); });
  const auto parsed = parse_document(R"({"x": 1})");
  ASSERT_TRUE(parsed.document);
  EXPECT_EQ(tool.run(parsed.document->root()).result, json({{"x", 1}}));
}

}  // namespace
}  // namespace accord
