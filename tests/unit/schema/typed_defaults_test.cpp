// Defaults read during the read (#26): from_json_value(schema, value) reads an absent member's
// default in its place instead of copying the whole value through with_defaults first, with the
// same result, at any depth and behind a ref.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "accord/typed_rules.hpp"
#include "accord/typed_value.hpp"
#include "fixtures/typed_fixtures.hpp"

namespace typed_fixtures {

struct Shipment {
  std::vector<Address> stops;
  std::map<std::string, Address> depots;
  std::optional<Address> billing;
  friend bool operator==(const Shipment&, const Shipment&) = default;
};
BOOST_DESCRIBE_STRUCT(Shipment, (), (stops, depots, billing))

}  // namespace typed_fixtures

namespace accord {
namespace {

using nlohmann::json;
using namespace typed_fixtures;

const Schema kAddress =
    object({{"city", string().default_("Paris")}, {"country", string().default_("FR")}});

TEST(TypedDefaults, AnAbsentMemberReadsItsFieldsDefault) {
  const auto converted = from_json_value<Address>(kAddress, json{{"city", "Lyon"}});
  ASSERT_TRUE(converted) << converted.error().message;
  EXPECT_EQ(converted.value(), (Address{"Lyon", "FR"}));
}

TEST(TypedDefaults, DefaultsAreReadInArrayItemsRecordValuesAndOptionalMembers) {
  const auto schema = object(
      {{"stops", array(kAddress)}, {"depots", record(kAddress)}, {"billing", kAddress.optional()}});
  const auto converted = from_json_value<Shipment>(
      schema,
      json::parse(R"({"stops": [{}, {"city": "Nice"}], "depots": {"north": {"country": "BE"}},
                             "billing": {}})"));
  ASSERT_TRUE(converted) << converted.error().message;
  EXPECT_EQ(converted.value(), (Shipment{{{"Paris", "FR"}, {"Nice", "FR"}},
                                         {{"north", {"Paris", "BE"}}},
                                         {{"Paris", "FR"}}}));
}

TEST(TypedDefaults, ADefaultBehindARefIsReadAtEveryDepth) {
  const auto tree = typed<TreeNode>().field(&TreeNode::children, defaulted());
  const auto converted = from_json_value<TreeNode>(
      tree, json::parse(R"({"label": "root", "children": [{"label": "leaf"}]})"));
  ASSERT_TRUE(converted) << converted.error().message;
  ASSERT_EQ(converted.value().children.size(), 1u);
  EXPECT_EQ(converted.value().children[0], (TreeNode{"leaf", {}}));
}

TEST(TypedDefaults, ADefaultThatDoesNotFitIsAConversionErrorAtItsMember) {
  const auto converted = from_json_value<Counted>(
      object({{"count", integer().default_(3000000000LL)}}), json::object());
  ASSERT_FALSE(converted);
  EXPECT_EQ(converted.error().path, (Path{"count"}));
  EXPECT_EQ(converted.error().message, "3000000000 does not fit in int32_t");
}

TEST(TypedDefaults, AMemberWithoutADefaultIsStillMissing) {
  const auto converted =
      from_json_value<Address>(object({{"city", string()}, {"country", string()}}), json::object());
  ASSERT_FALSE(converted);
  EXPECT_EQ(converted.error().path, (Path{"city"}));
  EXPECT_EQ(converted.error().message, "missing");
}

// The reading agrees with filling the defaults in first and converting, case by case.
TEST(TypedDefaults, ReadingDefaultsEqualsConvertingWithDefaultsFilledIn) {
  const auto schema = object(
      {{"stops", array(kAddress)}, {"depots", record(kAddress)}, {"billing", kAddress.optional()}});
  for (const auto* text :
       {R"({"stops": [], "depots": {}})",
        R"({"stops": [{"country": "DE"}], "depots": {"a": {}, "b": {"city": "Ulm"}}})",
        R"({"stops": [{}], "depots": {}, "billing": null})",
        R"({"stops": [{"city": 5}], "depots": {}})", R"({"stops": {}, "depots": {}})",
        R"({"depots": {}})"}) {
    const auto value = json::parse(text);
    const auto read = from_json_value<Shipment>(schema, value);
    const auto filled = from_json_value<Shipment>(with_defaults(schema, value));
    ASSERT_EQ(read.ok(), filled.ok()) << text;
    if (read) {
      EXPECT_EQ(read.value(), filled.value()) << text;
    } else {
      EXPECT_EQ(read.error().path, filled.error().path) << text;
      EXPECT_EQ(read.error().message, filled.error().message) << text;
    }
  }
}

}  // namespace
}  // namespace accord
