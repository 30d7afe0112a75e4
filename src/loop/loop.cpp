#include "loop/loop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "accord/json_text.hpp"
#include "core/utf8.hpp"

namespace accord::detail {

std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

namespace {

std::optional<Error> status_error(const Reply& reply, OutputMode mode) {
  switch (reply.status) {
    case ReplyStatus::ok:
      return std::nullopt;
    case ReplyStatus::refusal:
      return Error{ErrorKind::refused, "the model refused: " + one_line(reply.text), {}};
    case ReplyStatus::truncated:
      return Error{ErrorKind::truncated,
                   "the output was cut off at the token limit (" + reply.detail + ")",
                   {}};
    case ReplyStatus::content_filtered:
      return Error{
          ErrorKind::content_filtered, "the provider's content filter stopped the output", {}};
    case ReplyStatus::empty:
      return Error{ErrorKind::bad_reply, "the reply had no output", {}};
    case ReplyStatus::tool_calls:
      return Error{ErrorKind::bad_reply,
                   mode == OutputMode::forced_tool
                       ? "the model called a tool other than the forced one"
                       : "the model called a tool instead of answering",
                   {}};
    case ReplyStatus::http_error:
      return Error{ErrorKind::http, one_line(reply.detail), {}};
    case ReplyStatus::bad_reply:
      return Error{ErrorKind::bad_reply,
                   "the reply is not the provider's shape: " + one_line(reply.detail),
                   {}};
  }
  return Error{ErrorKind::bad_reply, "unknown reply status", {}};
}

}  // namespace

std::optional<Error> reply_error(const Exchange& exchange, OutputMode mode) {
  auto error = status_error(exchange.reply, mode);
  if (error && exchange.attempt.http_status == 0) {
    // No reply arrived: the transport's own words, not a remark on a reply's shape.
    error->kind = ErrorKind::transport;
    error->message = one_line(exchange.reply.detail);
  }
  return error;
}

RepairSetup repair_setup(const Contract& contract, RepairPolicy policy) {
  RepairSetup setup{policy, &contract.json_schema(), std::nullopt};
  const auto type = contract.wire().schema.find("type");
  // Compared as the string it is: `*type == "array"` would build a json of "array" per call.
  if (type != contract.wire().schema.end() && type->is_string())
    setup.root_is_array = type->get_ref<const std::string&>() == "array";
  return setup;
}

namespace {

// As parse_with_repairs reads a reply: a key repeated in one object is an issue.
constexpr ParseLimits kReplyLimits{.refuse_repeated_keys = true};

std::atomic<std::uint64_t> reply_trees{0};

void count_reply_tree() {
  reply_trees.fetch_add(1, std::memory_order_relaxed);
}

nlohmann::json document_tree(const JsonDocument& document) {
  count_reply_tree();
  return document.root().to_json();
}

// Whether unlower() would give the value of `text` back as it is: the lowering changed no shape
// (no wrapped root, pair list or recursive reference) and no null can stand where an optional
// was nulled (the text holds no "null" at all). Decided before parsing, so a reply that needs
// unlowering goes straight to the tree and is validated once, after it.
bool nothing_to_unlower(const Lowering& lowering, std::string_view text) {
  if (lowering.wrapped_root || !lowering.pair_lists.empty() || !lowering.references.empty())
    return false;
  return lowering.nulled_optionals.empty() || text.find("null") == std::string_view::npos;
}

// judge_text's value as a tree: the text is not valid as sent, or has something to unlower.
// `as_sent` is the text read as sent when there was nothing to unlower (its document, its issues),
// else null.
Judged judge_as_tree(std::string_view text, const Lowering& lowering, const Validator& validator,
                     const RepairSetup& repair, ValidationResult* as_sent) {
  const bool parsed_as_sent = as_sent != nullptr && as_sent->parsed();
  Judged judged;
  if (parsed_as_sent) {
    judged.wire_value = document_tree(*as_sent->document);
  } else {
    auto [parsed, repairs] = parse_with_repairs(text, repair.policy, repair.root_is_array);
    if (!parsed.value) {
      judged.issues = std::move(parsed.issues);
      return judged;
    }
    count_reply_tree();
    judged.wire_value = std::move(*parsed.value);
    judged.repairs = std::move(repairs);
  }
  judged.parsed = true;
  auto value = unlower(judged.wire_value, lowering);
  // Parsed as sent with nothing to unlower: the issues are the document's.
  judged.issues = parsed_as_sent ? std::move(as_sent->issues) : validator.validate(value);
  if (!judged.issues.empty() && repair.policy != RepairPolicy::off && repair.json_schema) {
    auto changes = repair_to_valid(value, *repair.json_schema, validator, repair.policy);
    if (!changes.empty()) {
      judged.issues.clear();
      judged.repairs.insert(judged.repairs.end(), changes.begin(), changes.end());
    }
  }
  judged.value = JudgedValue(std::move(value));
  return judged;
}

}  // namespace

std::uint64_t reply_trees_built() {
  return reply_trees.load(std::memory_order_relaxed);
}

nlohmann::json tree_of_reply(JudgedValue&& value) {
  if (value.document() != nullptr) count_reply_tree();
  return std::move(value).to_json();
}

Judged judge_text(std::string_view text, const Lowering& lowering, const Validator& validator,
                  const RepairSetup& repair) {
  // A repeated key is an issue, not the last value: a streamed part is judged as it closes, so
  // only then can an early stop never differ from the whole reply's verdict.
  if (!nothing_to_unlower(lowering, text)) {
    return judge_as_tree(text, lowering, validator, repair, nullptr);
  }
  ValidationResult verdict = validator.parse_and_validate(text, kReplyLimits);
  // Valid as sent, the common case: the document is the value, moved once, into the Judged
  // returned.
  if (verdict.ok())
    return Judged{.value = JudgedValue(std::move(*verdict.document)), .parsed = true};
  return judge_as_tree(text, lowering, validator, repair, &verdict);
}

namespace {

Path redacted(const Path& path, const Client& client) {
  std::vector<PathSegment> segments = path.segments();
  for (auto& segment : segments) {
    if (auto* key = std::get_if<std::string>(&segment)) *key = client.redacted(std::move(*key));
  }
  return Path(std::move(segments));
}

}  // namespace

void redact(Attempt& attempt, const Client& client) {
  attempt.content = client.redacted(std::move(attempt.content));
  attempt.note = client.redacted(std::move(attempt.note));  // may quote a key the model sent
  redact(attempt.issues, client);
  redact(attempt.repairs, client);
}

void redact(Repairs& repairs, const Client& client) {
  for (auto& repair : repairs) {
    repair.path = redacted(repair.path, client);
    repair.before = client.redacted(std::move(repair.before));
    repair.after = client.redacted(std::move(repair.after));
  }
}

void redact(Issues& issues, const Client& client) {
  for (auto& issue : issues) {
    issue.message = client.redacted(std::move(issue.message));
    issue.path = redacted(issue.path, client);
  }
}

void redact(Trace& trace, const Client& client) {
  for (auto& attempt : trace.attempts) redact(attempt, client);
}

void redact(Error& error, const Client& client) {
  error.message = valid_utf8(client.redacted(std::move(error.message)));
  redact(error.trace, client);
}

Error invalid_after(std::size_t attempts, const Issues& issues, Trace trace) {
  return Error{ErrorKind::invalid_after_retries,
               fmt::format("still invalid after {} attempt{}: {}", attempts,
                           attempts == 1 ? "" : "s", prettify_one_line(issues)),
               std::move(trace)};
}

bool cut_with_marker(std::string& text, std::size_t limit, std::string_view what) {
  if (text.size() <= limit) return false;
  const std::size_t left_out = text.size() - limit;
  text = valid_utf8(std::string_view(text).substr(0, limit)) +
         fmt::format("...[{} more bytes of {} not repeated]", left_out, what);
  return true;
}

std::string echoed_issues(const Issues& issues) {
  std::string listed = prettify(issues);
  cut_with_marker(listed, kEchoedIssuesBytes, "the issues");
  return listed;
}

namespace {

// Whether content blocks as received hold a signed thinking block: Anthropic's thinking and
// redacted_thinking, Converse's reasoningContent.
bool holds_thinking(const nlohmann::ordered_json& blocks) {
  return std::any_of(blocks.begin(), blocks.end(), [](const nlohmann::ordered_json& block) {
    if (!block.is_object()) return false;
    const auto type = block.find("type");
    const bool typed_thinking = type != block.end() && type->is_string() &&
                                (*type == "thinking" || *type == "redacted_thinking");
    return typed_thinking || block.contains("reasoningContent");
  });
}

// Content blocks as received (Anthropic's, Converse's) with their visible output cut as the
// turn's own text is: a text block's text cut with a marker, a tool input past the limit sent
// empty (as a cut, unparsable argument text is). Every other block stays whole whatever its
// size: a thinking block and its signature, which Claude wants first in an echoed turn while
// thinking is on, and which a changed byte would invalidate.
void cut_visible_blocks(nlohmann::ordered_json& blocks) {
  for (auto& block : blocks) {
    if (!block.is_object()) continue;
    if (const auto text = block.find("text"); text != block.end() && text->is_string()) {
      auto visible = text->get<std::string>();
      if (cut_with_marker(visible, kEchoedReplyBytes, "the reply")) *text = std::move(visible);
    }
    const auto tool_use = block.find("toolUse");
    auto& call = tool_use != block.end() && tool_use->is_object() ? *tool_use : block;
    if (const auto input = call.find("input");
        input != call.end() && input->dump().size() > kEchoedReplyBytes) {
      *input = nlohmann::ordered_json::object();
    }
  }
}

// The model's reply as echoed back: each corrective request resends the whole conversation, so
// an echo of a huge reply is cut (the issues say what to fix; the model does not need its whole
// output again). The provider's own copy of the message, which would repeat it, is dropped, but
// for content blocks holding a thinking block: those are kept, their visible output cut the same
// way.
Turn echoed(const Turn& assistant) {
  Turn turn = assistant;
  bool cut = cut_with_marker(turn.text, kEchoedReplyBytes, "the reply");
  for (auto& call : turn.tool_calls) {
    cut = cut_with_marker(call.arguments_text, kEchoedReplyBytes, "the arguments") || cut;
  }
  // Only content blocks that may hold thinking are read to a tree, to be edited.
  const std::string& sent = turn.raw.text();
  if (turn.raw.is_array() && (sent.find("thinking") != std::string::npos ||
                              sent.find("reasoningContent") != std::string::npos)) {
    auto blocks = turn.raw.tree();
    if (holds_thinking(blocks)) {
      cut_visible_blocks(blocks);
      turn.raw = ProviderMessage(blocks);
      return turn;
    }
  }
  if (cut || sent.size() > 2 * kEchoedReplyBytes) turn.raw = {};
  return turn;
}

}  // namespace

void append_correction(std::vector<Turn>& turns, const Reply& reply, const Issues& issues,
                       OutputMode mode, const std::string& output_name) {
  const std::string text = "That JSON failed validation:\n" + echoed_issues(issues) +
                           "\nReturn the corrected JSON only.";
  turns.push_back(echoed(reply.assistant));
  if (mode == OutputMode::forced_tool && !reply.assistant.tool_calls.empty()) {
    Turn results{.role = Turn::Role::tool_results};
    const auto& call = reply.assistant.tool_calls.front();
    results.results.push_back({call.id, call.name.empty() ? output_name : call.name, text, true});
    turns.push_back(std::move(results));
  } else {
    turns.push_back(Turn{.role = Turn::Role::user, .text = text});
  }
}

}  // namespace accord::detail
