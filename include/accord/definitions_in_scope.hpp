#pragma once
// The named definitions of the schema being validated, for the predicates its validation calls
// on this thread. A typed refinement reads its value with its own part of the schema, whose refs
// may name a definition that lies outside that part: `TreeNode::children` is
// array(ref("TreeNode")), and the definition is the whole TreeNode. Its reading follows such a ref
// here, as the engine follows it, so the predicate sees the definition's defaults filled in, as
// Zod's does (typed_rules.hpp). The engine puts its schema's definitions in scope while a node's
// refinements run (src/validate/evaluation.cpp).

namespace accord {

struct SchemaNode;

// What the refs of one whole schema stand for.
class DefinitionLookup {
 public:
  // The node a ref node stands for (refs to refs followed); `node` itself when it is no ref;
  // nullptr when the name is unknown or the refs go round without reaching a schema.
  [[nodiscard]] virtual const SchemaNode* resolve(const SchemaNode* node) const = 0;

 protected:
  DefinitionLookup() = default;
  DefinitionLookup(const DefinitionLookup&) = default;
  DefinitionLookup& operator=(const DefinitionLookup&) = default;
  ~DefinitionLookup() = default;
};

// `definitions` in scope on this thread while this object lives; the scope it replaced after.
class DefinitionsInScope {
 public:
  explicit DefinitionsInScope(const DefinitionLookup& definitions) : outer_(slot()) {
    slot() = &definitions;
  }
  DefinitionsInScope(const DefinitionsInScope&) = delete;
  DefinitionsInScope& operator=(const DefinitionsInScope&) = delete;
  ~DefinitionsInScope() { slot() = outer_; }

  // The definitions in scope on this thread, or nullptr outside any validation's refinements.
  [[nodiscard]] static const DefinitionLookup* current() { return slot(); }

 private:
  static const DefinitionLookup*& slot() {
    thread_local const DefinitionLookup* in_scope = nullptr;
    return in_scope;
  }

  const DefinitionLookup* outer_;
};

}  // namespace accord
