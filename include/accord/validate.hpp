#pragma once
// A Validator compiled once from a Schema (or a JSON Schema document) and reused.
//
// Order of checks, as in Zod 4: valijson judges the value against the full emitted JSON Schema
// (pattern through RE2 and formats through accord's own checks); issues are reported with Zod's
// messages. A field's refinements run when the field has the right type; an object's refinements
// and declarative rules (rules.hpp, `x-accord-rules`) run unless some issue inside it is a type
// mismatch or a missing field.

#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#include "accord/issue.hpp"
#include "accord/json_text.hpp"
#include "accord/schema.hpp"

namespace accord {

struct ValidationResult {
  std::optional<nlohmann::json> value;  // the parsed value (set even when it has issues)
  Issues issues;
  [[nodiscard]] bool ok() const { return value.has_value() && issues.empty(); }
};

class Validator {
 public:
  // Throws SchemaError for a schema with mistakes.
  explicit Validator(const Schema& schema);
  // A plain JSON Schema (draft-07 or 2020-12 keywords valijson knows); throws SchemaError with the
  // path of the first problem for a document that is not a usable schema.
  [[nodiscard]] static Validator from_json_schema(const nlohmann::ordered_json& json_schema);

  // Safe to call from several threads at once.
  [[nodiscard]] Issues validate(const nlohmann::json& value) const;
  [[nodiscard]] ValidationResult parse_and_validate(std::string_view text,
                                                    ParseLimits limits = {}) const;

  struct Impl;

 private:
  explicit Validator(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace accord
