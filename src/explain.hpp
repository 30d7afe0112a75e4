#pragma once
// The explainer: walks a (compiled) JSON Schema and a value together and says, in Zod 4's words,
// what is wrong, in Zod's order. valijson decides validity; this only words it. When the schema
// came from the DSL, the SchemaNode tree is walked alongside and refinements run where Zod runs
// them: after a node's own checks and its children, unless something inside aborted.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/issue.hpp"
#include "accord/schema.hpp"
#include "compiled_schema.hpp"

namespace accord::detail {

struct FoundIssue {
  Issue issue;
  bool aborting = false;    // Zod's `continue: false`: stops the refinements of enclosing nodes
  bool refinement = false;  // produced by a user refinement rather than a schema keyword
};

// `value` null means absent (Zod's undefined). `node` may be null (no DSL: no refinements).
void explain(const CompiledSchema& compiled, const ojson& schema, const nlohmann::json* value,
             const Path& path, const SchemaNode* node, std::vector<FoundIssue>& out);

// JavaScript's Number#toString, which Zod uses for bounds and divisors.
[[nodiscard]] std::string js_number(double value);
[[nodiscard]] std::string js_number(const nlohmann::json& number);

// What a node's refinements are called with: the value itself, or for an object whose fields
// have defaults and are absent, a copy in `storage` with those defaults filled in (as Zod's
// predicates see them).
[[nodiscard]] const nlohmann::json& refinement_subject(const SchemaNode& node,
                                                       const nlohmann::json& value,
                                                       nlohmann::json& storage);

// True when any node of the tree has a refinement.
[[nodiscard]] bool has_refinements(const SchemaNode& node);

}  // namespace accord::detail
