#include "validate/field_defaults.hpp"

#include <unordered_map>
#include <vector>

namespace accord::detail {
namespace {

// Calls `to(child)` for each node a value below `node` is judged by: fields, elements (record
// values, items, tuple positions, union options) and a ref's definition.
template <class To>
void each_child(const SchemaNode& node, const SchemaDefinitions& definitions, const To& to) {
  for (const auto& field : node.fields) to(&field.schema.node());
  for (const auto& element : node.elements) to(&element.node());
  if (node.kind == Kind::ref) {
    if (const SchemaNode* target = definitions.resolve(&node)) to(target);
  }
}

}  // namespace

FieldDefaults field_defaults(const SchemaNode& root, const SchemaDefinitions& definitions) {
  // Down once, each node's parents noted (refs make the schema a graph that may go round), then
  // up from every object that declares a default: what is reached has one below it.
  std::unordered_map<const SchemaNode*, std::vector<const SchemaNode*>> parents;
  std::vector<const SchemaNode*> declaring;
  std::unordered_set<const SchemaNode*> reached{&root};
  std::vector<const SchemaNode*> pending{&root};
  while (!pending.empty()) {
    const SchemaNode* node = pending.back();
    pending.pop_back();
    for (const auto& field : node->fields) {
      if (field.schema.node().default_value) declaring.push_back(node);
    }
    each_child(*node, definitions, [&](const SchemaNode* child) {
      parents[child].push_back(node);
      if (reached.insert(child).second) pending.push_back(child);
    });
  }
  FieldDefaults found;
  while (!declaring.empty()) {
    const SchemaNode* node = declaring.back();
    declaring.pop_back();
    if (!found.below.insert(node).second) continue;
    const auto up = parents.find(node);
    if (up != parents.end())
      declaring.insert(declaring.end(), up->second.begin(), up->second.end());
  }
  // Down again from each refined node of `below`, within `below` (no default lies elsewhere).
  std::unordered_set<const SchemaNode*> filled;
  for (const SchemaNode* node : found.below) {
    if (!node->refinements.empty() && filled.insert(node).second) pending.push_back(node);
  }
  while (!pending.empty()) {
    const SchemaNode* node = pending.back();
    pending.pop_back();
    if (node->kind == Kind::union_) found.unions_to_note.insert(node);
    each_child(*node, definitions, [&](const SchemaNode* child) {
      if (found.below.contains(child) && filled.insert(child).second) pending.push_back(child);
    });
  }
  return found;
}

}  // namespace accord::detail
