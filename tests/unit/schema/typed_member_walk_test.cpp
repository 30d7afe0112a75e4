// A struct's members read in one walk (#26): each member's node and default are resolved once per
// schema (typed_member_plan.hpp), found in one pass over the object's keys as written, and read
// with the same results and errors as a reading that looks every member up by name.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "accord/json_view.hpp"
#include "accord/typed_rules.hpp"
#include "accord/typed_validator.hpp"
#include "accord/typed_value.hpp"
#include "fixtures/typed_fixtures.hpp"

namespace walk_fixtures {

struct WalkLine {
  std::string sku;
  std::int32_t quantity = 0;
  friend bool operator==(const WalkLine&, const WalkLine&) = default;
};
BOOST_DESCRIBE_STRUCT(WalkLine, (), (sku, quantity))

// Members whose keys sort in another order than they are declared in, with an optional, a
// defaulted member, a nested struct and a vector of structs.
struct WalkOrder {
  std::string zone;
  std::int32_t count = 0;
  std::optional<std::string> memo;
  std::string channel = "web";
  WalkLine first;
  std::vector<WalkLine> lines;
  friend bool operator==(const WalkOrder&, const WalkOrder&) = default;
};
BOOST_DESCRIBE_STRUCT(WalkOrder, (), (zone, count, memo, channel, first, lines))

// The same member names as WalkLine, declared the other way round.
struct WalkReversed {
  std::int32_t quantity = 0;
  std::string sku;
};
BOOST_DESCRIBE_STRUCT(WalkReversed, (), (quantity, sku))

}  // namespace walk_fixtures

namespace accord {
namespace {

using nlohmann::json;
using walk_fixtures::WalkLine;
using walk_fixtures::WalkOrder;
using walk_fixtures::WalkReversed;

const TypedSchema<WalkOrder> kWalkOrderSchema = typed<WalkOrder>()
                                                    .field(&WalkOrder::channel, defaulted())
                                                    .field(&WalkOrder::count, nonnegative());

// Reads `text` as T with `schema` and `plan`, into a fresh T.
template <class T>
Converted<T> read_with_plan(const Schema& schema, const typed_detail::AnyMemberPlan* plan,
                            const std::string& text) {
  const auto parsed = parse_document(text);
  if (!parsed.document) return ConversionError{Path{}, "not JSON"};
  T out{};
  if (auto failure = typed_detail::read_into(&schema, parsed.document->root(), out, plan)) {
    return std::move(*failure);
  }
  return out;
}

// `text` read as a WalkOrder from its parsed document gives what its tree gives: the value, or
// the failure's path and message.
void expect_view_reads_as_tree(const std::string& text) {
  const auto parsed = parse_document(text);
  ASSERT_TRUE(parsed.document) << text;
  const auto from_view = from_json_value<WalkOrder>(kWalkOrderSchema, parsed.document->root());
  const auto from_tree = from_json_value<WalkOrder>(kWalkOrderSchema, json::parse(text));
  ASSERT_EQ(from_view.ok(), from_tree.ok()) << text;
  if (from_tree) {
    EXPECT_EQ(from_view.value(), from_tree.value()) << text;
  } else {
    EXPECT_EQ(from_view.error().path.to_string(), from_tree.error().path.to_string()) << text;
    EXPECT_EQ(from_view.error().message, from_tree.error().message) << text;
  }
}

TEST(TypedMemberWalk, SameTextAgreesWithStringEqualityAtEveryLength) {
  for (std::size_t n = 0; n <= 20; ++n) {
    const std::string base(n, 'k');
    EXPECT_TRUE(typed_detail::same_text(base, std::string(n, 'k'))) << n;
    EXPECT_FALSE(typed_detail::same_text(base, std::string(n + 1, 'k'))) << n;
    for (std::size_t at = 0; at < n; ++at) {
      std::string other = base;
      other[at] = 'x';
      EXPECT_FALSE(typed_detail::same_text(base, other)) << n << " differs at " << at;
    }
  }
}

TEST(TypedMemberWalk, MembersAreFoundBesideUnknownKeysAndAbsentOnes) {
  // Unknown keys sort before, between and after the described ones; memo is absent.
  const auto parsed = parse_document(R"({
      "aaa": 1, "channel": "app", "count": 3, "first": {"quantity": 2, "sku": "S-1", "x": 0},
      "lines": [], "m": true, "zone": "EU", "zzz": null})");
  ASSERT_TRUE(parsed.document);
  const auto order = from_json_value<WalkOrder>(parsed.document->root());
  ASSERT_TRUE(order) << order.error().message;
  EXPECT_EQ(order.value(), (WalkOrder{"EU", 3, std::nullopt, "app", {"S-1", 2}, {}}));
}

TEST(TypedMemberWalk, MembersInAnyOrderOfTheTextReadAsTheTreeReadsThem) {
  // The members written in the struct's order, reversed, and shuffled with unknown keys between
  // them; the last two have two members that fail (a number that does not fit, a wrong type).
  for (const std::string text : {
           R"({"zone": "EU", "count": 2, "memo": "m", "channel": "app",
               "first": {"sku": "S", "quantity": 1}, "lines": []})",
           R"({"lines": [], "first": {"quantity": 1, "sku": "S"}, "channel": "app", "memo": "m",
               "count": 2, "zone": "EU"})",
           R"({"q": 0, "first": {"sku": "S", "quantity": 1}, "zone": "EU", "a": 1,
               "lines": [{"quantity": 3, "sku": "L"}], "count": 2, "zz": null})",
           R"({"lines": [{"sku": "L", "quantity": 5000000000}], "count": 3000000000, "zone": "EU",
               "first": {"sku": "S", "quantity": 1}})",
           R"({"first": {"sku": "S", "quantity": 1}, "zone": 7, "count": 3000000000, "lines": []})",
       }) {
    expect_view_reads_as_tree(text);
  }
}

// Of two members that fail, the one declared first is reported, wherever the text wrote it: the
// tree reading's rule, pinned here on its own since both readings share read_struct.
TEST(TypedMemberWalk, TheFirstDeclaredFailingMemberIsReportedWhereverTheTextWroteIt) {
  const auto later_in_text = parse_document(
      R"({"lines": [{"sku": "L", "quantity": 5000000000}], "count": 3000000000, "zone": "EU",
          "first": {"sku": "S", "quantity": 1}})");
  const auto count_fails =
      from_json_value<WalkOrder>(kWalkOrderSchema, later_in_text.document->root());
  ASSERT_FALSE(count_fails.ok());
  EXPECT_EQ(count_fails.error().path.to_string(), (Path{} / "count").to_string());
  EXPECT_EQ(count_fails.error().message, "3000000000 does not fit in int32_t");
  const auto wrong_type = parse_document(
      R"({"first": {"sku": "S", "quantity": 1}, "count": 3000000000, "zone": 7, "lines": []})");
  const auto zone_fails = from_json_value<WalkOrder>(kWalkOrderSchema, wrong_type.document->root());
  ASSERT_FALSE(zone_fails.ok());
  EXPECT_EQ(zone_fails.error().path.to_string(), (Path{} / "zone").to_string());
  EXPECT_EQ(zone_fails.error().message, "expected a string, got number");
}

TEST(TypedMemberWalk, AnAbsentMemberReadsItsDefaultWithThePlan) {
  const typed_detail::RootPlan<WalkOrder> plan(kWalkOrderSchema);
  const auto order = read_with_plan<WalkOrder>(
      kWalkOrderSchema, plan.get(),
      R"({"zone": "EU", "count": 1, "first": {"sku": "S", "quantity": 1}, "lines": []})");
  ASSERT_TRUE(order) << order.error().message;
  EXPECT_EQ(order.value().channel, "web");
  EXPECT_EQ(order.value().memo, std::nullopt);
}

TEST(TypedMemberWalk, AMemberThatDoesNotFitFailsAtItsPathWithThePlan) {
  const typed_detail::RootPlan<WalkOrder> plan(kWalkOrderSchema);
  const std::string text =
      R"({"zone": "EU", "count": 1, "first": {"sku": "S", "quantity": 1},
          "lines": [{"sku": "A", "quantity": 1}, {"sku": "B", "quantity": 5000000000}]})";
  const auto order = read_with_plan<WalkOrder>(kWalkOrderSchema, plan.get(), text);
  ASSERT_FALSE(order);
  EXPECT_EQ(order.error().path.to_string(), "lines[1].quantity");
  EXPECT_EQ(order.error().message, "5000000000 does not fit in int32_t");
}

TEST(TypedMemberWalk, AMissingMemberFailsAtItsNameWithThePlan) {
  const typed_detail::RootPlan<WalkOrder> plan(kWalkOrderSchema);
  const auto order = read_with_plan<WalkOrder>(kWalkOrderSchema, plan.get(),
                                               R"({"count": 1, "first": {"sku": "S", "quantity": 1},
                                               "lines": []})");
  ASSERT_FALSE(order);
  EXPECT_EQ(order.error().path.to_string(), "zone");
  EXPECT_EQ(order.error().message, "missing");
}

TEST(TypedMemberWalk, APlanMadeForAnotherStructIsNotUsed) {
  // WalkLine's plan says its first member (sku) defaults to "S-0"; WalkReversed's first member is a
  // number. Read with WalkLine's plan, WalkReversed must still find its members by name.
  const TypedSchema<WalkLine> line = typed<WalkLine>().field(
      &WalkLine::sku, MemberRule{[](const Schema& s) { return s.default_("S-0"); }});
  const typed_detail::RootPlan<WalkLine> plan(line);
  const auto reversed = read_with_plan<WalkReversed>(line, plan.get(), R"({"quantity": 4})");
  ASSERT_TRUE(reversed) << reversed.error().path.to_string() << ": " << reversed.error().message;
  EXPECT_EQ(reversed.value().quantity, 4);
  EXPECT_EQ(reversed.value().sku, "S-0");
}

TEST(TypedMemberWalk, AValidatorReadsWhatTheTreeReads) {
  const TypedValidator validator(kWalkOrderSchema);
  for (const std::string text : {
           R"({"zone": "EU", "count": 2, "first": {"sku": "S", "quantity": 1}, "lines": []})",
           R"({"zone": "US", "count": 0, "memo": "m", "channel": "app",
               "first": {"sku": "S", "quantity": 1},
               "lines": [{"sku": "A", "quantity": 2}, {"sku": "B", "quantity": 3}]})",
       }) {
    const auto parsed = validator.parse(text);
    ASSERT_TRUE(parsed) << text;
    const auto from_tree = from_json_value<WalkOrder>(kWalkOrderSchema, json::parse(text));
    ASSERT_TRUE(from_tree) << text;
    EXPECT_EQ(parsed.value(), from_tree.value()) << text;
  }
}

// A text whose keys follow the struct's order up to a point is read member by member until the
// first key out of place, and from that key on found by name: each read as the tree reading reads
// it.
TEST(TypedMemberWalk, KeysInTheStructsOrderUpToOneOutOfPlaceReadAsTheTreeReadsThem) {
  for (const std::string text : {
           // In order, then a key the struct does not name.
           R"({"zone": "EU", "count": 2, "memo": "m", "channel": "app",
               "first": {"sku": "S", "quantity": 1}, "lines": [], "extra": 1})",
           // In order with the last member absent: the missing member's failure.
           R"({"zone": "EU", "count": 2, "memo": "m", "channel": "app",
               "first": {"sku": "S", "quantity": 1}})",
           // An unknown key just before the last member, which is found by name after it.
           R"({"zone": "EU", "count": 2, "memo": "m", "channel": "app",
               "first": {"sku": "S", "quantity": 1}, "x": 0, "lines": [{"sku": "L", "quantity": 3}]})",
           // The last two members the other way round.
           R"({"zone": "EU", "count": 2, "memo": "m", "channel": "app",
               "lines": [{"sku": "L", "quantity": 3}], "first": {"sku": "S", "quantity": 1}})",
           // An absent optional in the middle: the rest are found by name.
           R"({"zone": "EU", "count": 2, "channel": "app", "first": {"sku": "S", "quantity": 1},
               "lines": [{"sku": "L", "quantity": 3}]})",
           // An unknown key between two members in order, and a member that does not fit after.
           R"({"zone": "EU", "x": 0, "count": 3000000000, "memo": "m", "channel": "app",
               "first": {"sku": "S", "quantity": 1}, "lines": []})",
           // A key with a member's length but another name.
           R"({"zone": "EU", "cOunt": 2, "count": 1, "first": {"sku": "S", "quantity": 1},
               "lines": []})",
       }) {
    expect_view_reads_as_tree(text);
  }
}

}  // namespace
}  // namespace accord
