#pragma once
// What a Validator holds: the compiled JSON Schema and, when built from the DSL, the Schema whose
// refinements run beside it. Immutable once built, so validate() may run on many threads.

#include <memory>
#include <optional>

#include "accord/validate.hpp"
#include "compiled_schema.hpp"
#include "fast_check.hpp"

namespace accord {

struct Validator::Impl {
  detail::CompiledSchema compiled;
  std::optional<Schema> dsl;
  bool has_refinements = false;
  // Judges valid values without valijson; null when the schema is beyond it.
  std::shared_ptr<const detail::FastCheck> fast;
};

namespace detail {
// Throws SchemaError.
[[nodiscard]] std::shared_ptr<const Validator::Impl> make_validator_impl(const ojson& json_schema,
                                                                         const Schema* dsl);
// The reference path: valijson decides, the explainer words the issues and runs refinements.
// validate() takes it whenever the fast check does not say "valid".
[[nodiscard]] Issues reference_validate(const Validator::Impl& impl, const nlohmann::json& value);
}  // namespace detail

}  // namespace accord
