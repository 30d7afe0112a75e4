#include "loop/batch_results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "accord/redaction.hpp"
#include "core/line_reader.hpp"
#include "transport/url_origin.hpp"

namespace accord::detail {
namespace {

using nlohmann::ordered_json;

// The custom_id a result line names in its first bytes, for a line that cannot be read whole.
// Ours are plain ("item-12"), so a value with an escape is not ours.
std::string custom_id_in_head(std::string_view head) {
  constexpr std::string_view kKey = "\"custom_id\"";
  const auto at = head.find(kKey);
  if (at == std::string_view::npos) return {};
  head.remove_prefix(at + kKey.size());
  const auto skip_blanks = [&head] {
    head.remove_prefix(std::min(head.size(), head.find_first_not_of(" \t\r")));
  };
  skip_blanks();
  if (!head.starts_with(':')) return {};
  head.remove_prefix(1);
  skip_blanks();
  if (!head.starts_with('"')) return {};
  head.remove_prefix(1);
  const auto end = head.find_first_of("\"\\");
  if (end == std::string_view::npos || head[end] != '"') return {};
  return std::string(head.substr(0, end));
}

// Keeps the answer for `id` when it is one of ours not answered yet: a later line for the same
// item, or any line for an id never submitted, changes nothing.
void keep(BatchAnswers& answers, const std::string& id, BatchAnswer answer) {
  const auto found = answers.find(id);
  if (found != answers.end() && !found->second.read()) found->second = std::move(answer);
}

}  // namespace

void read_results(const BatchProtocol& protocol, const std::string& url, BatchAnswers& answers,
                  std::size_t max_line_bytes) {
  const auto on_line = [&](std::string_view text) {
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) return;
    const std::string line_text = protocol.redact(std::string(text));
    const auto line = ordered_json::parse(line_text, nullptr, false);
    const std::string id = line.is_object() ? string_or_empty(line, "custom_id") : "";
    if (id.empty()) {
      keep(answers, custom_id_in_head(line_text),
           {std::nullopt, "its result line is not a JSON object with a custom_id"});
      return;
    }
    try {
      keep(answers, id, protocol.answer_in(line));
    } catch (const nlohmann::json::exception& e) {
      keep(answers, id,
           {std::nullopt,
            std::string("its result line has a shape accord does not read: ") + e.what()});
    }
  };
  const auto on_overlong = [&](std::string_view head) {
    keep(answers, custom_id_in_head(protocol.redact(std::string(head))),
         {std::nullopt, fmt::format("its result line is over {} bytes, the most one line may take",
                                    max_line_bytes)});
  };
  auto reader = std::make_shared<LineReader>(max_line_bytes, on_line, on_overlong);
  const Headers& headers = protocol.headers();
  HttpRequest request{url, headers, ""};
  request.method = "GET";
  request.body_reader = reader;
  // A key goes to the configured origin only: a results file elsewhere (a pre-signed URL, or a
  // hostile provider's) is asked for without it.
  if (!same_origin(url, protocol.api_url())) {
    const Headers redacted = redacted_headers(headers);
    request.headers.clear();
    for (std::size_t i = 0; i < headers.size(); ++i) {
      if (redacted[i].second == headers[i].second) request.headers.push_back(headers[i]);
    }
  }
  const HttpResponse response = protocol.send(std::move(request));
  // A transport that does not stream hands the body over whole.
  if (reader->untouched()) (void)reader->read(response.body);
  reader->finish();
}

}  // namespace accord::detail
