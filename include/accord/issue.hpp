#pragma once
// Issues found in a value, and their Zod-style rendering.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/path.hpp"

namespace accord {

enum class IssueCode {
  invalid_type,
  too_small,
  too_big,
  invalid_format,
  not_multiple_of,
  invalid_value,
  unrecognized_keys,
  invalid_union,
  custom,
  invalid_json,
};

[[nodiscard]] std::string_view to_string(IssueCode code);

struct Issue {
  IssueCode code;
  Path path;
  std::string message;

  friend bool operator==(const Issue&, const Issue&) = default;
};

using Issues = std::vector<Issue>;

// z.prettifyError's layout: issues at shorter paths first (stable), each `✖ message`, then
// `  → at path` when the path is not the root; lines joined with '\n', no trailing newline.
[[nodiscard]] std::string prettify(const Issues& issues);
// The same on one line: `✖ message → at path; ✖ message`.
[[nodiscard]] std::string prettify_one_line(const Issues& issues);
[[nodiscard]] nlohmann::ordered_json to_json(const Issues& issues);

}  // namespace accord
