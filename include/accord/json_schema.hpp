#pragma once
// Schema -> JSON Schema, with a Report entry for every rule.

#include <nlohmann/json.hpp>

#include "accord/report.hpp"
#include "accord/schema.hpp"

namespace accord {

// The JSON Schema dialects, oldest first. The validator reads all five; emit() writes draft-07 or
// 2020-12 (SchemaError for the others).
enum class Dialect { draft04, draft06, draft07, draft2019_09, draft2020_12 };

struct EmitOptions {
  Dialect dialect = Dialect::draft2020_12;
  // Fail with SchemaError when any rule would be enforced only locally (fate local_only).
  bool strict = false;
};

struct EmittedSchema {
  nlohmann::ordered_json
      json;  // deterministic key order: snapshot-testable, and the order models see
  Report report;
};

// Throws SchemaError for a schema with build mistakes, or (strict) with rules the model cannot see.
[[nodiscard]] EmittedSchema emit(const Schema& schema, EmitOptions options = {});

// The description the model reads for a node: the user's text, then each described refinement,
// then each declarative rule ("Rule: refundDate >= orderDate.").
[[nodiscard]] std::string model_description(const SchemaNode& node);

}  // namespace accord
