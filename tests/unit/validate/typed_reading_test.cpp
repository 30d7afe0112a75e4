// Typed refinements read cheaply (#26): a refinement's C++ value is read into a value the thread
// reuses (no allocation once warm), a `const std::string&` member predicate gets the document's
// string without a fresh copy, and TypedValidator reads the root struct once: the struct its
// caller gets is the one the root's refinements saw. Allocations are counted with this test
// binary's replaced operator new (fixtures/allocation_count.hpp).

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "accord/json_view.hpp"
#include "accord/typed_rules.hpp"
#include "accord/typed_validator.hpp"
#include "fixtures/allocation_count.hpp"

namespace accord {
namespace {

// Strings longer than a std::string holds in place, so a copy of one is an allocation.
struct ReadRefund {
  std::string orderId;
  std::string orderDate;
  std::string refundDate;
  std::optional<std::string> note;
  std::int32_t quantity = 0;
};
BOOST_DESCRIBE_STRUCT(ReadRefund, (), (orderId, orderDate, refundDate, note, quantity))

constexpr const char* kReadRefundText =
    R"({"orderId": "ORD-000001-long-enough-to-allocate", "orderDate": "2026-11-02 at the desk",
        "refundDate": "2026-11-20 at the desk", "note": "a note longer than sixteen bytes",
        "quantity": 3})";

bool read_refund_dates_in_order(const ReadRefund& r) {
  return r.refundDate >= r.orderDate;
}
bool read_refund_note_has_no_link(const std::string& note) {
  return note.find("http") == std::string::npos;
}

TypedSchema<ReadRefund> read_refund_schema() {
  return typed<ReadRefund>()
      .field(&ReadRefund::note, refine(read_refund_note_has_no_link, "note has a link"))
      .refine(read_refund_dates_in_order, "refundDate is before orderDate",
              {.path = {"refundDate"}});
}

// The refinement of `node` (its only one) called on `text`'s root, counted from the second call.
long long allocations_of_the_second_call(const SchemaNode& node, const std::string& text) {
  const auto parsed = parse_document(text);
  EXPECT_TRUE(parsed.document.has_value());
  const auto& predicate = node.refinements.at(0).view_predicate;
  EXPECT_TRUE(predicate(parsed.document->root()));  // warms the thread's reused value
  testing::arm_allocation_count();
  const bool holds = predicate(parsed.document->root());
  const long long made = testing::disarm_allocation_count();
  EXPECT_TRUE(holds);
  return made;
}

// A TypedValidator of read_refund_schema() parsing `text` twice, counted on the second parse.
long long allocations_of_the_second_parse(const std::string& text) {
  const TypedValidator validator(read_refund_schema());
  EXPECT_TRUE(validator.parse(text));  // warms the thread's reused document and values
  testing::arm_allocation_count();
  const auto parsed = validator.parse(text);
  const long long made = testing::disarm_allocation_count();
  EXPECT_TRUE(parsed) << prettify(parsed.issues());
  return made;
}

TEST(TypedReading, ARefinementOnAStructAllocatesNothingAfterTheFirstDocument) {
  const Schema schema = read_refund_schema();
  EXPECT_EQ(allocations_of_the_second_call(schema.node(), kReadRefundText), 0);
}

TEST(TypedReading, AConstStringMemberRefinementAllocatesNothingAfterTheFirstDocument) {
  const Schema schema = read_refund_schema();
  const Field* note = nullptr;
  for (const auto& field : schema.node().fields) {
    if (field.name == "note") note = &field;
  }
  ASSERT_NE(note, nullptr);
  EXPECT_EQ(
      allocations_of_the_second_call(note->schema.node(), R"("a note longer than sixteen bytes")"),
      0);
}

// Once warm, a parse allocates the returned struct's four long strings and nothing more: the
// root's refinement read them into that struct, and nothing read them a second time.
TEST(TypedReading, TypedReadsTheStructOnce) {
  EXPECT_EQ(allocations_of_the_second_parse(kReadRefundText), 4);
}

TEST(TypedReading, TheStructReturnedIsTheOneTheRootRefinementsSaw) {
  std::vector<const char*> seen;
  const auto record = [&seen](const ReadRefund& r) {
    seen.push_back(r.note->data());
    return true;
  };
  const TypedValidator validator(
      read_refund_schema().refine(record, "never").refine(record, "never"));
  const auto parsed = validator.parse(kReadRefundText);
  ASSERT_TRUE(parsed) << prettify(parsed.issues());
  ASSERT_EQ(seen.size(), 2U);
  EXPECT_EQ(seen[0], parsed.value().note->data());
  EXPECT_EQ(seen[1], parsed.value().note->data());
}

// The thread's reused struct keeps nothing of the document before: an optional member absent now
// reads as empty, though the struct held one.
TEST(TypedReading, AReusedStructForgetsAnOptionalMemberTheNextDocumentLacks) {
  std::vector<bool> had_note;
  const Schema schema = typed<ReadRefund>().refine(
      [&had_note](const ReadRefund& r) {
        had_note.push_back(r.note.has_value());
        return true;
      },
      "never");
  const Validator validator(schema);
  ASSERT_TRUE(validator.parse_and_validate(kReadRefundText).ok());
  ASSERT_TRUE(validator
                  .parse_and_validate(R"({"orderId": "ORD-2", "orderDate": "2026-11-02",
                                          "refundDate": "2026-11-20", "quantity": 1})")
                  .ok());
  EXPECT_EQ(had_note, (std::vector<bool>{true, false}));
}

// A predicate that parses another text with the same validator, on the same thread, gets a
// struct of its own: the outer struct is neither overwritten nor handed out twice.
TEST(TypedReading, APredicateThatParsesAgainLeavesTheOuterStructAlone) {
  const TypedValidator<ReadRefund>* self = nullptr;
  std::optional<std::string> inner_order;
  const auto parse_again = [&](const ReadRefund& r) {
    if (r.orderId == "ORD-inner") return true;
    const auto inner = self->parse(R"({"orderId": "ORD-inner", "orderDate": "2026-11-02",
                                       "refundDate": "2026-11-20", "quantity": 7})");
    if (inner) inner_order = inner.value().orderId;
    return r.orderId == "ORD-000001-long-enough-to-allocate";
  };
  const TypedValidator validator(typed<ReadRefund>().refine(parse_again, "overwritten"));
  self = &validator;
  const auto parsed = validator.parse(kReadRefundText);
  ASSERT_TRUE(parsed) << prettify(parsed.issues());
  EXPECT_EQ(parsed.value().orderId, "ORD-000001-long-enough-to-allocate");
  EXPECT_EQ(parsed.value().quantity, 3);
  EXPECT_EQ(inner_order, "ORD-inner");
}

TEST(TypedReading, ThreadsSharingAValidatorReadTheirOwnStructs) {
  const TypedValidator validator(read_refund_schema());
  std::atomic<int> wrong{0};
  const auto work = [&](int quantity) {
    const std::string text =
        R"({"orderId": "ORD-)" + std::to_string(quantity) +
        R"(", "orderDate": "2026-11-02", "refundDate": "2026-11-20", "quantity": )" +
        std::to_string(quantity) + "}";
    for (int i = 0; i < 2000; ++i) {
      const auto parsed = validator.parse(text);
      if (!parsed || parsed.value().quantity != quantity ||
          parsed.value().orderId != "ORD-" + std::to_string(quantity)) {
        ++wrong;
      }
    }
  };
  std::thread first(work, 1);
  std::thread second(work, 2);
  first.join();
  second.join();
  EXPECT_EQ(wrong.load(), 0);
}

// A refund whose note is `note_bytes` long.
std::string read_refund_with_note(std::size_t note_bytes) {
  return R"({"orderId": "ORD-1", "orderDate": "2026-11-02", "refundDate": "2026-11-20", "note": ")" +
         std::string(note_bytes, 'n') + R"(", "quantity": 1})";
}
// Beyond what a thread keeps in a reused value (typed_scratch.hpp).
constexpr std::size_t kReadLargeNote = std::size_t{2} << 20;

// Validates a refund with a 2 MiB note, then one with a short note, with `schema`, whose
// refinement records in `capacities` the capacity of the note it was handed.
void expect_the_second_note_read_small(const Schema& schema,
                                       const std::vector<std::size_t>& capacities) {
  const Validator validator(schema);
  ASSERT_TRUE(validator.parse_and_validate(read_refund_with_note(kReadLargeNote)).ok());
  ASSERT_TRUE(validator.parse_and_validate(read_refund_with_note(40)).ok());
  ASSERT_EQ(capacities.size(), 2U);
  EXPECT_GE(capacities[0], kReadLargeNote);
  EXPECT_LT(capacities[1], kReadLargeNote);
}

// The predicate gets the thread's reused string itself: after a 2 MiB note, the next note is read
// into a string that no longer holds 2 MiB.
TEST(TypedReading, AReusedStringForgetsALargeStringWhenItsLeaseEnds) {
  std::vector<std::size_t> capacities;
  const auto record = [&capacities](const std::string& note) {
    capacities.push_back(note.capacity());
    return true;
  };
  expect_the_second_note_read_small(
      typed<ReadRefund>().field(&ReadRefund::note, refine(record, "never")), capacities);
}

// A Validator (no TypedValidator around it) reads the root's refinement into the thread's reused
// struct: after a 2 MiB note, the next struct's note no longer holds 2 MiB.
TEST(TypedReading, AReusedStructForgetsALargeStringWhenItsLeaseEnds) {
  std::vector<std::size_t> capacities;
  const auto record = [&capacities](const ReadRefund& r) {
    capacities.push_back(r.note->capacity());
    return true;
  };
  expect_the_second_note_read_small(typed<ReadRefund>().refine(record, "never"), capacities);
}

// A text of 500 KB leaves a document of about 1.5 MB (tape and copy of the text): the thread keeps
// it, so the second parse allocates the returned struct's note (its other strings fit in place)
// and no document.
TEST(TypedReading, TheDocumentOfA500KBTextIsKeptForTheNextParse) {
  EXPECT_EQ(allocations_of_the_second_parse(read_refund_with_note(500'000)), 1);
}

struct ReadLine {
  std::optional<std::int32_t> qty;
};
BOOST_DESCRIBE_STRUCT(ReadLine, (), (qty))

// An array has no fields to tell two schemas apart by: the refinement of a TypedValidator's root
// array reads the value with the schema it was added to (qty defaults to 7), not with the
// validator's (qty optional). A default the validator's schema declares would be filled in before
// any refinement reads (as Zod's parse does), so the two differ where it declares none.
TEST(TypedReading, ARootArrayRefinementReadsWithItsOwnSchema) {
  std::vector<std::int32_t> seen;
  const Schema refined =
      refine(
          [&seen](const std::vector<ReadLine>& lines) {
            for (const auto& line : lines) seen.push_back(line.qty.value_or(0));
            return true;
          },
          "never")
          .apply(array(object({{"qty", integer().default_(7)}})), std::vector<ReadLine>{});
  const TypedValidator<std::vector<ReadLine>> validator(
      array(object({{"qty", integer().optional()}})).refine(refined.node().refinements.at(0)));
  const auto parsed = validator.parse("[{}]");
  ASSERT_TRUE(parsed) << prettify(parsed.issues());
  EXPECT_EQ(parsed.value().at(0).qty, std::nullopt);
  EXPECT_EQ(seen, std::vector<std::int32_t>{7});
}

// The root's refinement met the value that does not fit; the parse reports it as a
// ConversionError, as a parse without refinements does.
TEST(TypedReading, AValueTheRootRefinementCouldNotReadIsTheConversionError) {
  const TypedValidator validator(read_refund_schema());
  const auto parsed = validator.parse(R"({"orderId": "ORD-1", "orderDate": "2026-11-02",
                                          "refundDate": "2026-11-20", "quantity": 3000000000})");
  ASSERT_FALSE(parsed);
  EXPECT_TRUE(parsed.issues().empty());
  ASSERT_TRUE(parsed.conversion());
  EXPECT_EQ(parsed.conversion()->path.to_string(), "quantity");
  EXPECT_EQ(parsed.conversion()->message, "3000000000 does not fit in int32_t");
}

struct ReadSku {
  std::string sku;
  std::int32_t quantity = 0;
  friend bool operator==(const ReadSku&, const ReadSku&) = default;
};
BOOST_DESCRIBE_STRUCT(ReadSku, (), (sku, quantity))

// A reused value read again (as a refinement's scratch value is) holds each text it reads,
// whether the string it overwrites is as long, longer or shorter: as a fresh value reads it.
TEST(TypedReading, AValueReadAgainHoldsEachNewTextWhateverTheLengthBefore) {
  const Schema schema = typed<ReadSku>();
  ReadSku reused;
  for (const std::size_t length : {0, 3, 3, 8, 8, 10, 10, 16, 16, 17, 17, 40, 40, 7, 1, 0, 12}) {
    // Two texts of each length that differ in every byte.
    for (const std::size_t shift : {0, 1}) {
      std::string sku;
      for (std::size_t i = 0; i < length; ++i) sku += static_cast<char>('a' + (i + shift) % 26);
      const nlohmann::json value = {{"sku", sku}, {"quantity", static_cast<int>(length)}};
      const auto parsed = parse_document(value.dump());
      ASSERT_TRUE(parsed.document);
      ASSERT_FALSE(typed_detail::read_into(&schema, parsed.document->root(), reused));
      const auto fresh = from_json_value<ReadSku>(schema, value);
      ASSERT_TRUE(fresh);
      EXPECT_EQ(reused, fresh.value()) << length << " " << shift;
    }
  }
}

}  // namespace
}  // namespace accord
