#pragma once
// `accord validate`'s closing summary: how many issues of each code were found at each path,
// array indices folded (`lines[].qty`), so a large file's failures read as a few rows.

#include <accord/issue.hpp>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>

namespace accord_cli {

class IssueTally {
 public:
  void add(const accord::Issues& issues);
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
