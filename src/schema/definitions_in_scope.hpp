#pragma once
// The named definitions of the schema being validated, for the typed refinements its validation
// calls on this thread. A typed refinement reads its value with its own part of the schema, whose
// refs may name a definition only the whole schema holds: `TreeNode::children` is
// array(ref("TreeNode")), and the definition is the whole TreeNode. SchemaDefaults follows such a
// ref here after its own definitions, so the predicate sees the definition's defaults filled in,
// as Zod's does. The engine installs its schema's definitions, an empty set too (a validation run
// inside a predicate must not see the outer schema's names) for as long as one validation runs
// (src/validate/evaluation.hpp, Run).
//
// The scopes nest last in, first out on one thread: a predicate that switches stackful fibers
// mid-call and resumes another validation breaks the restore (typed_root_reading.hpp's
// RootReading has the same limit).

#include "schema/schema_definitions.hpp"

namespace accord::detail {

// Defined in src/schema/schema.cpp; declared here so that installing a scope, once a validation,
// is a few inline instructions rather than two calls.
extern constinit thread_local const SchemaDefinitions* definitions_in_scope_slot;

// `definitions` in scope on this thread while this object lives; the scope it replaced after.
class DefinitionsInScope {
 public:
  explicit DefinitionsInScope(const SchemaDefinitions& definitions)
      : outer_(definitions_in_scope_slot) {
    definitions_in_scope_slot = &definitions;
  }
  DefinitionsInScope(const DefinitionsInScope&) = delete;
  DefinitionsInScope& operator=(const DefinitionsInScope&) = delete;
  ~DefinitionsInScope() { definitions_in_scope_slot = outer_; }

 private:
  const SchemaDefinitions* outer_;
};

// The definitions in scope on this thread, or nullptr outside any validation.
[[nodiscard]] inline const SchemaDefinitions* definitions_in_scope() {
  return definitions_in_scope_slot;
}

}  // namespace accord::detail
