// One reading of a value's paths against its Lowering, shared by the scoped correction (does the
// way to a field cross a map sent as entries?) and the stream's early judging (which share of the
// lowering does a closed part carry?).
#include "loop/lowering_path.hpp"

#include <gtest/gtest.h>

#include <string>

namespace accord::detail {
namespace {

TEST(LoweringPath, AWildcardPathAboveAValuePathSaysHowManyStepsItNames) {
  // A map of lists sent as entries: "{}" any key, "[]" any index.
  const auto relation =
      relate(Path{"orders", "{}"}, Path{"orders", "acme", std::size_t{2}}.segments());
  EXPECT_EQ(relation.where, PathRelation::above);
  EXPECT_EQ(relation.matched, 2U);
}

TEST(LoweringPath, UnionOptionSegmentsNameNoStepOfTheValue) {
  const auto relation = relate(Path{"pay", "|1", "lines", "[]"}, Path{"pay", "lines"}.segments());
  EXPECT_EQ(relation.where, PathRelation::at_or_below);
  EXPECT_EQ(relation.rest, (Path{"[]"}));
}

TEST(LoweringPath, APathAtOrBelowTheValueKeepsWhatIsLeftOfIt) {
  const auto relation =
      relate(Path{"items", "[]", "tags", "{}"}, Path{"items", std::size_t{0}}.segments());
  EXPECT_EQ(relation.where, PathRelation::at_or_below);
  EXPECT_EQ(relation.rest, (Path{"tags", "{}"}));
}

TEST(LoweringPath, AWildcardOfTheOtherKindIsApart) {
  // "[]" stands for an index only, "{}" for a key only.
  EXPECT_EQ(relate(Path{"items", "[]"}, Path{"items", "first"}.segments()).where,
            PathRelation::apart);
  EXPECT_EQ(relate(Path{"prices", "{}"}, Path{"prices", std::size_t{0}}.segments()).where,
            PathRelation::apart);
}

TEST(LoweringPath, AWrappedRootPutsThePathUnderValueAndBack) {
  Lowering wrapped;
  wrapped.wrapped_root = true;
  const Path path{"items", std::size_t{3}};
  const Path wire(on_the_wire(wrapped, path.segments()));
  EXPECT_EQ(wire, (Path{"value", "items", std::size_t{3}}));
  EXPECT_EQ(unwrapped(wrapped, wire), path);
  // The wrapper's own path, or one beside it, is no path of the value.
  EXPECT_EQ(unwrapped(wrapped, Path{}), std::nullopt);
  EXPECT_EQ(unwrapped(wrapped, Path{"other"}), std::nullopt);
}

TEST(LoweringPath, AnUnwrappedRootLeavesThePathAsItIs) {
  const Path path{"items", std::size_t{3}};
  EXPECT_EQ(Path(on_the_wire(Lowering{}, path.segments())), path);
  EXPECT_EQ(unwrapped(Lowering{}, path), path);
}

}  // namespace
}  // namespace accord::detail
