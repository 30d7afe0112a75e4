// The engine's valid path reads the parsed document in place (#26): a valid document's verdict
// allocates nothing in the engine (member lookup, enums, patterns, formats, declarative rules),
// counted with this test binary's replaced operator new, armed around the verdict alone. Beside
// it, the behaviours the faster paths must keep: members found in any order, the declarative
// rules' comparisons and defaults, string enums, the date pattern beside a date format.

#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <string>

#include "../examples/schemas/refund.hpp"
#include "../examples/schemas/transfer.hpp"
#include "accord/json_schema.hpp"
#include "accord/json_view.hpp"
#include "accord/typed_value.hpp"
#include "accord/validate.hpp"
#include "fixtures/allocation_count.hpp"
#include "validate/validator_impl.hpp"

namespace {

// operator-new calls made on this thread while armed.
thread_local bool allocations_armed = false;
thread_local long long allocations_made = 0;

void* counted_malloc(std::size_t size) noexcept {
  if (allocations_armed) ++allocations_made;
  return std::malloc(size == 0 ? 1 : size);
}
void* counted_or_throw(std::size_t size) {
  if (void* p = counted_malloc(size)) return p;
  throw std::bad_alloc();
}

}  // namespace

// Every replaceable form at once, each on malloc/free: a form left to the library (or to a
// sanitizer's interceptor) would free what another form allocated. Out of line: inlined into a
// delete-expression, g++ would see free() given what new returned.
[[gnu::noinline]] void* operator new(std::size_t size) {
  return counted_or_throw(size);
}
[[gnu::noinline]] void* operator new[](std::size_t size) {
  return counted_or_throw(size);
}
[[gnu::noinline]] void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return counted_malloc(size);
}
[[gnu::noinline]] void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return counted_malloc(size);
}
[[gnu::noinline]] void operator delete(void* p) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t /*size*/) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, std::size_t /*size*/) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

void accord::testing::arm_allocation_count() {
  allocations_made = 0;
  allocations_armed = true;
}
long long accord::testing::disarm_allocation_count() {
  allocations_armed = false;
  return allocations_made;
}

namespace accord {
namespace {

using nlohmann::ordered_json;

// A refund-shaped schema with no refinements: whatever allocates here is the engine's own.
constexpr const char* kAllocationRefundSchema = R"({
  "type": "object",
  "properties": {
    "orderId": {"type": "string", "pattern": "^ORD-\\d{6}$"},
    "amount": {"type": "number", "exclusiveMinimum": 0},
    "currency": {"type": "string", "enum": ["EUR", "USD"]},
    "orderDate": {"type": "string", "format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
    "note": {"type": "string", "maxLength": 500},
    "sku": {"type": "string", "minLength": 1}
  },
  "required": ["orderId", "amount", "currency", "orderDate", "note", "sku"],
  "additionalProperties": false
})";

// A string comparison between two fields, and a number compared with a field that has a default.
constexpr const char* kAllocationRulesSchema = R"({
  "type": "object",
  "properties": {
    "orderDate": {"type": "string"},
    "refundDate": {"type": "string"},
    "amount": {"type": "number"},
    "limit": {"type": "number", "default": 100}
  },
  "required": ["orderDate", "refundDate", "amount"],
  "x-accord-rules": [
    {"rule": "refundDate >= orderDate", "message": "refund before order"},
    {"rule": "amount <= limit", "message": "over the limit"}
  ]
})";

std::shared_ptr<const Validator::Impl> compiled(const char* schema) {
  return detail::make_validator_impl(ordered_json::parse(schema), nullptr, {});
}

// The engine's issues for `text` and how many allocations the verdict alone made.
struct CountedVerdict {
  Issues issues;
  long long allocations = 0;
};
CountedVerdict counted(const Validator::Impl& impl, const std::string& text) {
  const auto parsed = parse_document(text);
  if (!parsed.document) throw std::runtime_error("the test document does not parse");
  allocations_made = 0;
  allocations_armed = true;
  Issues issues = impl.engine->issues(parsed.document->root());
  allocations_armed = false;
  return {std::move(issues), allocations_made};
}

TEST(ValidPathAllocations, AValidRefundShapedDocumentAllocatesNothingInTheEngine) {
  const auto impl = compiled(kAllocationRefundSchema);
  // Keys out of key order, and a note longer than any inline string buffer.
  const auto verdict = counted(*impl, R"({"sku":"x88","orderId":"ORD-123456","amount":12.5,
      "note":"the parcel arrived damaged, please refund it","currency":"USD",
      "orderDate":"2024-02-29"})");
  EXPECT_TRUE(verdict.issues.empty());
  EXPECT_EQ(verdict.allocations, 0);
  // The counter counts: an issue is made of allocated strings.
  EXPECT_GT(counted(*impl, R"({"sku":""})").allocations, 0);
}

TEST(ValidPathAllocations, AValidTransferDocumentWithItsRuleAllocatesNothingInTheEngine) {
  const Schema schema = examples::transfer_schema();
  const auto impl = detail::make_validator_impl(
      emit(schema.check(), EmitOptions{.dialect = Dialect::draft07}).json, &schema,
      detail::EngineOptions{.default_draft = detail::Draft::draft7});
  const auto verdict = counted(*impl, R"({"accountId":"acct_r5t9b49","email":"ops@example.com",
      "amount":450,"currency":"eur","memo":"order thanks"})");
  EXPECT_TRUE(verdict.issues.empty());
  EXPECT_EQ(verdict.allocations, 0);
}

TEST(ValidPathAllocations, RulesComparingStringsAndADefaultAllocateNothingWhenTheyHold) {
  const auto impl = compiled(kAllocationRulesSchema);
  const auto verdict = counted(
      *impl, R"({"orderDate":"2024-01-01","refundDate":"2024-03-01 and a long tail","amount":7})");
  EXPECT_TRUE(verdict.issues.empty());
  EXPECT_EQ(verdict.allocations, 0);
}

TEST(CompiledRules, AStringRuleComparesByCodeUnit) {
  const auto impl = compiled(kAllocationRulesSchema);
  const auto verdict =
      counted(*impl, R"({"orderDate":"2024-05-01","refundDate":"2024-04-30","amount":7})");
  ASSERT_EQ(verdict.issues.size(), 1u);
  EXPECT_EQ(verdict.issues[0].message, "refund before order");
  EXPECT_EQ(verdict.issues[0].path.to_pointer(), "/refundDate");
}

TEST(CompiledRules, AnAbsentFieldIsComparedAsItsDeclaredDefault) {
  const auto impl = compiled(kAllocationRulesSchema);
  const auto over =
      counted(*impl, R"({"orderDate":"2024-01-01","refundDate":"2024-01-02","amount":101})");
  ASSERT_EQ(over.issues.size(), 1u);
  EXPECT_EQ(over.issues[0].message, "over the limit");
  const auto raised = counted(
      *impl, R"({"orderDate":"2024-01-01","refundDate":"2024-01-02","amount":101,"limit":200})");
  EXPECT_TRUE(raised.issues.empty());
}

TEST(MemberLookup, MembersInReverseKeyOrderAreEachFoundAndAnExtraOneNamed) {
  const auto impl = compiled(kAllocationRefundSchema);
  const auto verdict = counted(*impl, R"({"zzz":1,"sku":"a","orderId":"ORD-123456",
      "orderDate":"2024-01-01","note":"n","currency":"EUR","amount":1,"aaa":2})");
  ASSERT_EQ(verdict.issues.size(), 1u);
  EXPECT_EQ(verdict.issues[0].message, R"(Unrecognized keys: "aaa", "zzz")");
}

TEST(MemberLookup, AMissingPropertyBetweenPresentOnesIsReportedInSchemaOrder) {
  const auto impl = compiled(kAllocationRefundSchema);
  const auto verdict = counted(*impl, R"({"orderId":"ORD-12345","amount":1,
      "orderDate":"2024-01-01","note":"n","sku":""})");
  ASSERT_EQ(verdict.issues.size(), 3u);
  EXPECT_EQ(verdict.issues[0].path.to_pointer(), "/orderId");
  EXPECT_EQ(verdict.issues[1].path.to_pointer(), "/currency");
  EXPECT_EQ(verdict.issues[2].path.to_pointer(), "/sku");
}

TEST(MemberLookup, AnObjectWithMoreDeclaredPropertiesThanTheStackBufferIsCheckedTheSameWay) {
  ordered_json schema = {{"type", "object"}, {"additionalProperties", false}};
  for (int i = 0; i < 20; ++i) {
    const std::string name = "p" + std::to_string(i);
    schema["properties"][name] = {{"type", "integer"}};
    schema["required"].push_back(name);
  }
  const auto impl = detail::make_validator_impl(schema, nullptr, {});
  std::string text = R"({"extra":0,"p3":"three")";
  for (int i = 0; i < 20; ++i) {
    if (i != 3 && i != 7) text += ",\"p" + std::to_string(i) + "\":" + std::to_string(i);
  }
  text += "}";
  const auto verdict = counted(*impl, text);
  ASSERT_EQ(verdict.issues.size(), 3u);
  EXPECT_EQ(verdict.issues[0].path.to_pointer(), "/p3");
  EXPECT_EQ(verdict.issues[1].path.to_pointer(), "/p7");
  EXPECT_EQ(verdict.issues[2].message, R"(Unrecognized key: "extra")");
}

TEST(StringEnum, ANumberIsNoneOfAStringEnumsOptions) {
  const auto impl = compiled(R"({"enum": ["1", "2"]})");
  EXPECT_EQ(counted(*impl, "1").issues.size(), 1u);
  EXPECT_TRUE(counted(*impl, R"("2")").issues.empty());
  EXPECT_EQ(counted(*impl, R"("3")").issues.size(), 1u);
}

TEST(DatePattern, ADateThatFailsItsFormatButMatchesThePatternIsStillRefused) {
  const auto impl = compiled(kAllocationRefundSchema);
  const auto verdict = counted(*impl, R"({"orderId":"ORD-123456","amount":1,"currency":"EUR",
      "orderDate":"2023-02-29","note":"n","sku":"a"})");
  ASSERT_EQ(verdict.issues.size(), 1u);
  EXPECT_EQ(verdict.issues[0].path.to_pointer(), "/orderDate");
}

TEST(DatePattern, AnAnnotatedDateFormatLeavesThePatternToJudge) {
  ValidatorOptions options;
  options.formats = FormatMode::annotation;
  const auto validator = Validator::from_json_schema(
      ordered_json::parse(R"({"format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"})"), options);
  EXPECT_TRUE(validator.validate("2023-02-29").empty());
  EXPECT_EQ(validator.validate("2023-2-29").size(), 1u);
}

TEST(PropertyNames, EachKeyIsJudgedAsAStringOfItsOwn) {
  const auto impl = compiled(R"({"propertyNames": {"maxLength": 3, "pattern": "^[a-z]+$"}})");
  const auto verdict = counted(*impl, R"({"abcd":1,"ab":2,"x1":3,"xyz":4})");
  ASSERT_EQ(verdict.issues.size(), 2u);
  EXPECT_EQ(verdict.issues[0].message, R"(Invalid key: "abcd")");
  EXPECT_EQ(verdict.issues[1].message, R"(Invalid key: "x1")");
  EXPECT_TRUE(counted(*impl, "{}").issues.empty());
}

TEST(TypedMemberLookup, AStructIsReadFromMembersInAnyOrder) {
  const Schema schema = examples::refund_schema();
  const auto parsed = parse_document(R"({"sku":"s","refundDate":"2024-01-02","note":"n",
      "orderDate":"2024-01-01","currency":"USD","amount":3.5,"orderId":"ORD-123456"})");
  ASSERT_TRUE(parsed.document);
  const auto refund = from_json_value<examples::Refund>(schema, parsed.document->root());
  ASSERT_TRUE(refund.ok());
  EXPECT_EQ(refund.value().orderId, "ORD-123456");
  EXPECT_EQ(refund.value().amount, 3.5);
  EXPECT_EQ(refund.value().currency, examples::RefundCurrency::USD);
  EXPECT_EQ(refund.value().refundDate, "2024-01-02");
  EXPECT_EQ(refund.value().sku, "s");
}

TEST(TypedMemberLookup, AnAbsentMemberIsNamedMissing) {
  const Schema schema = examples::refund_schema();
  const auto parsed = parse_document(R"({"sku":"s","refundDate":"2024-01-02","note":"n",
      "orderDate":"2024-01-01","currency":"USD","orderId":"ORD-123456"})");
  ASSERT_TRUE(parsed.document);
  const auto refund = from_json_value<examples::Refund>(schema, parsed.document->root());
  ASSERT_FALSE(refund.ok());
  EXPECT_EQ(refund.error().path.to_pointer(), "/amount");
  EXPECT_EQ(refund.error().message, "missing");
}

}  // namespace
}  // namespace accord
