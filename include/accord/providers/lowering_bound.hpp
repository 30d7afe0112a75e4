#pragma once
// How large a wire lowering may make by inlining `$ref`s, for providers that take no references
// (or no recursion, which is unrolled): a schema whose definitions fan out (each used two or three
// times, a chain of twenty) would otherwise expand to gigabytes. The bound is checked before each
// definition is inlined, so a schema past it fails at build time with SchemaError naming the
// definition with the biggest fan-out, in bounded time and memory
// (docs/providers.md#bounded-wires).
//
//   auto wire = accord::lower_within(*provider, imported.json, imported.report,
//                                    {.max_inlined_bytes = 8 << 20});

#include <cstddef>
#include <nlohmann/json.hpp>

#include "accord/providers/provider.hpp"

namespace accord {

struct LoweringBound {
  // What the inlined definitions may add to the wire, in bytes of compact JSON (as each definition
  // is written before lowering). 1 MiB is far past what any provider documents taking (OpenAI's
  // 120,000 characters of names and values) yet keeps a refused schema's failure instant.
  std::size_t max_inlined_bytes = std::size_t{1} << 20;
};

// provider.lower(emitted, report) with `bound` in place of the default (Provider::lower uses
// LoweringBound{}).
[[nodiscard]] WireSchema lower_within(const Provider& provider,
                                      const nlohmann::ordered_json& emitted, Report report,
                                      const LoweringBound& bound);

}  // namespace accord
