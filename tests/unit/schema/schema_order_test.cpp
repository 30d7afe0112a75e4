#include "accord/schema_order.hpp"

#include <gtest/gtest.h>

namespace accord {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

// The keys of an object, in the order it holds them.
std::vector<std::string> keys_of(const ojson& object) {
  std::vector<std::string> out;
  for (const auto& [key, ignored] : object.items()) out.push_back(key);
  return out;
}

using Keys = std::vector<std::string>;

TEST(SchemaOrder, MembersFollowTheOrderOfProperties) {
  const auto schema = ojson::parse(R"({"properties": {"zeta": {}, "alpha": {}, "mid": {}}})");
  const auto out = in_schema_order(json{{"alpha", 1}, {"mid", 2}, {"zeta", 3}}, schema);
  EXPECT_EQ(keys_of(out), (Keys{"zeta", "alpha", "mid"}));
  EXPECT_EQ(json(out), (json{{"alpha", 1}, {"mid", 2}, {"zeta", 3}}));  // values unchanged
}

TEST(SchemaOrder, MembersTheSchemaDoesNotNameFollowSorted) {
  const auto schema = ojson::parse(R"({"properties": {"z": {}}})");
  const auto out = in_schema_order(json{{"b", 1}, {"z", 2}, {"a", 3}}, schema);
  EXPECT_EQ(keys_of(out), (Keys{"z", "a", "b"}));
}

TEST(SchemaOrder, NestedObjectsMapValuesAndArrayItemsAreOrdered) {
  const auto schema = ojson::parse(R"({"properties": {
    "list": {"items": {"properties": {"y": {}, "x": {}}}},
    "pair": {"prefixItems": [{"properties": {"q": {}, "p": {}}}]},
    "map": {"additionalProperties": {"properties": {"n": {}, "m": {}}}}}})");
  const json value = {{"list", {{{"x", 1}, {"y", 2}}}},
                      {"pair", {{{"p", 1}, {"q", 2}}}},
                      {"map", {{"k", {{"m", 1}, {"n", 2}}}}}};
  const auto out = in_schema_order(value, schema);
  EXPECT_EQ(keys_of(out), (Keys{"list", "pair", "map"}));
  EXPECT_EQ(keys_of(out["list"][0]), (Keys{"y", "x"}));
  EXPECT_EQ(keys_of(out["pair"][0]), (Keys{"q", "p"}));
  EXPECT_EQ(keys_of(out["map"]["k"]), (Keys{"n", "m"}));
}

TEST(SchemaOrder, LocalRefsAreFollowedRecursionIncluded) {
  const auto schema = ojson::parse(R"({"$ref": "#/$defs/node", "$defs": {"node": {
    "properties": {"name": {}, "children": {"items": {"$ref": "#/$defs/node"}}}}}})");
  const json value = {{"children", {{{"children", json::array()}, {"name", "leaf"}}}},
                      {"name", "root"}};
  const auto out = in_schema_order(value, schema);
  EXPECT_EQ(keys_of(out), (Keys{"name", "children"}));
  EXPECT_EQ(keys_of(out["children"][0]), (Keys{"name", "children"}));
}

TEST(SchemaOrder, MembersNamedInBranchesCountAsNamed) {
  const auto schema = ojson::parse(R"({"properties": {"kind": {}},
    "anyOf": [{"properties": {"b": {}}}], "allOf": [{"properties": {"c": {}}}],
    "then": {"properties": {"a": {}}}})");
  const auto out = in_schema_order(json{{"a", 1}, {"b", 2}, {"c", 3}, {"kind", 4}}, schema);
  EXPECT_EQ(keys_of(out), (Keys{"kind", "c", "b", "a"}));  // allOf, anyOf, oneOf, then, else
}

TEST(SchemaOrder, ARefThatLeadsNowhereKeepsTheMembersSorted) {
  for (const char* text : {R"({"$ref": "#/$defs/missing"})",
                           R"({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"},
                                                             "b": {"$ref": "#/$defs/a"}}})"}) {
    const auto out = in_schema_order(json{{"b", 1}, {"a", 2}}, ojson::parse(text));
    EXPECT_EQ(keys_of(out), (Keys{"a", "b"})) << text;
  }
}

}  // namespace
}  // namespace accord
