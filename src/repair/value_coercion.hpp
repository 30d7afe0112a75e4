#pragma once
// The value half of reply repair: scalars that fail the type or enum their schema gives them,
// coerced where the schema leaves one reading (accord/repair.hpp's repair_value).
#include <nlohmann/json.hpp>

#include "accord/repair.hpp"

namespace accord::repair {

[[nodiscard]] Repairs coerce_value(nlohmann::json& value, const nlohmann::ordered_json& json_schema,
                                   RepairPolicy policy);

// The value repairs `policy` may make for `json_schema` (accord/repair.hpp's repairs_allowed).
[[nodiscard]] std::vector<RepairAllowance> allowed_repairs(
    const nlohmann::ordered_json& json_schema, RepairPolicy policy);

// The same for `part`, the value at `path` of a larger one (a streamed part as it closes): the
// schema is followed down the path through properties and items; where it forks (a union with
// more than one option that fits), nothing is coerced.
[[nodiscard]] Repairs coerce_part(nlohmann::json& part, const nlohmann::ordered_json& json_schema,
                                  const Path& path, RepairPolicy policy);

}  // namespace accord::repair
