#include "validate/field_defaults.hpp"

#include <unordered_map>
#include <vector>

namespace accord::detail {

std::unordered_set<const SchemaNode*> nodes_with_defaults_below(
    const SchemaNode& root, const SchemaDefinitions& definitions) {
  // Down once, each node's parents noted (refs make the schema a graph that may go round), then
  // up from every object that declares a default: what is reached has one below it.
  std::unordered_map<const SchemaNode*, std::vector<const SchemaNode*>> parents;
  std::vector<const SchemaNode*> declaring;
  std::unordered_set<const SchemaNode*> reached{&root};
  std::vector<const SchemaNode*> pending{&root};
  // `parent` is nullptr where the child's defaults stay below it: a union's options keep their
  // defaults to themselves (as accord::with_defaults leaves them), yet their own refinements see
  // them.
  const auto down = [&](const SchemaNode* parent, const SchemaNode* child) {
    if (child == nullptr) return;
    if (parent != nullptr) parents[child].push_back(parent);
    if (reached.insert(child).second) pending.push_back(child);
  };
  while (!pending.empty()) {
    const SchemaNode* node = pending.back();
    pending.pop_back();
    for (const auto& field : node->fields) {
      if (field.schema.node().default_value) declaring.push_back(node);
      down(node, &field.schema.node());
    }
    const SchemaNode* parent = node->kind == Kind::union_ ? nullptr : node;
    for (const auto& element : node->elements) down(parent, &element.node());
    if (node->kind == Kind::ref) down(node, definitions.resolve(node));
  }
  std::unordered_set<const SchemaNode*> below;
  while (!declaring.empty()) {
    const SchemaNode* node = declaring.back();
    declaring.pop_back();
    if (!below.insert(node).second) continue;
    const auto up = parents.find(node);
    if (up != parents.end())
      declaring.insert(declaring.end(), up->second.begin(), up->second.end());
  }
  return below;
}

}  // namespace accord::detail
