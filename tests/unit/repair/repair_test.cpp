// Reply repair, one behaviour each: what is found in text, which slips are read, which scalars
// are coerced, and what is left alone because it has a second reading or would lose something.
#include <gtest/gtest.h>

#include <algorithm>

#include "accord/repair.hpp"

namespace accord {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::optional<json> repaired_text_value(std::string_view text,
                                        RepairPolicy policy = RepairPolicy::lossless) {
  auto repaired = repair_json_text(text, policy, false);
  if (!repaired) return std::nullopt;
  return json::parse(repaired->json);
}

std::vector<RepairKind> kinds_of(const Repairs& repairs) {
  std::vector<RepairKind> kinds;
  for (const auto& repair : repairs) kinds.push_back(repair.kind);
  return kinds;
}

TEST(RepairText, StrictJsonNeedsNoRepair) {
  EXPECT_FALSE(repair_json_text(R"({"a": 1})", RepairPolicy::lossless).has_value());
}

TEST(RepairText, OffRepairsNothing) {
  EXPECT_FALSE(repair_json_text("```json\n{\"a\": 1}\n```", RepairPolicy::off).has_value());
}

TEST(RepairText, FencedJsonIsTheValue) {
  const auto repaired = repair_json_text("```json\n{\"a\": 1}\n```", RepairPolicy::lossless, false);
  ASSERT_TRUE(repaired);
  EXPECT_EQ(json::parse(repaired->json), json({{"a", 1}}));
  EXPECT_EQ(kinds_of(repaired->repairs), std::vector{RepairKind::text_around_json});
}

TEST(RepairText, ProseAroundOneObjectIsDropped) {
  EXPECT_EQ(repaired_text_value("Here you go: {\"a\": [1, 2]} Hope this helps!"),
            json({{"a", {1, 2}}}));
}

TEST(RepairText, BracketedAsideInProseIsNoSecondReadingForAnObjectRoot) {
  EXPECT_EQ(repaired_text_value("As the email says [1], the data is {\"a\": 1}"), json({{"a", 1}}));
}

TEST(RepairText, TwoObjectsHaveNoSingleReading) {
  EXPECT_FALSE(repaired_text_value("{\"a\": 1}\n{\"a\": 2}"));
}

TEST(RepairText, TwoFencedBlocksHaveNoSingleReading) {
  EXPECT_FALSE(repaired_text_value("```json\n{\"a\": 1}\n```\n```json\n{\"a\": 2}\n```"));
}

TEST(RepairText, BrokenOuterValueIsNotMinedForAnInnerOne) {
  EXPECT_FALSE(repaired_text_value(R"(Result: {"a": {"b": 1}, "c": oops})"));
}

TEST(RepairText, TrailingCommaIsRecordedWhereItStood) {
  const auto repaired = repair_json_text(R"({"a": [1, 2,]})", RepairPolicy::lossless);
  ASSERT_TRUE(repaired);
  EXPECT_EQ(json::parse(repaired->json), json({{"a", {1, 2}}}));
  ASSERT_EQ(repaired->repairs.size(), 1u);
  EXPECT_EQ(repaired->repairs[0].kind, RepairKind::trailing_comma);
  EXPECT_EQ(repaired->repairs[0].path, (Path{"a"}));
}

TEST(RepairText, CommentsAreDroppedAndRecorded) {
  const auto repaired =
      repair_json_text("{\n  // from the email\n  \"a\": 1 /* sure */\n}", RepairPolicy::lossless);
  ASSERT_TRUE(repaired);
  EXPECT_EQ(json::parse(repaired->json), json({{"a", 1}}));
  EXPECT_EQ(kinds_of(repaired->repairs), (std::vector{RepairKind::comment, RepairKind::comment}));
  EXPECT_EQ(repaired->repairs[0].before, "// from the email");
}

TEST(RepairText, SingleQuotedStringsBecomeJsonStrings) {
  EXPECT_EQ(repaired_text_value(R"({'note': 'say "hi"', 'it\'s': 1})"),
            json({{"note", "say \"hi\""}, {"it's", 1}}));
}

TEST(RepairText, UnquotedKeysAreQuoted) {
  const auto repaired = repair_json_text("{order_id: \"A\", $ref2: 1}", RepairPolicy::lossless);
  ASSERT_TRUE(repaired);
  EXPECT_EQ(json::parse(repaired->json), json({{"order_id", "A"}, {"$ref2", 1}}));
  EXPECT_EQ(kinds_of(repaired->repairs),
            (std::vector{RepairKind::unquoted_key, RepairKind::unquoted_key}));
}

TEST(RepairText, NanAndInfinityAreRefused) {
  EXPECT_FALSE(repaired_text_value(R"({"a": NaN,})"));
  EXPECT_FALSE(repaired_text_value(R"({"a": -Infinity,})"));
}

TEST(RepairText, Json5NumbersJsonLacksAreRefused) {
  EXPECT_FALSE(repaired_text_value(R"({"a": 0x1F,})"));
  EXPECT_FALSE(repaired_text_value(R"({"a": +1,})"));
  EXPECT_FALSE(repaired_text_value(R"({"a": .5,})"));
}

TEST(RepairText, RepeatedKeyHasNoSingleReading) {
  EXPECT_FALSE(repaired_text_value(R"({"a": 1, "a": 2,})"));
}

TEST(RepairText, UnclosedCommentIsRefused) {
  EXPECT_FALSE(repaired_text_value(R"(/* note {"a": 1})"));
}

TEST(RepairText, LongTextIsShortenedInTheRecord) {
  const std::string prose(500, 'x');
  const auto repaired = repair_json_text(prose + " {\"a\": 1}", RepairPolicy::lossless, false);
  ASSERT_TRUE(repaired);
  EXPECT_LE(repaired->repairs[0].before.size(), 124u);
  EXPECT_TRUE(repaired->repairs[0].before.ends_with("…"));
}

const ordered_json kRepairSchema = ordered_json::parse(R"({
  "type": "object",
  "properties": {
    "amount": {"type": "number"},
    "count": {"type": "integer"},
    "ok": {"type": "boolean"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "currency": {"enum": ["USD", "EUR"]},
    "either": {"anyOf": [{"type": "string"}, {"type": "number"}]},
    "maybe": {"anyOf": [{"$ref": "#/$defs/contact"}, {"type": "null"}]},
    "order_id": {"type": "string"},
    "twins": {"enum": ["Ab", "aB"]}
  },
  "$defs": {"contact": {"type": "object", "properties": {"call": {"type": "boolean"}}}}
})");

Repairs repaired(json& value, RepairPolicy policy = RepairPolicy::lossless) {
  return repair_value(value, kRepairSchema, policy);
}

TEST(RepairValue, NumberStringBecomesTheNumber) {
  json value = {{"amount", "42.50"}};
  const auto repairs = repaired(value);
  EXPECT_EQ(value, json({{"amount", 42.5}}));
  ASSERT_EQ(repairs.size(), 1u);
  EXPECT_EQ(repairs[0],
            (Repair{RepairKind::number_from_string, Path{"amount"}, "\"42.50\"", "42.5"}));
}

TEST(RepairValue, FractionIsNotMadeAnInteger) {
  json value = {{"count", "2.5"}};
  EXPECT_TRUE(repaired(value).empty());
  EXPECT_EQ(value, json({{"count", "2.5"}}));
}

TEST(RepairValue, DigitsPastWhatADoubleKeepsAreLeft) {
  json value = {{"amount", "12345678901234567890.5"}};
  EXPECT_TRUE(repaired(value).empty());
}

TEST(RepairValue, NumberWithUnitsIsLeft) {
  json value = {{"amount", "12 USD"}};
  EXPECT_TRUE(repaired(value).empty());
}

TEST(RepairValue, BooleanStringBecomesTheBoolean) {
  json value = {{"ok", "false"}};
  EXPECT_EQ(kinds_of(repaired(value)), std::vector{RepairKind::boolean_from_string});
  EXPECT_EQ(value, json({{"ok", false}}));
}

TEST(RepairValue, PythonBooleanIsLeftUnderLossless) {
  json value = {{"ok", "False"}};
  EXPECT_TRUE(repaired(value).empty());
}

TEST(RepairValue, SingleValueIsWrappedWhereAnArrayIsAsked) {
  json value = {{"tags", "gift"}};
  EXPECT_EQ(kinds_of(repaired(value)), std::vector{RepairKind::wrapped_in_array});
  EXPECT_EQ(value, json({{"tags", {"gift"}}}));
}

TEST(RepairValue, NullIsNotWrapped) {
  json value = {{"tags", nullptr}};
  EXPECT_TRUE(repaired(value).empty());
}

TEST(RepairValue, EnumValueInOtherLetterCaseBecomesTheOption) {
  json value = {{"currency", "usd"}};
  EXPECT_EQ(kinds_of(repaired(value)), std::vector{RepairKind::enum_letter_case});
  EXPECT_EQ(value, json({{"currency", "USD"}}));
}

TEST(RepairValue, EnumWithOptionsThatDifferOnlyInCaseIsLeft) {
  json value = {{"twins", "ab"}};
  EXPECT_TRUE(repaired(value).empty());
}

TEST(RepairValue, UnionWithAStringOptionKeepsTheString) {
  json value = {{"either", "42"}};
  EXPECT_TRUE(repaired(value).empty());
}

TEST(RepairValue, TheOneObjectOptionOfANullableUnionIsWalked) {
  json value = {{"maybe", {{"call", "true"}}}};
  EXPECT_EQ(kinds_of(repaired(value)), std::vector{RepairKind::boolean_from_string});
  EXPECT_EQ(value, json({{"maybe", {{"call", true}}}}));
}

TEST(RepairValue, KeyCaseIsRepairedOnlyWhenLenient) {
  json value = {{"orderId", "A"}};
  EXPECT_TRUE(repaired(value).empty());
  EXPECT_EQ(kinds_of(repaired(value, RepairPolicy::lenient)),
            std::vector{RepairKind::key_letter_case});
  EXPECT_EQ(value, json({{"order_id", "A"}}));
}

TEST(RepairValue, NumberForAStringIsRepairedOnlyWhenLenient) {
  json value = {{"order_id", 4821}};
  EXPECT_TRUE(repaired(value).empty());
  EXPECT_EQ(kinds_of(repaired(value, RepairPolicy::lenient)),
            std::vector{RepairKind::string_from_number});
  EXPECT_EQ(value, json({{"order_id", "4821"}}));
}

TEST(RepairValue, ValidValueIsUntouched) {
  json value = {{"amount", 1}, {"tags", {"a"}}, {"currency", "EUR"}, {"either", "x"}};
  const json before = value;
  EXPECT_TRUE(repaired(value, RepairPolicy::lenient).empty());
  EXPECT_EQ(value, before);
}

TEST(RepairPolicyWords, LosslessAllowsNoKindThatGuesses) {
  EXPECT_TRUE(lossless(RepairKind::number_from_string));
  EXPECT_FALSE(lossless(RepairKind::key_letter_case));
  EXPECT_FALSE(lossless(RepairKind::string_from_number));
  EXPECT_EQ(to_string(RepairKind::wrapped_in_array), "wrapped_in_array");
  EXPECT_EQ(to_string(RepairPolicy::lossless), "lossless");
}

const ordered_json kSurveyed = ordered_json::parse(R"({
  "type": "object",
  "properties": {
    "amount": {"type": "number"},
    "note": {"type": "string"},
    "reason": {"enum": ["damaged", "late"]},
    "tags": {"type": "array", "items": {"type": "boolean"}}
  }
})");

std::vector<std::string> allowed_lines(const ordered_json& schema, RepairPolicy policy) {
  std::vector<std::string> lines;
  for (const auto& [path, kind] : repairs_allowed(schema, policy))
    lines.push_back(path.to_string() + " " + std::string(to_string(kind)));
  return lines;
}

TEST(RepairsAllowed, LosslessListsTheTextRepairsThenEachPlaceInSchemaOrder) {
  EXPECT_EQ(allowed_lines(kSurveyed, RepairPolicy::lossless),
            (std::vector<std::string>{" text_around_json", " trailing_comma", " comment",
                                      " single_quoted_string", " unquoted_key",
                                      "amount number_from_string", "reason enum_letter_case",
                                      "tags wrapped_in_array", "tags[] boolean_from_string"}));
}

TEST(RepairsAllowed, LenientAddsKeyCaseAndNumbersForStrings) {
  const auto lines = allowed_lines(kSurveyed, RepairPolicy::lenient);
  EXPECT_NE(std::find(lines.begin(), lines.end(), " key_letter_case"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "note string_from_number"), lines.end());
}

TEST(RepairsAllowed, OffAllowsNothing) {
  EXPECT_TRUE(repairs_allowed(kSurveyed, RepairPolicy::off).empty());
}

TEST(RepairsAllowed, AStringUnionOptionLeavesNoNumberReading) {
  const auto schema = ordered_json::parse(R"({"type": ["number", "string"]})");
  const auto lines = allowed_lines(schema, RepairPolicy::lossless);
  EXPECT_EQ(std::find(lines.begin(), lines.end(), " number_from_string"), lines.end());
}

TEST(RepairsAllowed, ARecursiveReferenceIsSurveyedOnce) {
  const auto schema = ordered_json::parse(R"({
    "$defs": {"node": {"type": "object", "properties": {
      "size": {"type": "integer"}, "child": {"$ref": "#/$defs/node"}}}},
    "$ref": "#/$defs/node"
  })");
  const auto lines = allowed_lines(schema, RepairPolicy::lossless);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "size number_from_string"), 1);
}

}  // namespace
}  // namespace accord
