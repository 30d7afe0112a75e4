#include "accord/trace.hpp"

#include <fmt/format.h>

namespace accord {
namespace {

nlohmann::ordered_json usage_json(const Usage& usage) {
  return {{"input_tokens", usage.input_tokens},
          {"output_tokens", usage.output_tokens},
          {"total_tokens", usage.total_tokens}};
}

std::string indented(const std::string& text, const std::string& prefix) {
  std::string out = prefix;
  for (char c : text) {
    out += c;
    if (c == '\n') out += prefix;
  }
  return out;
}

}  // namespace

nlohmann::ordered_json Trace::to_json() const {
  auto attempts_json = nlohmann::ordered_json::array();
  for (const auto& attempt : attempts) {
    attempts_json.push_back({{"request_body", attempt.request_body},
                             {"transport", attempt.transport_log},
                             {"http_status", attempt.http_status},
                             {"status", to_string(attempt.status)},
                             {"content", attempt.content},
                             {"issues", accord::to_json(attempt.issues)},
                             {"usage", usage_json(attempt.usage)},
                             {"elapsed_ms", attempt.elapsed.count()},
                             {"raw_reply", attempt.raw_reply}});
  }
  return {{"attempts", attempts_json}, {"usage", usage_json(usage)}};
}

std::string Trace::to_text() const {
  std::string out;
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const auto& attempt = attempts[i];
    out += fmt::format("attempt {}: HTTP {}, {}, {} ms, tokens in {} / out {}\n", i + 1,
                       attempt.http_status, to_string(attempt.status), attempt.elapsed.count(),
                       attempt.usage.input_tokens, attempt.usage.output_tokens);
    for (const auto& line : attempt.transport_log) out += "  transport: " + line + "\n";
    if (!attempt.content.empty()) out += "  reply: " + attempt.content + "\n";
    if (!attempt.issues.empty()) out += indented(prettify(attempt.issues), "    ") + "\n";
  }
  out += fmt::format("total tokens: in {} / out {} / total {}", usage.input_tokens,
                     usage.output_tokens, usage.total_tokens);
  return out;
}

}  // namespace accord
