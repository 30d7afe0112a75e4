#include "issue_tally.hpp"

#include <accord/printable.hpp>
#include <variant>

namespace accord_cli {
namespace {

std::string folded(const accord::Path& path) {
  std::string out;
  for (const auto& segment : path.segments()) {
    if (std::holds_alternative<std::size_t>(segment)) {
      out += "[]";
    } else {
      if (!out.empty()) out += '.';
      out += std::get<std::string>(segment);
    }
  }
  return out;
}

}  // namespace

void IssueTally::add(const accord::Issues& issues) {
  for (const auto& issue : issues) {
    Row row{std::string(accord::to_string(issue.code)), folded(issue.path)};
    if (auto found = rows_.find(row); found != rows_.end()) {
      ++found->second;
    } else if (rows_.size() < kMaxRows) {
      rows_.emplace(std::move(row), 1);
    } else {
      ++others_;
    }
  }
}

std::multimap<std::size_t, const IssueTally::Row*, std::greater<>> IssueTally::by_count() const {
  std::multimap<std::size_t, const Row*, std::greater<>> out;
  for (const auto& [row, count] : rows_) out.emplace(count, &row);
  return out;
}

void IssueTally::print(std::ostream& out) const {
  out << "issues by code and path:\n";
  for (const auto& [count, row] : by_count()) {
    out << "  " << count << " " << row->first << " at "
        << (row->second.empty() ? "the root" : accord::printable(row->second)) << "\n";
  }
  if (others_ > 0) out << "  " << others_ << " more at other paths\n";
}

nlohmann::ordered_json IssueTally::to_json() const {
  auto rows = nlohmann::ordered_json::array();
  for (const auto& [count, row] : by_count()) {
    rows.push_back({{"code", row->first}, {"path", row->second}, {"count", count}});
  }
  if (others_ > 0) rows.push_back({{"code", nullptr}, {"path", nullptr}, {"count", others_}});
  return rows;
}

}  // namespace accord_cli
