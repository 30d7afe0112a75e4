#pragma once
// A value's paths against its Lowering: where a lowering path lies relative to a path of the
// value, and a path of the value as the reply on the wire has it (under the "value" wrapper of a
// non-object root) and back. The scoped correction and the stream's early judging read paths alike
// through these.

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "accord/path.hpp"
#include "accord/providers/provider.hpp"

namespace accord::detail {

// Where a lowering path ("[]" for any index, "{}" for any key, union-option segments naming no
// step) lies relative to a path of the value: apart; above it, `matched` being how many of its
// first steps the lowering path names (the value there is inside what it names); or at or below
// it, `rest` being what is left of the lowering path from the end of `path` on.
struct PathRelation {
  enum { apart, above, at_or_below } where = apart;
  std::size_t matched = 0;
  Path rest;
};
[[nodiscard]] PathRelation relate(const Path& lowered, std::span<const PathSegment> path);

// `path` of the value where the reply as sent has it: under "value" when the root is wrapped.
[[nodiscard]] std::vector<PathSegment> on_the_wire(const Lowering& lowering,
                                                   std::span<const PathSegment> path);
// The reverse: a path of the reply as sent as a path of the value; nullopt for the wrapper itself
// or a path outside it.
[[nodiscard]] std::optional<Path> unwrapped(const Lowering& lowering, const Path& wire_path);

}  // namespace accord::detail
