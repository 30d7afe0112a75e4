#pragma once
// Writing a Report, which users only read: emit() and import_json_schema() add an entry per rule,
// and each provider's lowering adds entries and rewrites the fates of existing ones.

#include <utility>
#include <vector>

#include "accord/report.hpp"

namespace accord::detail {

// A writable view of one Report, as a std::span is of a vector: cheap to pass by value, made
// from the Report it writes (implicitly, so code that held a Report& reads the same), and never
// kept past that Report's life.
class ReportWriter {
 public:
  ReportWriter(Report& report) : entries_(&report.entries_) {}  // NOLINT: implicit by design
  void add(ReportEntry entry) const { entries_->push_back(std::move(entry)); }
  [[nodiscard]] std::vector<ReportEntry>& entries() const { return *entries_; }

 private:
  std::vector<ReportEntry>* entries_;
};

}  // namespace accord::detail
