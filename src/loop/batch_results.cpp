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

// The item id a result line names (under `member`) in its first bytes, for a line that cannot be
// read whole. Ours are plain ("item-12"), so a value with an escape is not ours.
std::string custom_id_in_head(std::string_view head, std::string_view member) {
  const std::string key = "\"" + std::string(member) + "\"";
  const auto at = head.find(key);
  if (at == std::string_view::npos) return {};
  head.remove_prefix(at + key.size());
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

// Keeps the answer one parsed result line gives the item `id` names.
void keep_line(const BatchProtocol& protocol, const std::string& id, const ordered_json& line,
               BatchAnswers& answers) {
  try {
    keep(answers, id, protocol.answer_in(line));
  } catch (const nlohmann::json::exception& e) {
    keep(answers, id,
         {std::nullopt,
          std::string("its result line has a shape accord does not read: ") + e.what()});
  }
}

}  // namespace

void keep_inline_results(const BatchProtocol& protocol, const std::vector<ordered_json>& lines,
                         const std::vector<BatchItem>& items, BatchAnswers& answers) {
  // Results are in the order of the requests, so a line without its id is its item's when the
  // counts agree; otherwise it cannot be placed, and its item ends without a result.
  const bool by_position = lines.size() == items.size();
  for (std::size_t at = 0; at < lines.size(); ++at) {
    const auto& line = lines[at];
    std::string id = line.is_object() ? string_or_empty(line, protocol.id_member()) : "";
    if (id.empty() && by_position) id = items[at].custom_id;
    if (!id.empty()) keep_line(protocol, id, line, answers);
  }
}

void read_results(const BatchProtocol& protocol, const std::string& url, BatchAnswers& answers,
                  std::size_t max_line_bytes) {
  const auto on_line = [&](std::string_view text) {
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) return;
    const std::string line_text = protocol.redact(std::string(text));
    const auto line = ordered_json::parse(line_text, nullptr, false);
    const std::string id = line.is_object() ? string_or_empty(line, protocol.id_member()) : "";
    if (id.empty()) {
      keep(answers, custom_id_in_head(line_text, protocol.id_member()),
           {std::nullopt,
            fmt::format("its result line is not a JSON object with a {}", protocol.id_member())});
      return;
    }
    keep_line(protocol, id, line, answers);
  };
  const auto on_overlong = [&](std::string_view head) {
    keep(answers, custom_id_in_head(protocol.redact(std::string(head)), protocol.id_member()),
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
