#pragma once
// The value a tree was copied from, as a validation walked it: fill_defaults
// (schema/schema_definitions.hpp) follows through it the union option the validation accepted,
// as Zod's parse fills the option it parsed with.

#include <cstddef>
#include <functional>
#include <optional>

#include "accord/json_view.hpp"
#include "accord/schema.hpp"

namespace accord::detail {

// Looks up which option of the union `union_node` a validation accepted for `value`; nullopt
// when it noted none.
using AcceptedOptionLookup =
    std::function<std::optional<std::size_t>(const SchemaNode& union_node, JsonView value)>;

struct WalkedValue {
  JsonView value;
  const AcceptedOptionLookup* accepted_option;
};

}  // namespace accord::detail
