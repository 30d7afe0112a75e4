#pragma once
// `accord validate`'s closing summary: how many issues of each code were found at each path,
// array indices folded (`lines[].qty`), so a large file's failures read as a few rows.
//
// The judging threads fold their documents' issues into IssueRows, one per batch of documents;
// the printing thread adds each batch's rows to the one IssueTally in input order, a step per
// issue and a lookup per distinct row, never per issue.

#include <accord/issue.hpp>
#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace accord_cli {

// The issues of a run of documents, in order, each as the number of its row (code and folded
// path); the rows in the order they first came.
class IssueRows {
 public:
  using Row = std::pair<accord::IssueCode, std::string>;  // code, folded path

  void add(const accord::Issues& issues);
  void clear();
  // How many issues were added so far: where the next document's begin.
  [[nodiscard]] std::size_t issues() const { return ids_.size(); }
  [[nodiscard]] const std::vector<Row>& rows() const { return rows_; }
  [[nodiscard]] const std::vector<std::uint32_t>& ids() const { return ids_; }

 private:
  std::vector<Row> rows_;
  std::map<Row, std::uint32_t> numbers_;  // row -> its place in rows_
  std::vector<std::uint32_t> ids_;        // one per issue
  Row key_;                               // reused for each issue's lookup
};

class IssueTally {
 public:
  // The first `issues` issues of `rows`, as if each were added one after another.
  void add(const IssueRows& rows, std::size_t issues);
  [[nodiscard]] bool empty() const { return rows_.empty() && others_ == 0; }
  // "issues by code and path:" and one row a line, the most frequent first.
  void print(std::ostream& out) const;
  // [{"code", "path", "count"}], the most frequent first.
  [[nodiscard]] nlohmann::ordered_json to_json() const;

 private:
  // Distinct rows kept; issues past them (keys made up by a hostile input) are counted apart.
  static constexpr std::size_t kMaxRows = 1000;
  using Row = std::pair<std::string, std::string>;  // code, folded path
  [[nodiscard]] std::multimap<std::size_t, const Row*, std::greater<>> by_count() const;

  std::map<Row, std::size_t> rows_;
  std::size_t others_ = 0;
};

}  // namespace accord_cli
