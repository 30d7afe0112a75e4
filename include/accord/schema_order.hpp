#pragma once
// A value with its objects' members in the order a JSON Schema lists them: the order structured
// output writes them in and the schema's author wrote them in, which nlohmann::json (keys sorted)
// does not keep.

#include <nlohmann/json.hpp>

namespace accord {

// `value` with each object's members in the order `json_schema` lists them under `properties`,
// then the members it does not name (a map's keys) in sorted order; arrays follow `prefixItems`
// and `items`. Local `$ref`s are followed, and the members an object's `allOf`, `anyOf`, `oneOf`,
// `then` and `else` branches name count as named. Only the order changes: a value the schema does
// not describe (a ref that leads nowhere, a member of no schema) keeps its members, sorted.
[[nodiscard]] nlohmann::ordered_json in_schema_order(const nlohmann::json& value,
                                                     const nlohmann::ordered_json& json_schema);

}  // namespace accord
