#include "accord/trace.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "accord/json_text.hpp"
#include "accord/printable.hpp"
#include "core/utf8.hpp"

namespace accord {
namespace {

nlohmann::ordered_json usage_json(const Usage& usage) {
  nlohmann::ordered_json out{{"input_tokens", usage.input_tokens},
                             {"output_tokens", usage.output_tokens},
                             {"total_tokens", usage.total_tokens}};
  // Only usage with cached input says so: other records keep their shape.
  if (usage.cache_read_input_tokens > 0)
    out["cache_read_input_tokens"] = usage.cache_read_input_tokens;
  if (usage.cache_write_input_tokens > 0)
    out["cache_write_input_tokens"] = usage.cache_write_input_tokens;
  // Only an estimate says so: counts the provider gave keep their shape.
  if (usage.estimated) out["estimated"] = true;
  return out;
}

// A count for people: an estimate is marked where it is read.
std::string count_text(std::int64_t tokens, const Usage& usage) {
  return usage.estimated ? fmt::format("~{}", tokens) : std::to_string(tokens);
}

std::string estimate_text(const Usage& usage, std::string_view what) {
  return usage.estimated ? fmt::format(" ({})", what) : std::string();
}

// Replies are kept as received (a hostile body, or one cut at the 64 KiB limit mid-character, is
// not UTF-8), but what is rendered must be text that dump() accepts.
std::vector<std::string> valid_lines(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (const auto& line : lines) out.push_back(detail::valid_utf8(line));
  return out;
}

nlohmann::ordered_json valid_issues(const Issues& issues) {
  Issues out = issues;
  for (auto& issue : out) {
    issue.message = detail::valid_utf8(issue.message);
    std::vector<PathSegment> segments = issue.path.segments();
    for (auto& segment : segments) {
      if (auto* key = std::get_if<std::string>(&segment)) *key = detail::valid_utf8(*key);
    }
    issue.path = Path(std::move(segments));
  }
  return accord::to_json(out);
}

// The body sent, as JSON in the record (its key order kept); text that does not parse, which
// accord never sends, stays a string rather than vanishing.
nlohmann::ordered_json sent_body(const std::string& text) {
  if (text.empty()) return nullptr;
  auto parsed = parse_ordered_json(text, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return detail::valid_utf8(text);
  return parsed;
}

nlohmann::ordered_json repairs_json(const Repairs& repairs) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& repair : repairs)
    out.push_back({{"kind", to_string(repair.kind)},
                   {"path", detail::valid_utf8(repair.path.to_string())},
                   {"before", detail::valid_utf8(repair.before)},
                   {"after", detail::valid_utf8(repair.after)}});
  return out;
}

nlohmann::ordered_json stream_json(const StreamRecord& stream) {
  nlohmann::ordered_json out{{"events", stream.events}, {"bytes", stream.bytes}};
  out["stopped_at"] =
      stream.stopped_at ? nlohmann::ordered_json(detail::valid_utf8(stream.stopped_at->to_string()))
                        : nlohmann::ordered_json(nullptr);
  if (stream.ignored_after_end > 0) out["ignored_after_end"] = stream.ignored_after_end;
  if (stream.read_whole) out["read_whole"] = true;
  return out;
}

}  // namespace

std::string_view to_string(AttemptRole role) {
  switch (role) {
    case AttemptRole::first:
      return "first";
    case AttemptRole::scoped_correction:
      return "scoped_correction";
    case AttemptRole::whole_correction:
      return "whole_correction";
    case AttemptRole::continuation:
      return "continuation";
    case AttemptRole::raised_cap:
      return "raised_cap";
    case AttemptRole::tool_results:
      return "tool_results";
  }
  return "unknown";
}

nlohmann::ordered_json Trace::to_json() const {
  auto attempts_json = nlohmann::ordered_json::array();
  for (const auto& attempt : attempts) {
    attempts_json.push_back({{"provider", attempt.provider},
                             {"model", detail::valid_utf8(attempt.model)},
                             {"role", to_string(attempt.role)},
                             {"request_body", sent_body(attempt.request_body)},
                             {"transport", valid_lines(attempt.transport_log)},
                             {"http_status", attempt.http_status},
                             {"status", to_string(attempt.status)},
                             {"content", detail::valid_utf8(attempt.content)},
                             {"issues", valid_issues(attempt.issues)},
                             {"note", detail::valid_utf8(attempt.note)},
                             {"usage", usage_json(attempt.usage)},
                             {"elapsed_ms", attempt.elapsed.count()},
                             {"raw_reply", detail::valid_utf8(attempt.raw_reply)}});
    // Only an attempt with repairs or a stream says so: other records keep their shape.
    if (!attempt.repairs.empty()) attempts_json.back()["repairs"] = repairs_json(attempt.repairs);
    if (attempt.stream.streamed) attempts_json.back()["stream"] = stream_json(attempt.stream);
  }
  nlohmann::ordered_json out{{"provider", provider()},
                             {"model", detail::valid_utf8(model())},
                             {"attempts", attempts_json},
                             {"usage", usage_json(usage)}};
  if (cost) out["cost"] = *cost;
  return out;
}

std::string Trace::provider() const {
  return attempts.empty() ? std::string() : attempts.back().provider;
}

std::string Trace::model() const {
  return attempts.empty() ? std::string() : attempts.back().model;
}

std::string Trace::to_text() const {
  // Each attempt names who it went to only when the call tried more than one (fallbacks): a
  // single provider's trace reads as before.
  const bool several = std::any_of(attempts.begin(), attempts.end(), [&](const Attempt& attempt) {
    return attempt.provider != attempts.front().provider || attempt.model != attempts.front().model;
  });
  std::string out;
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const auto& attempt = attempts[i];
    // The first attempt needs no role: it is the caller's own request.
    const std::string role = attempt.role == AttemptRole::first
                                 ? std::string()
                                 : fmt::format(" ({})", to_string(attempt.role));
    const Usage& used = attempt.usage;
    const std::string to =
        several ? fmt::format(" to {} {}", attempt.provider, printable(attempt.model)) : "";
    out +=
        fmt::format("attempt {}{}{}: HTTP {}, {}, {} ms, tokens in {} / out {}{}\n", i + 1, to,
                    role, attempt.http_status, to_string(attempt.status), attempt.elapsed.count(),
                    count_text(used.input_tokens, used), count_text(used.output_tokens, used),
                    estimate_text(used, "estimated: the reply ended before the provider's count"));
    // Every piece from outside is printable: a reply cannot drive the terminal or write a line
    // of its own that looks like "attempt 1: ...".
    for (const auto& line : attempt.transport_log) out += "  transport: " + printable(line) + "\n";
    if (attempt.stream.streamed) {
      out +=
          fmt::format("  stream: {} events, {} bytes", attempt.stream.events, attempt.stream.bytes);
      if (attempt.stream.stopped_at)
        out += ", stopped early at " + printable(attempt.stream.stopped_at->to_string());
      if (attempt.stream.ignored_after_end > 0)
        out += fmt::format(", {} after the last event ignored", attempt.stream.ignored_after_end);
      if (attempt.stream.read_whole) out += ", not an event stream: read as a reply sent whole";
      out += "\n";
    }
    if (!attempt.content.empty()) out += "  reply: " + printable(attempt.content) + "\n";
    for (const auto& repair : attempt.repairs) out += "  repaired: " + describe(repair) + "\n";
    if (!attempt.issues.empty()) out += prettify_printable(attempt.issues, "    ") + "\n";
    if (!attempt.note.empty()) out += "  loop: " + printable(attempt.note) + "\n";
  }
  out += fmt::format("total tokens: in {} / out {} / total {}{}",
                     count_text(usage.input_tokens, usage), count_text(usage.output_tokens, usage),
                     count_text(usage.total_tokens, usage), estimate_text(usage, "some estimated"));
  if (usage.cache_read_input_tokens > 0 || usage.cache_write_input_tokens > 0) {
    out += fmt::format(" (input from cache {}, written to cache {})", usage.cache_read_input_tokens,
                       usage.cache_write_input_tokens);
  }
  return out;
}

}  // namespace accord
