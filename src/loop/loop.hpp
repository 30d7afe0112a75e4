#pragma once
// What the extraction loop (client.cpp) and the tool loop (tools.cpp) share: reading a reply's
// status as an error, judging output text against a contract, and the corrective turns.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/client.hpp"

namespace accord::detail {

std::string one_line(std::string text);

// The Error a reply stands for, or nullopt when its status is ok. An exchange that never got an
// HTTP answer is a transport error whatever the reply says. The trace is left empty.
[[nodiscard]] std::optional<Error> reply_error(const Exchange& exchange, OutputMode mode);

// What a reply may have repaired before it is judged, and against which schema.
struct RepairSetup {
  RepairPolicy policy = RepairPolicy::off;
  const nlohmann::ordered_json* json_schema = nullptr;  // the original, before lowering
  std::optional<bool> root_is_array;                    // of the wire: what the text holds
};
[[nodiscard]] RepairSetup repair_setup(const Contract& contract, RepairPolicy policy);

// Output text judged the way the user's rules say: parsed (a parse failure, or a key repeated in
// one object, is an issue), unlowered, then validated. With repairs allowed, text that does not
// parse is read through its slips, and the scalars of an invalid value are coerced; the coerced
// value is taken only when that makes it valid, so the issues a correction quotes are those of
// the value as the model meant it, never of a guess.
// The text is parsed once, to a document: a valid value with nothing to unlower stays that
// document (no tree is built); a tree is made only for unlowering, a repair or a correction.
struct Judged {
  JudgedValue value{nlohmann::json()};
  Issues issues;
  bool parsed = false;
  // As parsed, before unlowering: where a scoped correction merges. Set only when the value is
  // not valid as sent (a correction may follow).
  nlohmann::json wire_value;
  Repairs repairs;
};
[[nodiscard]] Judged judge_text(std::string_view text, const Lowering& lowering,
                                const Validator& validator, const RepairSetup& repair = {});

// How many trees of reply values the loop has built in this process (judging a reply, or
// handing its value to a caller who asked for a tree): a typed extract whose reply needed none
// builds none. For tests.
[[nodiscard]] std::uint64_t reply_trees_built();
// A judged value as a tree (counted when built here from the parsed document).
[[nodiscard]] nlohmann::json tree_of_reply(JudgedValue&& value);

// The records as kept: the key out of the attempt's content and its issues' messages and paths
// (a hostile server can echo the key into the model's output), or out of an error's message and
// trace; messages made valid UTF-8.
void redact(Attempt& attempt, const Client& client);
void redact(Issues& issues, const Client& client);
void redact(Repairs& repairs, const Client& client);
void redact(Trace& trace, const Client& client);
void redact(Error& error, const Client& client);

// "still invalid after N attempts: <issues>"
[[nodiscard]] Error invalid_after(std::size_t attempts, const Issues& issues, Trace trace);

// The most of one reply (text or tool arguments) and of its issue list a corrective turn repeats;
// longer ones are cut with a marker, so each corrective request stays bounded.
inline constexpr std::size_t kEchoedReplyBytes = 16 * 1024;
inline constexpr std::size_t kEchoedIssuesBytes = 8 * 1024;

// `text` cut to `limit` bytes with a marker saying how much of `what` was left out; true when cut.
bool cut_with_marker(std::string& text, std::size_t limit, std::string_view what);
// The issues as a corrective turn lists them, cut at kEchoedIssuesBytes.
[[nodiscard]] std::string echoed_issues(const Issues& issues);

// The turns that tell the model what was wrong with its last reply.
void append_correction(std::vector<Turn>& turns, const Reply& reply, const Issues& issues,
                       OutputMode mode, const std::string& output_name);

// Extra headers and an extra body are written for one endpoint (a gateway's token, a provider's
// own body members): a fallback, another endpoint, is sent neither.
inline void drop_endpoint_extras(RequestParameters& parameters) {
  parameters.extra_headers.clear();
  parameters.extra_body = nullptr;
}

}  // namespace accord::detail
