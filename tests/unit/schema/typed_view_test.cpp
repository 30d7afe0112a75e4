// One typed reader for both value kinds (#26): a value read from a parsed document (JsonView)
// converts exactly as the same value read from its nlohmann::json tree, for every kind of member,
// every failure (path and message), defaults and variants alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "accord/json_view.hpp"
#include "accord/typed_rules.hpp"
#include "accord/typed_value.hpp"
#include "accord/validate.hpp"
#include "fixtures/typed_fixtures.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace typed_fixtures;

// Reads `value` as a T from its tree and from its text parsed to a document, and expects one
// answer: the same value (compared as written back), or the same failure.
template <class T>
void expect_one_reading(const json& value, const Schema* schema = nullptr) {
  const auto parsed = parse_document(value.dump());
  ASSERT_TRUE(parsed.document) << value.dump();
  const JsonView view = parsed.document->root();
  const auto from_tree = schema ? from_json_value<T>(*schema, value) : from_json_value<T>(value);
  const auto from_view = schema ? from_json_value<T>(*schema, view) : from_json_value<T>(view);
  ASSERT_EQ(from_tree.ok(), from_view.ok()) << value.dump();
  if (from_tree) {
    EXPECT_EQ(to_json_value(from_view.value()), to_json_value(from_tree.value())) << value.dump();
  } else {
    EXPECT_EQ(from_view.error().path, from_tree.error().path) << value.dump();
    EXPECT_EQ(from_view.error().message, from_tree.error().message) << value.dump();
  }
}

// One of each kind of member, valid as an Everything; the test below changes one at a time.
const json kEverything = json::parse(R"({
  "flag": true, "count": -7, "small": 200, "ratio": 0.25, "weight": 1.5, "name": "Dana",
  "nickname": "D", "tags": ["a", "b"], "point": [3, 4], "scores": {"x": 1.5, "a": 2},
  "label": "big", "payment": {"kind": "bank", "iban": "DE02"}, "currency": "USD",
  "address": {"city": "Lyon", "country": "FR"}, "gaps": [1, null]})");

TEST(TypedView, EveryKindOfMemberReadsFromADocumentAsFromItsTree) {
  const json& whole = kEverything;
  ASSERT_TRUE(from_json_value<Everything>(whole));  // each change below is one step from valid
  expect_one_reading<Everything>(whole);
  const std::vector<std::pair<std::string, json>> changes = {
      {"count", 3000000000LL},  // does not fit
      {"count", 12.0},          // a whole float
      {"count", 1.5},
      {"count", "7"},
      {"small", -1},
      {"weight", 1e39},
      {"ratio", 18446744073709551615ULL},
      {"name", nullptr},
      {"nickname", nullptr},
      {"tags", {"a", 1}},
      {"point", {1, 2, 3}},
      {"scores", {{"x", "high"}}},
      {"label", 2.5},
      {"label", nullptr},
      {"label", true},
      {"payment", {{"kind", "card"}, {"last4", "4242"}}},
      {"payment", {{"kind", "bank"}, {"iban", 7}}},
      {"payment", {{"kind", "cash"}}},
      {"currency", "GBP"},
      {"currency", "US"},
      {"address", {{"city", 1}, {"country", "FR"}}},
      {"address", json::array()},
      {"gaps", {1, 2.5}},
      {"flag", 1},
  };
  for (const auto& [key, value] : changes) {
    json changed = whole;
    changed[key] = value;
    expect_one_reading<Everything>(changed);
  }
  for (const auto& key : {"name", "nickname", "payment"}) {
    json without = whole;
    without.erase(key);
    expect_one_reading<Everything>(without);
  }
  expect_one_reading<Everything>(json::array());
}

TEST(TypedView, RecursiveTypesReadFromADocumentAsFromTheirTree) {
  const auto tree = json::parse(R"({"label": "root", "children": [
    {"label": "a", "children": [{"label": "a1", "children": []}]}, {"label": "b", "children": []}]})");
  expect_one_reading<TreeNode>(tree);
  json bad = tree;
  bad["children"][0]["children"][0]["label"] = 5;
  expect_one_reading<TreeNode>(bad);
  expect_one_reading<Comment>(json::parse(R"({"text": "t", "replies": [{"text": "u"}]})"));
  expect_one_reading<Forest>(
      json::parse(R"({"trees": [], "tallest": {"label": "x", "children": []}})"));
  expect_one_reading<Section>(json::parse(
      R"({"title": "s", "parts": [{"text": "p", "subsections": {"z": {"title": "t", "parts": []}, "a": {"title": "u", "parts": []}}}]})"));
}

TEST(TypedView, DefaultsAreReadFromADocumentAsFromItsTree) {
  const Schema address =
      object({{"city", string().default_("Paris")}, {"country", string().default_("FR")}});
  expect_one_reading<Address>(json::object(), &address);
  expect_one_reading<Address>(json{{"country", "BE"}}, &address);
  const Schema tree = typed<TreeNode>().field(&TreeNode::children, defaulted());
  expect_one_reading<TreeNode>(json::parse(R"({"label": "r", "children": [{"label": "leaf"}]})"),
                               &tree);
  const Schema refund = typed<Refund>().field(&Refund::currency, defaulted());
  json no_currency = kRefundJson;
  no_currency.erase("currency");
  expect_one_reading<Refund>(no_currency, &refund);
}

TEST(TypedView, ARefundReadsFromItsParsedText) {
  const auto parsed = parse_document(kRefundJson.dump());
  ASSERT_TRUE(parsed.document);
  const auto converted = from_json_value<Refund>(parsed.document->root());
  ASSERT_TRUE(converted) << converted.error().message;
  EXPECT_EQ(converted.value(), from_json_value<Refund>(kRefundJson).value());
  EXPECT_EQ(converted.value().orderId, "ORD-482913");
}

// Typed refinements (a member's and the struct's) reach the engine as view predicates: a verdict
// reads the struct from the parsed document, with no tree of the value built for them.
TEST(TypedView, TypedRefinementsReachTheEngineAsViewPredicates) {
  const Schema refund = examples::typed_refund_schema();
  ASSERT_EQ(refund.node().refinements.size(), 1U);
  EXPECT_TRUE(refund.node().refinements.front().view_predicate);
  const auto note = std::find_if(refund.node().fields.begin(), refund.node().fields.end(),
                                 [](const Field& f) { return f.name == "note"; });
  ASSERT_NE(note, refund.node().fields.end());
  ASSERT_EQ(note->schema.node().refinements.size(), 1U);
  EXPECT_TRUE(note->schema.node().refinements.front().view_predicate);
}

TEST(TypedView, TypedRefinementsJudgeParsedTextAsTheyJudgeItsTree) {
  const Validator validator(examples::typed_refund_schema());
  const json bad = json::parse(R"({"orderId": "ORD-123456", "amount": 5, "currency": "EUR",
    "orderDate": "2024-05-02", "refundDate": "2024-05-01", "note": "see https://x.example", "sku": "x1"})");
  const auto from_text = validator.parse_and_validate(bad.dump());
  const Issues from_tree = validator.validate(bad);
  ASSERT_EQ(from_text.issues.size(), 2U) << prettify(from_text.issues);
  EXPECT_EQ(prettify(from_text.issues), prettify(from_tree));
  EXPECT_EQ(from_text.issues[0].message, "note must not contain links");
  EXPECT_EQ(from_text.issues[1].message, "refundDate is before orderDate");
}

}  // namespace
}  // namespace accord
