#include "accord/issue.hpp"

#include <algorithm>
#include <charconv>

#include "accord/issue_json.hpp"
#include "core/json_dump.hpp"

namespace accord {

using namespace std::string_view_literals;

std::string_view to_string(IssueCode code) {
  switch (code) {
    case IssueCode::invalid_type:
      return "invalid_type";
    case IssueCode::too_small:
      return "too_small";
    case IssueCode::too_big:
      return "too_big";
    case IssueCode::invalid_format:
      return "invalid_format";
    case IssueCode::not_multiple_of:
      return "not_multiple_of";
    case IssueCode::invalid_value:
      return "invalid_value";
    case IssueCode::unrecognized_keys:
      return "unrecognized_keys";
    case IssueCode::invalid_union:
      return "invalid_union";
    case IssueCode::custom:
      return "custom";
    case IssueCode::invalid_json:
      return "invalid_json";
  }
  return "custom";
}

namespace {

// z.prettifyError orders by path length only, keeping the original order among equals.
std::vector<const Issue*> by_path_length(const Issues& issues) {
  std::vector<const Issue*> sorted;
  sorted.reserve(issues.size());
  for (const auto& issue : issues) sorted.push_back(&issue);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Issue* a, const Issue* b) { return a->path.size() < b->path.size(); });
  return sorted;
}

}  // namespace

std::string prettify(const Issues& issues) {
  std::string out;
  for (const Issue* issue : by_path_length(issues)) {
    if (!out.empty()) out += '\n';
    out += "\xE2\x9C\x96 " + issue->message;                                            // ✖
    if (!issue->path.empty()) out += "\n  \xE2\x86\x92 at " + issue->path.to_string();  // →
  }
  return out;
}

std::string prettify_one_line(const Issues& issues) {
  std::string out;
  for (const Issue* issue : by_path_length(issues)) {
    if (!out.empty()) out += "; ";
    out += "\xE2\x9C\x96 " + issue->message;
    if (!issue->path.empty()) out += " \xE2\x86\x92 at " + issue->path.to_string();
  }
  return out;
}

nlohmann::ordered_json to_json(const Issues& issues) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& issue : issues) {
    auto path = nlohmann::ordered_json::array();
    for (const auto& segment : issue.path.segments()) {
      if (const auto* index = std::get_if<std::size_t>(&segment)) {
        path.push_back(*index);
      } else {
        path.push_back(std::get<std::string>(segment));
      }
    }
    nlohmann::ordered_json entry;
    entry["code"] = std::string(to_string(issue.code));
    entry["path"] = std::move(path);
    entry["message"] = issue.message;
    out.push_back(std::move(entry));
  }
  return out;
}

void append_json(const Issues& issues, std::string& out) {
  out += '[';
  for (std::size_t i = 0; i < issues.size(); ++i) {
    const Issue& issue = issues[i];
    if (i > 0) out += ',';
    out += R"({"code":")"sv;
    out += to_string(issue.code);
    out += R"(","path":[)"sv;
    const auto& segments = issue.path.segments();
    for (std::size_t s = 0; s < segments.size(); ++s) {
      if (s > 0) out += ',';
      if (const auto* index = std::get_if<std::size_t>(&segments[s])) {
        char digits[24];
        const char* end = std::to_chars(std::begin(digits), std::end(digits), *index).ptr;
        out.append(digits, static_cast<std::size_t>(end - digits));
      } else {
        detail::append_json_string(std::get<std::string>(segments[s]), out);
      }
    }
    out += R"(],"message":)"sv;
    detail::append_json_string(issue.message, out);
    out += '}';
  }
  out += ']';
}

}  // namespace accord
