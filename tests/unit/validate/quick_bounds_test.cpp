// Which leaves the compiler marks with QuickBounds (src/validate/quick_bounds.hpp), checked on the
// compiled node itself: the walk's tables (engine_walk_test.cpp) would pass whether or not a leaf
// took the quick path, so these pin that the ones meant to take it are marked, and that those
// whose units a quick check could not stand for are not.

#include "validate/quick_bounds.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>

#include "validate/compiler.hpp"
#include "validate/node.hpp"

namespace accord::detail {
namespace {

// The compiled node of property "v" whose schema is `member`.
Node compiled_member(const std::string& member) {
  Engine::Data data;
  data.documents.push_back(std::make_unique<nlohmann::ordered_json>(
      nlohmann::ordered_json::parse(R"({"type":"object","properties":{"v":)" + member + "}}")));
  Compiler(data, EngineOptions{}).run(*data.documents.front());
  return data.nodes[data.nodes[data.root].properties.at(0).second];
}

TEST(QuickBounds, AStringLeafWithALengthAFormatAndASimplePatternIsMarkedString) {
  EXPECT_EQ(compiled_member(R"({"type":"string","minLength":2,"format":"email","pattern":"^a"})")
                .quick_bounds,
            QuickBounds::string);
}

TEST(QuickBounds, ANumberLeafWithAnExclusiveMinimumIsMarkedNumber) {
  EXPECT_EQ(compiled_member(R"({"type":"number","exclusiveMinimum":0})").quick_bounds,
            QuickBounds::number);
}

TEST(QuickBounds, ANumberLeafsQuickDoublesAreItsBoundsAndTheAbsentOnesInfinite) {
  const Node node = compiled_member(R"({"type":"number","minimum":-1.5,"exclusiveMaximum":500})");
  ASSERT_EQ(node.quick_bounds, QuickBounds::number);
  EXPECT_EQ(node.quick_minimum, -1.5);
  EXPECT_EQ(node.quick_exclusive_maximum, 500.0);
  EXPECT_EQ(node.quick_maximum, std::numeric_limits<double>::infinity());
  EXPECT_EQ(node.quick_exclusive_minimum, -std::numeric_limits<double>::infinity());
}

TEST(QuickBounds, ABoundADoubleCannotHoldLeavesTheLeafUnmarked) {
  EXPECT_EQ(compiled_member(R"({"type":"integer","maximum":9007199254740993})").quick_bounds,
            QuickBounds::none);
}

TEST(QuickBounds, ABoundBesideMultipleOfLeavesTheLeafUnmarked) {
  EXPECT_EQ(compiled_member(R"({"type":"number","minimum":0,"multipleOf":0.5})").quick_bounds,
            QuickBounds::none);
}

TEST(QuickBounds, APatternOutsideSimplePatternsSubsetLeavesTheLeafUnmarked) {
  const Node node = compiled_member(R"js({"type":"string","minLength":1,"pattern":"(cat|dog)"})js");
  ASSERT_TRUE(node.pattern && !node.pattern.simple);
  EXPECT_EQ(node.quick_bounds, QuickBounds::none);
}

}  // namespace
}  // namespace accord::detail
