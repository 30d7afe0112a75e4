#pragma once
// What a Validator holds: the engine and, when built from the DSL, the Schema whose refinements
// run inside it. Immutable once built, so validate() may run on many threads.

#include <memory>
#include <optional>

#include "accord/validate.hpp"
#include "validate/engine.hpp"

namespace accord {

struct Validator::Impl {
  std::optional<Schema> dsl;  // kept alive for the engine's refinements
  std::unique_ptr<const detail::Engine> engine;
};

namespace detail {

using ValidatorImpl = Validator::Impl;

// The engine's draft for the public dialect.
[[nodiscard]] Draft draft_of(Dialect dialect);

// Throws SchemaError.
[[nodiscard]] std::shared_ptr<const ValidatorImpl> make_validator_impl(
    const ojson& json_schema, const Schema* dsl, const EngineOptions& options);

}  // namespace detail
}  // namespace accord
