#pragma once
// Writing a Report, which users only read: emit() and import_json_schema() add an entry per rule,
// and each provider's lowering adds entries and rewrites the fates of existing ones.

#include <utility>
#include <vector>

#include "accord/report.hpp"

namespace accord {

// A writable view of one Report, as a std::span is of a vector: cheap to pass by value, made
// from the Report it writes (implicitly, so code that held a Report& reads the same), and never
// kept past that Report's life.
class Report::Writer {
 public:
  Writer(Report& report) : report_(&report) {}  // NOLINT: implicit by design
  // Adds an entry with its stable id (Report::add numbers a kind's rules at one place).
  void add(ReportEntry entry) const { report_->add(std::move(entry)); }
  // Lowering rewrites fates and keywords in place; an entry's id never changes.
  [[nodiscard]] std::vector<ReportEntry>& entries() const { return report_->entries_; }

 private:
  Report* report_;
};

namespace detail {
using ReportWriter = Report::Writer;
}  // namespace detail

}  // namespace accord
