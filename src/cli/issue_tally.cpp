#include "issue_tally.hpp"

#include <accord/printable.hpp>
#include <variant>

namespace accord_cli {
namespace {

void fold(const accord::Path& path, std::string& out) {
  out.clear();
  for (const auto& segment : path.segments()) {
    if (std::holds_alternative<std::size_t>(segment)) {
      out += "[]";
    } else {
      if (!out.empty()) out += '.';
      out += std::get<std::string>(segment);
    }
  }
}

}  // namespace

void IssueRows::add(const accord::Issues& issues) {
  for (const auto& issue : issues) {
    key_.first = issue.code;
    fold(issue.path, key_.second);
    auto found = numbers_.find(key_);
    if (found == numbers_.end()) {
      found = numbers_.emplace(key_, static_cast<std::uint32_t>(rows_.size())).first;
      rows_.push_back(key_);
    }
    ids_.push_back(found->second);
  }
}

void IssueRows::clear() {
  rows_.clear();
  numbers_.clear();
  ids_.clear();
}

void IssueTally::add(const IssueRows& rows, std::size_t issues) {
  // Each of the batch's rows is looked up once, when it first comes: its count is a kept row's,
  // or others_ past the kept rows, as adding one issue at a time decides.
  std::vector<std::size_t*> counts(rows.rows().size(), nullptr);
  for (std::size_t i = 0; i < issues; ++i) {
    std::size_t*& count = counts[rows.ids()[i]];
    if (count == nullptr) {
      const auto& [code, path] = rows.rows()[rows.ids()[i]];
      Row row{std::string(accord::to_string(code)), path};
      if (auto found = rows_.find(row); found != rows_.end()) {
        count = &found->second;
      } else if (rows_.size() < kMaxRows) {
        count = &rows_.emplace(std::move(row), 0).first->second;
      } else {
        count = &others_;
      }
    }
    ++*count;
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
