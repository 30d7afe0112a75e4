#pragma once
// Where in a DSL schema a field declares a default: Zod's parse fills absent fields' defaults at
// every depth before an enclosing refinement sees the value, so only a refinement on a node with
// a default somewhere below it (as fill_defaults reaches it) can see anything but the value as
// written.

#include <unordered_set>

#include "accord/schema.hpp"
#include "schema/schema_definitions.hpp"

namespace accord::detail {

struct FieldDefaults {
  // The DSL nodes (from the root, definitions' bodies too) with an object field that declares a
  // default at or below them, reached as fill_defaults (schema/schema_definitions.hpp) reaches
  // values: object fields, record values, array items, tuple positions, union options and a
  // ref's definition.
  std::unordered_set<const SchemaNode*> below;
  // The unions among them at or below a refined node of `below`: a refinement there is handed
  // the defaults of the option the walk accepted, so the walk notes which one it was (and only
  // for these).
  std::unordered_set<const SchemaNode*> unions_to_note;
};

[[nodiscard]] FieldDefaults field_defaults(const SchemaNode& root,
                                           const SchemaDefinitions& definitions);

}  // namespace accord::detail
