#pragma once
// The value half of reply repair: scalars that fail the type or enum their schema gives them,
// coerced where the schema leaves one reading (accord/repair.hpp's repair_value).
#include <nlohmann/json.hpp>

#include "accord/repair.hpp"

namespace accord::repair {

[[nodiscard]] Repairs coerce_value(nlohmann::json& value, const nlohmann::ordered_json& json_schema,
                                   RepairPolicy policy);

}  // namespace accord::repair
