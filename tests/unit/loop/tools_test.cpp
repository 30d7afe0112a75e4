// Tool and Toolset without the network: construction rules, wire specs, the MCP listing.
#include "accord/tools.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "accord/json_schema.hpp"

#include "schemas/transfer.hpp"

namespace accord {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

ToolHandler noop() {
  return [](const json&) { return ToolOutput::ok(nullptr); };
}

Tool transfer_tool() {
  return Tool("transfer", "Moves money to an account.", examples::transfer_schema(), noop());
}

TEST(Tool, NonObjectInputIsASchemaError) {
  EXPECT_THROW(Tool("echo", "", string(), noop()), SchemaError);
}

TEST(Tool, BrokenInputSchemaIsASchemaError) {
  EXPECT_THROW(Tool("t", "", object({{"a", string().regex("(")}}), noop()), SchemaError);
}

TEST(Tool, MissingHandlerIsRejected) {
  EXPECT_THROW(Tool("t", "", object({}), ToolHandler{}), std::invalid_argument);
}

TEST(Tool, RunCallsTheHandler) {
  const Tool tool("t", "", object({}), [](const json& input) { return ToolOutput::ok(input); });
  EXPECT_EQ(tool.run(json{{"x", 1}}).result, json({{"x", 1}}));
}

TEST(Toolset, DuplicateNameIsRejected) {
  Toolset tools{transfer_tool()};
  EXPECT_THROW(tools.add(transfer_tool()), std::invalid_argument);
}

TEST(Toolset, NameWithASpaceIsRejected) {
  Toolset tools;
  EXPECT_THROW(tools.add(Tool("send money", "", object({}), noop())), std::invalid_argument);
}

TEST(Toolset, NameLongerThan64IsRejected) {
  Toolset tools;
  EXPECT_THROW(tools.add(Tool(std::string(65, 'a'), "", object({}), noop())),
               std::invalid_argument);
}

TEST(Toolset, FindsToolsByName) {
  const Toolset tools{transfer_tool(), Tool("balance", "", object({}), noop())};
  ASSERT_NE(tools.find("balance"), nullptr);
  EXPECT_EQ(tools.find("balance")->name(), "balance");
  EXPECT_EQ(tools.find("nope"), nullptr);
  EXPECT_EQ(tools.names(), (std::vector<std::string>{"transfer", "balance"}));
}

TEST(Toolset, SpecDescriptionStatesTheObjectRule) {
  const Toolset tools{transfer_tool()};
  const auto specs = tools.specs(*make_provider("openai-chat"));
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].description,
            "Moves money to an account. Rule: eur transfers are capped at 500 (when currency == "
            "\"eur\", amount <= 500).");
}

TEST(Toolset, SpecsAreLoweredForTheProvider) {
  const Toolset tools{transfer_tool()};
  const auto specs = tools.specs(*make_provider("openai-chat"));
  // OpenAI strict: every property required, the optional ones nullable; the cap splits the object
  // into anyOf branches, wrapped as {"value": ...} because the root must be an object.
  const auto& branch = specs[0].input.schema["properties"]["value"]["anyOf"][0];
  EXPECT_EQ(branch["required"].size(), 6u);
  EXPECT_FALSE(specs[0].input.lowering.nulled_optionals.empty());
}

TEST(Toolset, ToolWithoutDescriptionGetsTheRuleAlone) {
  const Toolset tools{Tool("transfer", "", examples::transfer_schema(), noop())};
  EXPECT_EQ(tools.mcp_tools_list()[0]["description"],
            R"(Rule: eur transfers are capped at 500 (when currency == "eur", amount <= 500).)");
}

// The snapshot is a file so a change shows up as a plain JSON diff; update it deliberately.
TEST(Toolset, McpListingOfTheTransferToolMatchesTheSnapshot) {
  const Toolset tools{transfer_tool()};
  std::ifstream in(std::string(ACCORD_SOURCE_DIR) +
                   "/tests/snapshots/transfer_mcp_tools_list.json");
  ASSERT_TRUE(in) << "snapshot file missing";
  const auto expected = ojson::parse(in);
  EXPECT_EQ(tools.mcp_tools_list().dump(2), expected.dump(2));
}

TEST(Toolset, McpInputSchemaIsNotLoweredForAnyProvider) {
  const Toolset tools{transfer_tool()};
  // OpenAI strict lowering would make every property required; MCP gets the rules as written.
  EXPECT_EQ(tools.mcp_tools_list()[0]["inputSchema"]["required"].size(), 4u);
  EXPECT_EQ(tools.mcp_tools_list()[0]["inputSchema"], emit(examples::transfer_schema()).json);
}

TEST(CallVerdict, NamesAreStable) {
  EXPECT_EQ(to_string(CallVerdict::ran), "ran");
  EXPECT_EQ(to_string(CallVerdict::handler_error), "handler_error");
  EXPECT_EQ(to_string(CallVerdict::unfit), "unfit");
  EXPECT_EQ(to_string(CallVerdict::rejected), "rejected");
  EXPECT_EQ(to_string(CallVerdict::unknown_tool), "unknown_tool");
  EXPECT_EQ(to_string(CallVerdict::exhausted), "exhausted");
  EXPECT_EQ(to_string(CallVerdict::skipped), "skipped");
}

ToolRun run_with(std::vector<CallVerdict> verdicts) {
  ToolRun run;
  for (auto verdict : verdicts) run.calls.push_back({.verdict = verdict});
  return run;
}

TEST(ToolRun, HandlerRunsCountHandlerErrorsToo) {
  const auto run = run_with({CallVerdict::ran, CallVerdict::rejected, CallVerdict::handler_error,
                             CallVerdict::unknown_tool});
  EXPECT_EQ(run.handler_runs(), 2u);
}

TEST(ToolRun, RejectedListsEveryCallWhoseHandlerDidNotRun) {
  const auto run = run_with({CallVerdict::ran, CallVerdict::rejected, CallVerdict::unknown_tool,
                             CallVerdict::exhausted, CallVerdict::skipped});
  const auto rejected = run.rejected();
  ASSERT_EQ(rejected.size(), 4u);
  EXPECT_EQ(rejected[0], &run.calls[1]);
  EXPECT_EQ(rejected[3], &run.calls[4]);
}

TEST(ToolRun, TraceHoldsEveryStepAndTheSummedUsage) {
  ToolRun run;
  run.steps.push_back({.attempt = {.usage = {1, 2, 3}}});
  run.steps.push_back({.attempt = {.usage = {10, 20, 30}}});
  const auto trace = run.trace();
  EXPECT_EQ(trace.attempts.size(), 2u);
  EXPECT_EQ(trace.usage, (Usage{11, 22, 33}));
}

}  // namespace
}  // namespace accord
