#pragma once
// What the DSL tests share: a refinement predicate that accepts anything (the rule is what is
// under test, not its verdict) and the one problem a schema was built with.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "accord/schema.hpp"

namespace accord::testing_schemas {

inline bool pass(const nlohmann::json&) {
  return true;
}

// The one problem a schema was built with; fails the test when there is not exactly one.
inline SchemaProblem only_problem(const Schema& schema) {
  const auto& problems = schema.node().problems;
  EXPECT_EQ(problems.size(), 1u);
  return problems.empty() ? SchemaProblem{} : problems.front();
}

inline std::string only_message(const Schema& schema) {
  return only_problem(schema).message;
}

}  // namespace accord::testing_schemas
