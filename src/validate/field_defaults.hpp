#pragma once
// Where in a DSL schema a field declares a default: Zod's parse fills absent fields' defaults at
// every depth before an enclosing refinement sees the value, so only a refinement on a node with
// a default somewhere below it (as fill_defaults reaches it) can see anything but the value as
// written.

#include <unordered_set>

#include "accord/schema.hpp"
#include "schema/schema_definitions.hpp"

namespace accord::detail {

// The DSL nodes (from `root`, definitions' bodies too) with an object field that declares a
// default at or below them, reached as fill_defaults (schema/schema_definitions.hpp) reaches
// values: object fields, record values, array items, tuple positions and a ref's definition. A
// union's options are looked into, but their defaults stay theirs: the union is not marked.
[[nodiscard]] std::unordered_set<const SchemaNode*> nodes_with_defaults_below(
    const SchemaNode& root, const SchemaDefinitions& definitions);

}  // namespace accord::detail
