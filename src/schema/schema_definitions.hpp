#pragma once
// The named definitions (Schema::named) a whole schema holds and the refs (ref()) that point at
// them: what emit() writes under `$defs`, and what the engine and with_defaults follow at a ref.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accord/schema.hpp"
#include "schema/walked_value.hpp"

namespace accord::detail {

struct SchemaDefinitions {
  // The first definition found for each name (outermost first), as it was named.
  std::map<std::string, Schema> by_name;
  // Later definitions of a name already seen that are other objects: emit() checks each says the
  // same as the first (the typed layer builds one per use of a recursive type).
  struct Repeat {
    Path path;
    std::string name;
    Schema body;
  };
  std::vector<Repeat> repeated;
  // Every ref, with the path it was first found at.
  std::vector<std::pair<Path, std::string>> refs;
  // Every object with declarative rules, with its path: a rule's field path may go through a ref,
  // which only these definitions resolve.
  std::vector<std::pair<Path, const SchemaNode*>> ruled;

  // The body of the definition `reference` names, or nullptr.
  [[nodiscard]] const SchemaNode* find(const std::string& reference) const;
  // The node a ref node stands for (following refs to refs); `node` itself when it is no ref;
  // nullptr when the name is unknown or the refs go round without reaching a schema.
  [[nodiscard]] const SchemaNode* resolve(const SchemaNode* node) const;
};

// Walks every node once (a Schema reused in many places is one node), definitions' bodies too.
[[nodiscard]] SchemaDefinitions collect_definitions(const SchemaNode& root);

// Whether fill_defaults drops the keys a closed object (object() without .passthrough()) does
// not declare, as Zod's strictObject leaves them out of its result.
enum class UndeclaredKeys { keep, drop };

// Fills in `value`, in place, the defaults of absent fields at every depth below `node` (object
// fields, record values, array items, tuple positions, refs followed into their definitions),
// and with UndeclaredKeys::drop takes out, in the same walk, the keys closed objects do not
// declare. A union's options are left alone unless `walked` (the value `value` copies) tells
// which option was accepted, as Zod fills the option it parsed with; with_defaults, which judges
// nothing, leaves them. Whether the value changed.
bool fill_defaults(const SchemaNode* node, nlohmann::json& value,
                   const SchemaDefinitions& definitions,
                   std::optional<WalkedValue> walked = std::nullopt,
                   UndeclaredKeys undeclared = UndeclaredKeys::keep);

// The path segment of a node's i-th element, as SchemaProblem paths write it: `[]` for array
// items, `{}` for record values, the position of a tuple, `|i` for a union option.
[[nodiscard]] PathSegment element_segment(const SchemaNode& node, std::size_t index);

}  // namespace accord::detail
