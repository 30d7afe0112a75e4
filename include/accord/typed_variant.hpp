#pragma once
// How the typed layer tells a std::variant's alternatives apart. Without a Tag, a variant is a
// plain union of its alternatives' schemas, and a value is read as the first alternative whose
// schema it is valid for: the one the validator accepted it as. The alternatives must differ
// enough for that to choose each of them for some value; a variant whose later alternative no
// value can reach (its schema accepts nothing an earlier one does not) is a SchemaError when its
// schema is built, not a guess when a value is read.

#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "accord/path.hpp"
#include "accord/schema.hpp"

namespace accord::typed_detail {

// Whether every value `narrow` accepts, `wide` accepts too, as far as the schemas show it; false
// when unsure (a refinement or a reference on the wide side, say).
[[nodiscard]] bool accepts_all_of(const Schema& wide, const Schema& narrow);

// Throws SchemaError, at `|j`, for an option of a variant's union that an earlier one shadows.
void check_alternatives_differ(const std::vector<Schema>& options);

// Which option of a union in one schema a value is valid for. `site` is where the union sits, as
// the Report writes paths (field names, `[]` items, `{}` record values, `|i` options).
class UnionChoices {
 public:
  explicit UnionChoices(const Schema& schema);
  // The first option `value` is valid for; nullopt when none is or no union sits at `site`.
  [[nodiscard]] std::optional<std::size_t> option(const nlohmann::json& value,
                                                  const Path& site) const;

 private:
  std::function<std::optional<std::size_t>(const nlohmann::json&, const Path&)> judge_;
};

// The UnionChoices of `schema`, compiled on first use and kept for the next reading of a value
// with the same schema (the same node: a TypedSchema's schema() or schema_of<T>()).
[[nodiscard]] std::shared_ptr<const UnionChoices> union_choices(const Schema& schema);

}  // namespace accord::typed_detail
