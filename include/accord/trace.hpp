#pragma once
// Every attempt of a call, as it happened: what was sent (credentials redacted), what came back.

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/issue.hpp"
#include "accord/path.hpp"
#include "accord/repair.hpp"
#include "accord/reply.hpp"

namespace accord {

// Why an attempt was sent.
enum class AttemptRole {
  first,              // the request as the caller made it
  scoped_correction,  // only the failing values asked for, to be merged into the previous object
  whole_correction,   // the whole object asked for again, with the issues
  continuation,       // a truncated output continued from where it stopped
  raised_cap,         // a truncated request sent again with a higher output cap
  tool_results,       // run_tools: the next turn, carrying the results of the tools called
};
[[nodiscard]] std::string_view to_string(AttemptRole role);

// How a streamed reply arrived (StreamOptions); `streamed` is false for a reply read whole.
struct StreamRecord {
  bool streamed = false;
  std::size_t events = 0;  // server-sent events received
  std::size_t bytes = 0;   // bytes of the event stream received
  // Where a part that had closed broke a rule and the stream was stopped (stop_at_first_issue).
  std::optional<Path> stopped_at;
  // Events after the provider's last one (`[DONE]`, `message_stop`, `response.completed`, an
  // error event): not the reply's, ignored.
  std::size_t ignored_after_end = 0;
  // Asked to stream, the server sent one body that is not an event stream: read as the
  // provider's reply sent whole.
  bool read_whole = false;
};

struct Attempt {
  // The JSON text sent, as sent (carries no credentials). Kept as text: parsing every body back
  // into a tree cost an eighth of an extraction's CPU, for a record that is rarely read.
  std::string request_body;
  std::vector<std::string>
      transport_log;     // one line per transport try: "503, retried after 500 ms"
  long http_status = 0;  // 0 when no response arrived
  // The HTTP body as received (truncated to 64 KiB); for a streamed reply, the body its events
  // make, as the provider sends it unstreamed (the event framing is not kept).
  std::string raw_reply;
  ReplyStatus status = ReplyStatus::bad_reply;
  std::string content;  // the model's output text (or refusal / partial text)
  Issues issues;        // parse and validation issues of `content` (as repaired, when repaired)
  // What was repaired in `content` before it was judged (ClientOptions::repair); `content`
  // stays as the model wrote it.
  Repairs repairs;
  Usage usage;
  std::chrono::milliseconds elapsed{0};
  AttemptRole role = AttemptRole::first;
  // What the loop made of the reply, when there is more to say than `issues`: the merge of a
  // scoped correction, a fallback, a continuation joined, a budget that stopped the call.
  std::string note;
  StreamRecord stream;
  // Who the attempt went to (a call with fallbacks may try several): accord's provider name and
  // the model as requested.
  std::string provider;
  std::string model;
};

struct Trace {
  std::vector<Attempt> attempts;
  Usage usage;  // summed over attempts
  // What the usage cost by ClientOptions::prices, in its currency; nullopt without a price for
  // the model.
  std::optional<double> cost;

  // Who gave the call's last reply, its last attempt's provider and model: on a value, the one
  // that answered. Empty when no attempt was made.
  [[nodiscard]] std::string provider() const;
  [[nodiscard]] std::string model() const;

  [[nodiscard]] nlohmann::ordered_json to_json() const;
  // Readable, for stderr: one block per attempt.
  [[nodiscard]] std::string to_text() const;
};

}  // namespace accord
