#pragma once
// What a Validator holds: the compiled JSON Schema and, when built from the DSL, the Schema whose
// refinements run beside it. Immutable once built, so validate() may run on many threads.

#include <memory>
#include <optional>

#include "accord/validate.hpp"
#include "compiled_schema.hpp"

namespace accord {

struct Validator::Impl {
  detail::CompiledSchema compiled;
  std::optional<Schema> dsl;
  bool has_refinements = false;
};

namespace detail {
// Throws SchemaError.
[[nodiscard]] std::shared_ptr<const Validator::Impl> make_validator_impl(const ojson& json_schema,
                                                                         const Schema* dsl);
}  // namespace detail

}  // namespace accord
