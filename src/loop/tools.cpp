#include "accord/tools.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "accord/json_schema.hpp"
#include "accord/wire_name.hpp"
#include "loop/call_events.hpp"
#include "loop/client.hpp"
#include "loop/loop.hpp"
#include "providers/wire.hpp"

namespace accord {
namespace {

constexpr const char* kFinalName = "final_answer";

// The tool's description followed by the input's object-level rules: clients and models read a
// tool's description first, and a rule JSON Schema cannot express lives only in words.
std::string tool_description(const Tool& tool) {
  SchemaNode root = tool.input().node();
  root.description = tool.description();
  return model_description(root);
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

std::string result_text(const nlohmann::json& result) {
  return result.is_string() ? result.get<std::string>() : result.dump();
}

// Decides a call's fate from its input alone; the handler runs later, once every call of the
// reply has been judged.
class CallJudge {
 public:
  CallJudge(const Toolset& toolset, const std::vector<ToolSpec>& specs, int corrections,
            RepairPolicy repair)
      : toolset_(toolset),
        specs_(specs),
        corrections_(corrections),
        repair_(repair),
        input_schemas_(toolset.tools().size()) {}

  ToolCallRecord judge(std::size_t step, const ToolCall& call) {
    ToolCallRecord record{.step = step, .call = call};
    const Tool* tool = toolset_.find(call.name);
    if (tool == nullptr) {
      record.verdict = CallVerdict::unknown_tool;
      record.sent_back = fmt::format("There is no tool named \"{}\". The tools that exist: {}.",
                                     call.name, join(toolset_.names()));
      return record;
    }
    const auto index = static_cast<std::size_t>(tool - toolset_.tools().data());
    auto judged =
        detail::judge_text(call.arguments_text, specs_[index].input.lowering, tool->validator(),
                           {repair_, &input_schema(index), /*root_is_array=*/false});
    if (judged.parsed) record.arguments.emplace(std::move(judged.value));
    record.issues = std::move(judged.issues);
    record.repairs = std::move(judged.repairs);
    int& rejections = rejections_[tool->name()];
    if (record.issues.empty()) {
      rejections = 0;
      record.verdict = CallVerdict::ran;  // provisional: the handler has not run yet
      return record;
    }
    if (++rejections > corrections_) {
      record.verdict = CallVerdict::exhausted;  // the run stops; nothing goes back
      return record;
    }
    record.verdict = CallVerdict::rejected;
    record.sent_back = "That input failed validation:\n" + prettify(record.issues) +
                       "\nCall the tool again with corrected input.";
    return record;
  }

 private:
  const Toolset& toolset_;
  const std::vector<ToolSpec>& specs_;
  // The tool's input as emitted, before lowering: what its arguments are repaired to. Emitted
  // when a call of the tool first arrives.
  const nlohmann::ordered_json& input_schema(std::size_t index) {
    auto& schema = input_schemas_[index];
    if (!schema) schema = emit(toolset_.tools()[index].input()).json;
    return *schema;
  }

  int corrections_;
  RepairPolicy repair_;
  std::vector<std::optional<nlohmann::ordered_json>> input_schemas_;
  std::map<std::string, int, std::less<>> rejections_;
};

// The handler of a call judged valid on its input: a view handler reads the parsed document in
// place; a tree handler reads the tree, built here (counted as a reply's tree) when the input is
// still the document, and kept as the record's arguments.
ToolOutput run_on_arguments(const Tool& tool, ToolCallRecord& record) {
  JudgedValue& arguments = *record.arguments;
  if (const JsonDocument* document = arguments.document()) {
    if (tool.reads_view()) return tool.run(document->root());
    arguments = JudgedValue(detail::tree_of_reply(std::move(arguments)));
  }
  return tool.run(*arguments.tree());
}

// Runs the handler of a call judged valid; an exception is the tool's failure, not the loop's.
void run_handler(const Toolset& toolset, ToolCallRecord& record) {
  ToolOutput output;
  try {
    output = run_on_arguments(*toolset.find(record.call.name), record);
  } catch (const std::exception& e) {
    output = ToolOutput::failure(std::string("the tool failed: ") + e.what());
  } catch (...) {
    output = ToolOutput::failure("the tool failed");
  }
  if (output.error) {
    record.verdict = output.handler_ran ? CallVerdict::handler_error : CallVerdict::unfit;
    record.sent_back = *output.error;
  } else {
    record.result = std::move(output.result);
    record.sent_back = result_text(record.result);
  }
}

bool is_error(CallVerdict verdict) {
  return verdict != CallVerdict::ran;
}

// Judges every call of one tool-call reply, runs the handlers of the valid ones, and appends the
// reply and all its results (in order, one turn) to the conversation. Returns the error that
// ends the run instead: the last allowed turn, or a tool whose corrections ran out.
// `final_result`, when set, answers `final_call`, the call of the final-answer tool (judged by the
// caller), which is no tool of the toolset: it goes back after the others' results. The call is
// known by its place in the reply, not its id: a server may give every call the same empty id.
std::optional<Error> answer_calls(const Reply& reply, bool last_turn, const ToolRequest& request,
                                  const Toolset& toolset, CallJudge& judge, ToolRun& run,
                                  std::vector<Turn>& turns, const ToolCall* final_call,
                                  const std::optional<ToolResult>& final_result) {
  const std::size_t step = run.steps.size() - 1;
  auto& attempt = run.steps.back().attempt;
  std::vector<ToolCallRecord> records;
  for (const auto& tool_call : reply.tool_calls) {
    if (&tool_call == final_call) continue;
    if (last_turn) {
      // No turn is left to hear the results, so nothing runs for a result nobody reads.
      records.push_back({.step = step, .call = tool_call, .verdict = CallVerdict::skipped});
      continue;
    }
    records.push_back(judge.judge(step, tool_call));
    const auto& issues = records.back().issues;
    attempt.issues.insert(attempt.issues.end(), issues.begin(), issues.end());
    const auto& repairs = records.back().repairs;
    attempt.repairs.insert(attempt.repairs.end(), repairs.begin(), repairs.end());
  }
  std::optional<Error> stop;
  if (last_turn) {
    stop = Error{ErrorKind::step_limit,
                 fmt::format("no final answer within {} model turns; the last reply's {} tool "
                             "call(s) were not run",
                             request.max_steps, reply.tool_calls.size()),
                 {}};
  }
  for (const auto& record : records) {
    if (record.verdict != CallVerdict::exhausted) continue;
    stop = Error{
        ErrorKind::invalid_after_retries,
        fmt::format("tool \"{}\" input still invalid after {} correction(s): {}", record.call.name,
                    request.corrections_per_tool, prettify_one_line(record.issues)),
        {}};
    break;
  }
  Turn results{.role = Turn::Role::tool_results};
  for (auto& record : records) {
    if (record.verdict == CallVerdict::ran) {
      // When the run stops at this reply, no handler of it runs either.
      if (stop) {
        record.verdict = CallVerdict::skipped;
      } else {
        run_handler(toolset, record);
      }
    }
    results.results.push_back(
        {record.call.id, record.call.name, record.sent_back, is_error(record.verdict)});
    run.steps.back().calls.push_back(run.calls.size());
    run.calls.push_back(std::move(record));
  }
  if (final_result) results.results.push_back(*final_result);
  if (stop) {
    stop->trace = run.trace();
    return stop;
  }
  turns.push_back(reply.assistant);
  turns.push_back(std::move(results));
  return std::nullopt;
}

}  // namespace

Tool::Tool(std::string name, std::string description, Schema input, ToolHandler handler)
    : Tool(std::move(name), std::move(description), std::move(input), std::move(handler), {}) {}

Tool Tool::reading_views(std::string name, std::string description, Schema input,
                         ToolViewHandler handler) {
  return {std::move(name), std::move(description), std::move(input), {}, std::move(handler)};
}

Tool::Tool(std::string name, std::string description, Schema input, ToolHandler handler,
           ToolViewHandler view_handler)
    : name_(std::move(name)),
      description_(std::move(description)),
      input_(std::move(input)),
      validator_(input_),
      handler_(std::move(handler)),
      view_handler_(std::move(view_handler)) {
  // Providers and MCP take only object inputs.
  if (input_.kind() != Kind::object) {
    throw SchemaError({{Path{}, fmt::format("tool \"{}\": the input must be an object, not {}",
                                            name_, to_string(input_.kind()))}});
  }
  if (!handler_ && !view_handler_) {
    throw std::invalid_argument("tool \"" + name_ + "\" has no handler");
  }
}

ToolOutput Tool::run(const nlohmann::json& input) const {
  if (handler_) return handler_(input);
  const JsonDocument document = JsonDocument::from_json(input);
  return view_handler_(document.root());
}

ToolOutput Tool::run(JsonView input) const {
  if (view_handler_) return view_handler_(input);
  return handler_(input.to_json());
}

Toolset::Toolset(std::initializer_list<Tool> tools) {
  for (const auto& tool : tools) add(tool);
}

Toolset& Toolset::add(Tool tool) {
  if (!is_wire_name(tool.name())) {
    throw std::invalid_argument(fmt::format(
        "invalid tool name \"{}\": use 1 to 64 of A-Z, a-z, 0-9, _ and -", tool.name()));
  }
  if (find(tool.name()) != nullptr) {
    throw std::invalid_argument("duplicate tool name \"" + tool.name() + "\"");
  }
  tools_.push_back(std::move(tool));
  return *this;
}

const Tool* Toolset::find(std::string_view name) const {
  for (const auto& tool : tools_) {
    if (tool.name() == name) return &tool;
  }
  return nullptr;
}

std::vector<std::string> Toolset::names() const {
  std::vector<std::string> out;
  for (const auto& tool : tools_) out.push_back(tool.name());
  return out;
}

std::vector<ToolSpec> Toolset::specs(const Provider& provider) const {
  std::vector<ToolSpec> out;
  for (const auto& tool : tools_) {
    auto emitted = emit(tool.input());
    out.push_back({tool.name(), tool_description(tool),
                   provider.lower(emitted.json, std::move(emitted.report))});
  }
  return out;
}

nlohmann::ordered_json Toolset::mcp_tools_list() const {
  auto out = nlohmann::ordered_json::array();
  for (const auto& tool : tools_) {
    out.push_back({{"name", tool.name()},
                   {"description", tool_description(tool)},
                   {"inputSchema", emit(tool.input()).json}});
  }
  return out;
}

std::string_view to_string(CallVerdict verdict) {
  switch (verdict) {
    case CallVerdict::ran:
      return "ran";
    case CallVerdict::handler_error:
      return "handler_error";
    case CallVerdict::unfit:
      return "unfit";
    case CallVerdict::rejected:
      return "rejected";
    case CallVerdict::unknown_tool:
      return "unknown_tool";
    case CallVerdict::exhausted:
      return "exhausted";
    case CallVerdict::skipped:
      return "skipped";
  }
  return "unknown";
}

std::size_t ToolRun::handler_runs() const {
  return static_cast<std::size_t>(std::count_if(calls.begin(), calls.end(), [](const auto& c) {
    return c.verdict == CallVerdict::ran || c.verdict == CallVerdict::handler_error;
  }));
}

std::vector<const ToolCallRecord*> ToolRun::rejected() const {
  std::vector<const ToolCallRecord*> out;
  for (const auto& call : calls) {
    if (call.verdict != CallVerdict::ran && call.verdict != CallVerdict::handler_error)
      out.push_back(&call);
  }
  return out;
}

Trace ToolRun::trace() const {
  Trace trace;
  for (const auto& step : steps) {
    trace.attempts.push_back(step.attempt);
    trace.usage += step.attempt.usage;
  }
  return trace;
}

namespace {

// The role of the request that follows a reply of tool calls: a correction when a call's input
// was refused (its error result is what the model must fix), else the tools' results.
AttemptRole role_after_calls(const ToolRun& run) {
  const auto& step = run.steps.back();
  const bool refused = std::any_of(step.calls.begin(), step.calls.end(), [&](std::size_t i) {
    const auto verdict = run.calls[i].verdict;
    return verdict == CallVerdict::rejected || verdict == CallVerdict::unknown_tool;
  });
  return refused ? AttemptRole::whole_correction : AttemptRole::tool_results;
}

// Why the final schema goes as a tool beside the run's tools, or empty when it goes as the
// response format: a model that takes no response format (a Bedrock model not listed for native
// structured output answers 400) or a client set to the forced tool. The tool a run forces
// cannot be the final one (the model would get no turn to call the others), so it is offered
// beside them, with a tool choice that makes the model call one of them.
std::string final_as_tool(const Client& client, const Toolset& toolset) {
  const auto chosen = Client::Internals::output_mode(client, OutputMode::per_model,
                                                     Client::Internals::model(client));
  if (chosen.mode != OutputMode::forced_tool) return {};
  if (toolset.find(kFinalName) != nullptr) {
    throw std::invalid_argument(fmt::format(
        "run_tools: the tool \"{0}\" has the name the final schema goes by: {1} takes no "
        "response format, so the final schema goes as a tool named \"{0}\" beside the run's "
        "tools; rename the tool",
        kFinalName, Client::Internals::model(client)));
  }
  return fmt::format(
      "the final schema went as the tool {} beside the run's tools, a tool call "
      "required ({})",
      kFinalName, chosen.why.empty() ? "ClientOptions::mode is forced_tool" : chosen.why);
}

// The call of the final-answer tool in a reply, if any.
const ToolCall* final_call_of(const Reply& reply) {
  for (const auto& call : reply.tool_calls) {
    if (call.name == kFinalName) return &call;
  }
  return nullptr;
}

// A reply's final answer (its text, or the final tool's input) judged against the final schema
// into the step's attempt: the run's end when it is valid or no correction is left, else nullopt
// (the issues are in the attempt, for the correction and for the caller's issues hook).
std::optional<Result<ToolRun>> judge_final_answer(std::string_view text, const Contract& contract,
                                                  RepairPolicy repair, int final_attempts,
                                                  const ToolRequest& request, ToolRun& run) {
  auto judged = detail::judge_text(text, contract.wire().lowering, contract.validator(),
                                   detail::repair_setup(contract, repair));
  auto& attempt = run.steps.back().attempt;
  attempt.issues = judged.issues;
  attempt.repairs = judged.repairs;
  if (judged.issues.empty()) {
    run.final_value = detail::tree_of_reply(std::move(judged.value));
    return Extraction<ToolRun>{run, run.trace()};
  }
  if (final_attempts > request.final_corrections) {
    return detail::invalid_after(static_cast<std::size_t>(final_attempts), judged.issues,
                                 run.trace());
  }
  return std::nullopt;
}

// The calls beside a valid final answer are not run: the run ends, and no turn is left to hear
// their results.
void skip_calls_beside(const Reply& reply, const ToolCall& final_call, ToolRun& run) {
  for (const auto& call : reply.tool_calls) {
    if (&call == &final_call) continue;
    run.steps.back().calls.push_back(run.calls.size());
    run.calls.push_back(
        {.step = run.steps.size() - 1, .call = call, .verdict = CallVerdict::skipped});
  }
}

Result<ToolRun> run_unredacted(const Client& client, const ToolRequest& request,
                               const Toolset& toolset, detail::CallEvents& events) {
  const auto specs = toolset.specs(client.provider());
  CallSpec call{.tools = specs};
  std::shared_ptr<const Contract> final_contract;
  std::string final_tool_note;  // set when the final schema goes as a tool
  if (request.final_schema) {
    final_contract = client.contract(*request.final_schema, kFinalName);
    final_tool_note = final_as_tool(client, toolset);
    if (final_tool_note.empty()) {
      call.output_name = kFinalName;
      call.output = &final_contract->wire();
      call.output_text = &final_contract->wire_text();
    } else {
      call.tools.push_back({kFinalName, detail::kOutputToolDescription, final_contract->wire()});
      call.tool_required = true;
    }
  }
  if (!request.system.empty())
    call.turns.push_back(Turn{.role = Turn::Role::system, .text = request.system});
  call.turns.push_back(Turn{.role = Turn::Role::user, .text = request.prompt});

  ToolRun run;
  const auto repair = request.repair.value_or(Client::Internals::options(client).repair);
  CallJudge judge(toolset, specs, request.corrections_per_tool, repair);
  int final_attempts = 0;
  AttemptRole role = AttemptRole::first;
  for (int step = 0; step < request.max_steps; ++step) {
    const std::size_t number = run.steps.size() + 1;
    // Encoded first: a request refused before sending is not reported as sent.
    auto prepared = Client::Internals::prepare(client, call);
    if (role == AttemptRole::whole_correction) events.correction_sent(number, role, call);
    events.request_sent(number, role, call, false);
    auto exchanged =
        Client::Internals::send(client, std::move(prepared),
                                Client::Internals::call_deadline(client), events.retries(number));
    exchanged.attempt.role = role;
    events.reply_received(number, exchanged.attempt);
    const Reply& reply = exchanged.reply;
    run.usage += exchanged.attempt.usage;
    run.steps.push_back(ToolStep{exchanged.attempt, {}});
    if (step == 0) run.steps.back().attempt.note = final_tool_note;

    if (reply.status == ReplyStatus::tool_calls) {
      std::optional<ToolResult> final_result;
      const ToolCall* final_call = final_tool_note.empty() ? nullptr : final_call_of(reply);
      if (final_call != nullptr) {
        if (auto end = judge_final_answer(final_call->arguments_text, *final_contract, repair,
                                          ++final_attempts, request, run)) {
          if (!end->ok()) {
            const auto& judged = run.steps.back().attempt;
            events.issues_found(number, judged.issues, judged.repairs);
            return *std::move(end);
          }
          skip_calls_beside(reply, *final_call, run);
          return Extraction<ToolRun>{run, run.trace()};
        }
        final_result =
            ToolResult{final_call->id, kFinalName,
                       "That final answer failed validation:\n" +
                           detail::echoed_issues(run.steps.back().attempt.issues) +
                           fmt::format("\nCall {} again with the corrected answer.", kFinalName),
                       true};
      }
      auto error = answer_calls(reply, step + 1 >= request.max_steps, request, toolset, judge, run,
                                call.turns, final_call, final_result);
      // Once for the reply: the final answer's issues and those of the calls beside it.
      const auto& answered = run.steps.back().attempt;
      events.issues_found(number, answered.issues, answered.repairs);
      if (error) return *std::move(error);
      role = final_result ? AttemptRole::whole_correction : role_after_calls(run);
      continue;
    }

    if (auto error = detail::reply_error(exchanged, call.mode)) {
      error->trace = run.trace();
      return *std::move(error);
    }
    run.final_text = reply.text;
    if (!final_contract) return Extraction<ToolRun>{run, run.trace()};
    auto end =
        judge_final_answer(reply.text, *final_contract, repair, ++final_attempts, request, run);
    const auto& judged = run.steps.back().attempt;
    events.issues_found(number, judged.issues, judged.repairs);
    if (end) return *std::move(end);
    detail::append_correction(call.turns, reply, run.steps.back().attempt.issues, call.mode,
                              kFinalName);
    role = AttemptRole::whole_correction;
  }
  // Reached only when the last allowed turn was a corrected final answer, or max_steps < 1.
  return Error{ErrorKind::step_limit,
               fmt::format("no final answer within {} model turns", request.max_steps),
               run.trace()};
}

}  // namespace

Result<ToolRun> run_tools(const Client& client, const ToolRequest& request,
                          const Toolset& toolset) {
  // The hooks see a tool run as one call: named for its final answer's schema, if it has one.
  detail::CallEvents events(client, request.final_schema ? kFinalName : "tools");
  auto result = run_unredacted(client, request, toolset, events);
  if (!result.ok()) {
    Error error = result.error();
    detail::redact(error, client);
    events.finished(error.trace, &error);
    return error;
  }
  // The tool results stay as the handlers made them; the records of the model's turns do not
  // keep the key.
  ToolRun run = result.value();
  for (auto& step : run.steps) detail::redact(step.attempt, client);
  // The call records are what callers print (transfer_tool does): the tool name, the model's
  // arguments and what went back keep no key either, whatever a handler did with its input.
  for (auto& record : run.calls) {
    record.call.name = client.redacted(std::move(record.call.name));
    record.call.arguments_text = client.redacted(std::move(record.call.arguments_text));
    record.sent_back = client.redacted(std::move(record.sent_back));
    detail::redact(record.issues, client);
    detail::redact(record.repairs, client);
  }
  Trace trace = run.trace();
  events.finished(trace, nullptr);
  return Extraction<ToolRun>{std::move(run), std::move(trace)};
}

}  // namespace accord
