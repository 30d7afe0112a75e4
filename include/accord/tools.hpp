#pragma once
// Validated tool calling: a tool's input is checked against its schema (refinements included)
// before its handler runs; invalid input never reaches the handler, and the model hears why.

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "accord/client.hpp"
#include "accord/json_view.hpp"
#include "accord/judged_value.hpp"

namespace accord {

// What a handler returns: a JSON result, or an error text the model reads (is_error on Anthropic).
struct ToolOutput {
  nlohmann::json result;
  std::optional<std::string> error;
  // False when the input, though valid, was not what the handler takes (a typed tool's argument
  // struct): the handler never ran, and the call is CallVerdict::unfit rather than a run.
  bool handler_ran = true;
  static ToolOutput ok(nlohmann::json value) { return {std::move(value), std::nullopt}; }
  static ToolOutput failure(std::string text) { return {nullptr, std::move(text)}; }
  static ToolOutput unfit(std::string text) { return {nullptr, std::move(text), false}; }
};

// A handler that reads its input as a tree.
using ToolHandler = std::function<ToolOutput(const nlohmann::json& input)>;
// A handler that reads its input where it was parsed (accord/json_view.hpp): a call of its tool
// builds no nlohmann::json (typed_tool's handlers are these).
using ToolViewHandler = std::function<ToolOutput(JsonView input)>;

class Tool {
 public:
  // Throws SchemaError for a bad input schema.
  Tool(std::string name, std::string description, Schema input, ToolHandler handler);
  // A tool whose handler reads a view (a named maker, not a constructor, so that a generic
  // lambda handed to the constructor above is not ambiguous).
  [[nodiscard]] static Tool reading_views(std::string name, std::string description, Schema input,
                                          ToolViewHandler handler);
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const std::string& description() const { return description_; }
  [[nodiscard]] const Schema& input() const { return input_; }
  [[nodiscard]] const Validator& validator() const { return validator_; }
  // Runs the handler on `input`, whichever kind it reads: a view handler given a tree reads
  // a document made from it, a tree handler given a view reads the tree built from it.
  [[nodiscard]] ToolOutput run(const nlohmann::json& input) const;
  [[nodiscard]] ToolOutput run(JsonView input) const;
  // Whether the handler reads a view (then a call's input needs no tree).
  [[nodiscard]] bool reads_view() const { return view_handler_ != nullptr; }

 private:
  Tool(std::string name, std::string description, Schema input, ToolHandler handler,
       ToolViewHandler view_handler);

  std::string name_;
  std::string description_;
  Schema input_;
  Validator validator_;
  ToolHandler handler_;           // set for a tree handler
  ToolViewHandler view_handler_;  // set for a view handler
};

class Toolset {
 public:
  Toolset() = default;
  Toolset(std::initializer_list<Tool> tools);
  Toolset& add(Tool tool);  // throws std::invalid_argument on a duplicate or invalid name
  [[nodiscard]] const Tool* find(std::string_view name) const;
  [[nodiscard]] const std::vector<Tool>& tools() const { return tools_; }
  [[nodiscard]] std::vector<std::string> names() const;
  // The tools as a provider receives them: lowered input schemas, each with its Report.
  [[nodiscard]] std::vector<ToolSpec> specs(const Provider& provider) const;
  // MCP `tools/list` result entries: [{"name","description","inputSchema"}], refinement text
  // included; inputSchema is the emitted 2020-12 schema, not lowered for any provider.
  [[nodiscard]] nlohmann::ordered_json mcp_tools_list() const;

 private:
  std::vector<Tool> tools_;
};

enum class CallVerdict {
  ran,            // input valid; the handler ran once
  handler_error,  // input valid; the handler returned an error
  unfit,          // input valid but not what the handler takes (typed_tool); it did not run
  rejected,       // input invalid (or not JSON); the handler did not run; issues went back
  unknown_tool,   // no tool of that name; the names that exist went back
  exhausted,      // rejected again after the corrections allowed for this tool; the run stops
  skipped,        // not run because the run stopped at this reply (exhausted call, step limit)
};
[[nodiscard]] std::string_view to_string(CallVerdict verdict);

// Every tool call the model made, valid or not: a caller reading this list sees rejections too.
struct ToolCallRecord {
  std::size_t step = 0;  // index into ToolRun::steps
  ToolCall call;
  CallVerdict verdict = CallVerdict::rejected;
  Issues issues;  // why it was rejected
  // What was repaired in the arguments before they were judged (ToolRequest::repair); `call`
  // keeps them as the model wrote them, `arguments` is the repaired value the handler read.
  Repairs repairs;
  // The decoded input, when it parsed: the parsed document itself when it needed no tree (no
  // repair, nothing to unlower, a view handler), else the tree.
  std::optional<JudgedValue> arguments;
  nlohmann::json result;  // the handler's result, when it ran
  std::string sent_back;  // the text returned to the model as the tool result
  // The decoded input as a tree, built when asked (null when it did not parse).
  [[nodiscard]] nlohmann::json input() const {
    return arguments ? arguments->to_json() : nlohmann::json();
  }
};

struct ToolStep {
  Attempt attempt;                 // the request and reply of this step
  std::vector<std::size_t> calls;  // indexes into ToolRun::calls
};

struct ToolRun {
  std::string final_text;                     // the model's final answer
  std::optional<nlohmann::json> final_value;  // when a final schema was given: the validated value
  std::vector<ToolStep> steps;
  std::vector<ToolCallRecord> calls;
  Usage usage;  // summed over steps
  // Calls whose handler ran (ran and handler_error).
  [[nodiscard]] std::size_t handler_runs() const;
  // Calls whose handler did not run: rejected, unfit, unknown_tool, exhausted and skipped.
  [[nodiscard]] std::vector<const ToolCallRecord*> rejected() const;
  [[nodiscard]] Trace trace() const;  // the steps' attempts, as a Trace
};

struct ToolRequest {
  std::string prompt;
  std::string system;
  int max_steps = 8;  // model turns before giving up (ErrorKind::step_limit)
  // Rejected calls of one tool allowed before `exhausted`; a call of that tool that runs resets
  // the count.
  int corrections_per_tool = 1;
  // Validate the final answer as JSON against this (sent as the response format, named
  // "final_answer", or as a tool of that name beside the others for a model that takes no
  // response format: docs/tools.md); `final_corrections` corrective turns when it is invalid.
  std::optional<Schema> final_schema;
  int final_corrections = 1;
  // What of a call's arguments and of the final answer is repaired before they are judged;
  // overrides ClientOptions::repair. A call its repairs make valid runs, with no correction.
  std::optional<RepairPolicy> repair;
};

// Sends the tools, answers every call (all calls of one reply in one follow-up, in order), and
// stops at a final answer. Errors: step_limit, invalid_after_retries (a tool's corrections ran
// out, or the final answer stayed invalid), and the loop's own kinds (refused, http, ...).
[[nodiscard]] Result<ToolRun> run_tools(const Client& client, const ToolRequest& request,
                                        const Toolset& toolset);

}  // namespace accord
