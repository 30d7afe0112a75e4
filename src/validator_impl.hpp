#pragma once
// What a Validator holds: the engine and, when built from the DSL, the Schema whose refinements
// run inside it. Immutable once built, so validate() may run on many threads.

#include <memory>
#include <optional>

#include "accord/validate.hpp"
#include "engine.hpp"

namespace accord {

struct Validator::Impl {
  std::optional<Schema> dsl;  // kept alive for the engine's refinements
  std::unique_ptr<const detail::Engine> engine;
};

namespace detail {
// Throws SchemaError.
[[nodiscard]] std::shared_ptr<const Validator::Impl> make_validator_impl(
    const ojson& json_schema, const Schema* dsl, const EngineOptions& options);
}  // namespace detail

}  // namespace accord
