#pragma once
// The Report: where every rule the user wrote went on its way to the model.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "accord/path.hpp"
#include "accord/rule_id.hpp"

namespace accord {

enum class Fate {
  keyword,      // sent as a JSON Schema keyword the provider enforces or reads
  description,  // stated in words in the description; still enforced locally
  local_only,   // the model never sees it; only the local Validator enforces it
  dropped,      // neither sent nor enforced; only allowed for rules that cannot be checked
};

[[nodiscard]] std::string_view to_string(Fate fate);

struct ReportEntry {
  Path path;            // where the rule sits in the schema (value path: `items[]` for array items)
  std::string rule;     // the rule as the user wrote it: `regex /^ORD-\d{6}$/`, `refine: no links`
  std::string keyword;  // the JSON Schema keyword it became (empty for refinements)
  Fate fate = Fate::keyword;
  std::string why;             // one sentence: why this fate (empty for plain keywords)
  std::string stage = "emit";  // who decided the fate: `emit`, or the provider that lowered it
  // The rule's stable identity (see rule_id.hpp). Report::add fills it from `path` and `keyword`
  // when empty, and numbers it among the entries of the same node and kind; lowering keeps it.
  RuleId id = {};

  friend bool operator==(const ReportEntry&, const ReportEntry&) = default;
};

// Read-only for users: emit(), import_json_schema() and each provider's lowering write it.
class Report {
 public:
  [[nodiscard]] const std::vector<ReportEntry>& entries() const { return entries_; }

  // Entries whose rule the model will not see as an enforced keyword.
  [[nodiscard]] std::vector<ReportEntry> not_keywords() const;
  [[nodiscard]] std::vector<ReportEntry> with_fate(Fate fate) const;
  // The entry with this id, or nullptr: where one rule went, in this provider's Report.
  [[nodiscard]] const ReportEntry* find(const RuleId& id) const;

  // [{"id": "...", "path": "...", "rule": "...", "keyword": "...", "fate": "...", "why": "...",
  // "stage": "..."}]
  [[nodiscard]] nlohmann::ordered_json to_json() const;
  // A fixed-width table a person reads on a terminal.
  [[nodiscard]] std::string to_table() const;

  // How the library writes a Report (src/schema/report_writer.hpp): declared here for the
  // library, complete only there; no part of the API.
  class Writer;

 private:
  // Appends an entry and gives it its id (the first rule of a kind at a place is number 0).
  void add(ReportEntry entry);
  std::vector<ReportEntry> entries_;
  std::unordered_map<std::string, std::size_t> kinds_seen_;  // pointer and kind -> entries so far
};

}  // namespace accord
