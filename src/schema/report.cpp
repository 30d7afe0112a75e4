#include "accord/report.hpp"

#include <algorithm>
#include <array>

#include "accord/printable.hpp"
#include "accord/rules.hpp"

namespace accord {

std::string_view to_string(Fate fate) {
  switch (fate) {
    case Fate::keyword:
      return "keyword";
    case Fate::description:
      return "description";
    case Fate::local_only:
      return "local-only";
    case Fate::dropped:
      return "dropped";
  }
  return "?";
}

namespace {

// What an entry's id calls its rule when the writer named no kind: its keyword, the first of a
// joined list, or what the rule is when it has no keyword of its own.
std::string kind_of(const std::string& keyword) {
  if (keyword.empty()) return "refine";
  if (keyword == kRulesKeyword) return "rule";
  return keyword.substr(0, keyword.find(','));
}

}  // namespace

void Report::add(ReportEntry entry) {
  const std::string pointer = entry.id.empty() ? schema_pointer(entry.path) : entry.id.pointer();
  std::string kind = entry.id.empty() ? kind_of(entry.keyword) : entry.id.kind();
  std::size_t& seen = kinds_seen_[pointer + '\0' + kind];
  entry.id = RuleId(pointer, std::move(kind), seen++);
  entries_.push_back(std::move(entry));
}

const ReportEntry* Report::find(const RuleId& id) const {
  const auto found = std::find_if(entries_.begin(), entries_.end(),
                                  [&](const ReportEntry& e) { return e.id == id; });
  return found == entries_.end() ? nullptr : &*found;
}

std::vector<ReportEntry> Report::not_keywords() const {
  std::vector<ReportEntry> out;
  std::copy_if(entries_.begin(), entries_.end(), std::back_inserter(out),
               [](const ReportEntry& e) { return e.fate != Fate::keyword; });
  return out;
}

std::vector<ReportEntry> Report::with_fate(Fate fate) const {
  std::vector<ReportEntry> out;
  std::copy_if(entries_.begin(), entries_.end(), std::back_inserter(out),
               [fate](const ReportEntry& e) { return e.fate == fate; });
  return out;
}

nlohmann::ordered_json Report::to_json() const {
  auto out = nlohmann::ordered_json::array();
  for (const auto& e : entries_) {
    out.push_back({{"id", e.id.to_string()},
                   {"path", e.path.to_string()},
                   {"rule", e.rule},
                   {"keyword", e.keyword},
                   {"fate", to_string(e.fate)},
                   {"why", e.why},
                   {"stage", e.stage}});
  }
  return out;
}

namespace {

// Display width in code points, so a non-ASCII rule does not push its row out of line.
std::size_t width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

}  // namespace

std::string Report::to_table() const {
  using Row = std::array<std::string, 5>;
  std::vector<Row> rows{{"PATH", "RULE", "KEYWORD", "FATE", "WHY"}};
  for (const auto& e : entries_) {
    const auto path = e.path.to_string();
    // A fate decided after emit says who decided it; emit's own is the common case.
    // emit and file are where rules come from; a stage that changed nothing adds no reason.
    const bool origin = e.stage == "emit" || e.stage == "file" || e.stage.empty();
    const auto why = origin || e.why.empty() ? e.why : e.stage + ": " + e.why;
    // Paths, rules and reasons quote the schema (a file's keys and patterns): printed escaped.
    rows.push_back({path.empty() ? "(root)" : printable(path), printable(e.rule),
                    e.keyword.empty() ? "-" : printable(e.keyword), std::string(to_string(e.fate)),
                    printable(why)});
  }
  std::array<std::size_t, 4> widths{};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < widths.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      line += row[i] + std::string(widths[i] - width(row[i]) + 2, ' ');
    }
    line += row[4];
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  }
  return out;
}

}  // namespace accord
