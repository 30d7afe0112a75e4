// SchemaError's constructor. Temporary home until the core's src/schema.cpp defines it.
#include "accord/schema.hpp"

namespace accord {
namespace {

std::string describe(const std::vector<SchemaProblem>& problems) {
  std::string out = "invalid schema";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    out += i == 0 ? ": " : "; ";
    const auto where = problems[i].path.to_string();
    out += (where.empty() ? std::string("(root)") : where) + ": " + problems[i].message;
  }
  return out;
}

}  // namespace

SchemaError::SchemaError(std::vector<SchemaProblem> problems)
    : std::invalid_argument(describe(problems)), problems_(std::move(problems)) {}

}  // namespace accord
