// TypedValidator<T> (#26): text to a validated struct in one call, with the Validator's issues for
// invalid text and a ConversionError for a valid value that does not fit the type.
#include "accord/typed_validator.hpp"

#include <gtest/gtest.h>

#include <type_traits>

#include "accord/typed_rules.hpp"
#include "fixtures/typed_fixtures.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace typed_fixtures;

const TypedSchema<Refund> kTypedRefund =
    typed<Refund>()
        .field(&Refund::orderId, regex(R"(^ORD-\d{6}$)"))
        .field(&Refund::amount, positive())
        .field(&Refund::currency, defaulted())
        .refine([](const Refund& r) { return r.refundDate >= r.orderDate; },
                "refundDate is before orderDate", {.path = {"refundDate"}});

TEST(TypedValidator, AValidTextReadsAsItsStruct) {
  const TypedValidator validator(kTypedRefund);
  static_assert(std::is_same_v<decltype(validator), const TypedValidator<Refund>>);
  const auto parsed = validator.parse(kRefundJson.dump());
  ASSERT_TRUE(parsed) << prettify(parsed.issues());
  EXPECT_EQ(parsed.value(), from_json_value<Refund>(kRefundJson).value());
  EXPECT_TRUE(parsed.issues().empty());
  EXPECT_FALSE(parsed.conversion());
}

TEST(TypedValidator, AnAbsentMemberWithADefaultReadsTheDefault) {
  json text = kRefundJson;
  text["currency"] = "USD";
  ASSERT_EQ(TypedValidator(kTypedRefund).parse(text.dump()).value().currency, Currency::USD);
  text.erase("currency");
  const auto parsed = TypedValidator(kTypedRefund).parse(text.dump());
  ASSERT_TRUE(parsed) << prettify(parsed.issues());
  EXPECT_EQ(parsed.value().currency, Currency::EUR);
}

TEST(TypedValidator, AnInvalidTextGivesTheIssuesParseAndValidateGives) {
  const TypedValidator validator(kTypedRefund);
  for (const auto* text : {R"({"orderId": "X", "amount": -1, "orderDate": "2026-11-02",
                              "refundDate": "2026-11-01"})",
                           R"({"orderId": "ORD-123456", "amount": 1, "orderDate": "2026-11-02",
                              "refundDate": "2026-11-01"})",
                           R"([1, 2])", R"({"orderId": )", ""}) {
    const auto parsed = validator.parse(text);
    const auto expected = validator.validator().parse_and_validate(text).issues;
    ASSERT_FALSE(parsed) << text;
    EXPECT_FALSE(parsed.conversion()) << text;
    ASSERT_FALSE(expected.empty()) << text;
    EXPECT_EQ(prettify(parsed.issues()), prettify(expected)) << text;
  }
}

TEST(TypedValidator, AValidValueThatDoesNotFitTheTypeIsAConversionError) {
  const TypedValidator<Everything> validator;  // schema_of<Everything>(): count is an integer
  auto text = to_json_value(Everything{});
  text["count"] = 3000000000LL;
  ASSERT_TRUE(validator.validator().validate(text).empty());
  const auto parsed = validator.parse(text.dump());
  ASSERT_FALSE(parsed);
  EXPECT_TRUE(parsed.issues().empty());
  ASSERT_TRUE(parsed.conversion());
  EXPECT_EQ(parsed.conversion()->path, (Path{"count"}));
  EXPECT_EQ(parsed.conversion()->message, "3000000000 does not fit in int32_t");
}

}  // namespace
}  // namespace accord
