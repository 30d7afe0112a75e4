// to_json_value / from_json_value: each supported C++ type both ways, and the values that do not
// fit a type, as ConversionErrors with their path.
#include "accord/typed_value.hpp"

#include <gtest/gtest.h>

#include "accord/typed_schema.hpp"
#include "accord/validate.hpp"
#include "fixtures/typed_fixtures.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace typed_fixtures;

Everything sample() {
  Everything v;
  v.flag = true;
  v.count = -7;
  v.small = 200;
  v.ratio = 0.25;
  v.weight = 1.5F;
  v.name = "Dana";
  v.nickname = "D";
  v.tags = {"a", "b"};
  v.point = {3, 4};
  v.scores = {{"x", 1.5}};
  v.label = std::string("big");
  v.payment = Bank{{}, "DE02"};
  v.currency = Currency::USD;
  v.address = {"Lyon", "FR"};
  v.gaps = {1, std::nullopt};
  return v;
}

const json kSampleJson = {{"flag", true},        {"count", -7},
                          {"small", 200},        {"ratio", 0.25},
                          {"weight", 1.5},       {"name", "Dana"},
                          {"nickname", "D"},     {"tags", {"a", "b"}},
                          {"point", {3, 4}},     {"scores", {{"x", 1.5}}},
                          {"label", "big"},      {"payment", {{"kind", "bank"}, {"iban", "DE02"}}},
                          {"currency", "USD"},   {"address", {{"city", "Lyon"}, {"country", "FR"}}},
                          {"gaps", {1, nullptr}}};

// The value at `key` of the sample's JSON replaced.
json sample_with(const std::string& key, json value) {
  json out = kSampleJson;
  out[key] = std::move(value);
  return out;
}

ConversionError failure_of(const json& value) {
  const auto converted = from_json_value<Everything>(value);
  EXPECT_FALSE(converted.ok());
  return converted.error();
}

TEST(TypedValue, EverySupportedTypeWritesItsJson) {
  EXPECT_EQ(to_json_value(sample()), kSampleJson);
}

TEST(TypedValue, EverySupportedTypeReadsBackFromItsJson) {
  const auto converted = from_json_value<Everything>(kSampleJson);
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  EXPECT_EQ(converted.value(), sample());
}

TEST(TypedValue, WrittenJsonPassesTheDerivedSchema) {
  EXPECT_TRUE(Validator(schema_of<Everything>()).validate(to_json_value(sample())).empty());
}

TEST(TypedValue, EmptyOptionalMemberIsAnAbsentKey) {
  auto value = sample();
  value.nickname.reset();
  EXPECT_FALSE(to_json_value(value).contains("nickname"));
}

TEST(TypedValue, AbsentOrNullOptionalMemberReadsAsEmpty) {
  json absent = kSampleJson;
  absent.erase("nickname");
  EXPECT_FALSE(from_json_value<Everything>(absent).value().nickname.has_value());
  EXPECT_FALSE(
      from_json_value<Everything>(sample_with("nickname", nullptr)).value().nickname.has_value());
}

TEST(TypedValue, VariantReadsTheAlternativeTheTagNames) {
  const auto card =
      from_json_value<Everything>(sample_with("payment", {{"kind", "card"}, {"last4", "4242"}}));
  ASSERT_TRUE(card.ok());
  EXPECT_EQ(std::get<Card>(card.value().payment).last4, "4242");
}

TEST(TypedValue, VariantReadsTheFirstAlternativeThatFits) {
  EXPECT_EQ(std::get<double>(from_json_value<Everything>(sample_with("label", 2.5)).value().label),
            2.5);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(
      from_json_value<Everything>(sample_with("label", nullptr)).value().label));
}

TEST(TypedValue, IntegerTooBigForItsTypeFailsWithItsPath) {
  const auto error = failure_of(sample_with("count", 3000000000LL));
  EXPECT_EQ(error.path, (Path{"count"}));
  EXPECT_EQ(error.message, "3000000000 does not fit in int32_t");
}

TEST(TypedValue, NegativeNumberInAnUnsignedMemberFails) {
  EXPECT_EQ(failure_of(sample_with("small", -1)).message, "-1 does not fit in uint8_t");
}

TEST(TypedValue, WholeFloatReadsAsAnIntegerAndAFractionDoesNot) {
  EXPECT_EQ(from_json_value<Everything>(sample_with("count", 12.0)).value().count, 12);
  EXPECT_EQ(failure_of(sample_with("count", 1.5)).message, "1.5 is not a whole number");
}

TEST(TypedValue, NumberBeyondFloatFailsWithItsPath) {
  const auto error = failure_of(sample_with("weight", 1e39));
  EXPECT_EQ(error.path, (Path{"weight"}));
  EXPECT_EQ(error.message, "1e+39 does not fit in float");
}

TEST(TypedValue, FailureInsideContainersCarriesTheFullPath) {
  EXPECT_EQ(failure_of(sample_with("gaps", {1, 2.5})).path, (Path{"gaps", std::size_t{1}}));
  EXPECT_EQ(failure_of(sample_with("scores", {{"x", "high"}})).path, (Path{"scores", "x"}));
  EXPECT_EQ(failure_of(sample_with("address", {{"city", 1}, {"country", "FR"}})).path,
            (Path{"address", "city"}));
}

TEST(TypedValue, StdArrayOfAnotherSizeFails) {
  EXPECT_EQ(failure_of(sample_with("point", {1, 2, 3})).message, "expected 2 items, got 3");
}

TEST(TypedValue, UnknownEnumeratorNameFails) {
  EXPECT_EQ(failure_of(sample_with("currency", "GBP")).message, "\"GBP\" names no enumerator");
}

TEST(TypedValue, MissingRequiredMemberFailsAtItsKey) {
  json value = kSampleJson;
  value.erase("name");
  const auto error = failure_of(value);
  EXPECT_EQ(error.path, (Path{"name"}));
  EXPECT_EQ(error.message, "missing");
}

TEST(TypedValue, VariantThatNoAlternativeFitsReportsTheAlternativeItsTagNames) {
  const auto error = failure_of(sample_with("payment", {{"kind", "bank"}, {"iban", 7}}));
  EXPECT_EQ(error.path, (Path{"payment", "iban"}));
  EXPECT_EQ(error.message, "expected a string, got number");
}

TEST(TypedValue, DefaultsFromTheSchemaFillAbsentMembersBeforeReading) {
  const auto schema =
      object({{"city", string().default_("Paris")}, {"country", string().default_("FR")}});
  const auto converted = from_json_value<Address>(with_defaults(schema, json::object()));
  ASSERT_TRUE(converted.ok());
  EXPECT_EQ(converted.value(), (Address{"Paris", "FR"}));
}

}  // namespace
}  // namespace accord
