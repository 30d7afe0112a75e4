#pragma once
// Judging a declarative rule on a value: the validator asks whether it holds and where its issue
// points; the lowering compares literals with the same semantics.

#include <nlohmann/json.hpp>
#include <optional>

#include "accord/json_view.hpp"
#include "accord/path.hpp"
#include "accord/rules.hpp"

namespace accord::detail {

// Whether the rule holds for `object`; an absent field takes the `default` its property declares
// in `object_schema` (may be null; its local $refs resolve in `root`), as Zod's refinements see
// defaults filled in. Only the fields compared are read out of the document.
[[nodiscard]] bool rule_holds(const Rule& rule, JsonView object,
                              const nlohmann::ordered_json* object_schema,
                              const nlohmann::ordered_json& root);

// Where a failed rule's issue points, relative to its object.
[[nodiscard]] Path issue_path(const Rule& rule);

// How the comparison of two JSON values turns out: true, false, or not judged (nullopt) when the
// sides cannot be ordered.
[[nodiscard]] std::optional<bool> compare_values(const nlohmann::json& left, Op op,
                                                 const nlohmann::json& right);
[[nodiscard]] Op negated(Op op);

}  // namespace accord::detail
