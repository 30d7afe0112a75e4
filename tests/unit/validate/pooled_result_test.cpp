// A ValidationResult's document takes its tape and strings from those of documents that died on
// the same thread (JsonDocument::Pool, src/core/json_document.cpp): `full` then allocates what
// `verdict` allocates. The pool is bounded (a few documents, each within a size), and a document
// that dies after its thread's pool frees its own buffers. Each test runs on a thread of its own,
// so it starts with an empty pool; allocations are counted with this binary's replaced operator
// new (fixtures/allocation_count.hpp).

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "accord/json_view.hpp"
#include "accord/validate.hpp"
#include "fixtures/allocation_count.hpp"

namespace accord {
namespace {

constexpr const char* kPooledSchema = R"({
  "type": "object",
  "properties": {"orderId": {"type": "string"}, "amount": {"type": "number"}},
  "required": ["orderId", "amount"]
})";
// Keys out of key order: the document keeps a member order too.
constexpr const char* kPooledText = R"({"orderId":"ORD-123456","amount":12.5})";

template <class F>
void on_a_thread_of_its_own(F body) {
  std::thread thread(body);
  thread.join();
}

// Allocations made by parsing `text` to a fresh document, kept alive by `kept` (which has room
// reserved for it).
long long allocations_to_parse(const std::string& text, std::vector<ParsedDocument>& kept) {
  testing::arm_allocation_count();
  kept.push_back(parse_document(text));
  const long long made = testing::disarm_allocation_count();
  EXPECT_TRUE(kept.back().document.has_value());
  return made;
}

TEST(PooledResult, AResultAfterOneDiedAllocatesNothingForAValidDocument) {
  on_a_thread_of_its_own([] {
    const Validator validator =
        Validator::from_json_schema(nlohmann::ordered_json::parse(kPooledSchema));
    (void)validator.parse_and_validate(kPooledText);  // dies here, its buffers kept
    testing::arm_allocation_count();
    const ValidationResult result = validator.parse_and_validate(kPooledText);
    EXPECT_EQ(testing::disarm_allocation_count(), 0);
    // The same verdict and value as the reused document gives, and as nlohmann reads the text.
    JsonDocument reused;
    EXPECT_EQ(result.issues, validator.parse_and_validate(kPooledText, reused));
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(*result.value(), nlohmann::json::parse(kPooledText));
  });
}

TEST(PooledResult, AThreadKeepsTheBuffersOfAtMostFourDocuments) {
  on_a_thread_of_its_own([] {
    std::vector<ParsedDocument> kept;
    kept.reserve(6);
    for (int i = 0; i < 5; ++i) (void)allocations_to_parse(kPooledText, kept);
    kept.clear();  // five die: four are kept
    for (int i = 0; i < 4; ++i) EXPECT_EQ(allocations_to_parse(kPooledText, kept), 0) << i;
    EXPECT_GT(allocations_to_parse(kPooledText, kept), 0);
  });
}

// A text needing no member order: a fresh document of it costs a tape and strings, so a count
// below that means it took kept buffers.
constexpr const char* kOrderedText = R"({"amount":1,"orderId":"x"})";

TEST(PooledResult, ALargeDocumentIsFreedNotKept) {
  on_a_thread_of_its_own([] {
    std::vector<ParsedDocument> kept;
    kept.reserve(3);
    const long long fresh = allocations_to_parse(kOrderedText, kept);
    // 100,000 bytes of text: its copy alone is over the 64 KiB a kept document may hold.
    (void)allocations_to_parse("\"" + std::string(100'000, 'x') + "\"", kept);
    kept.pop_back();
    EXPECT_EQ(allocations_to_parse(kOrderedText, kept), fresh);
  });
}

// About 11 KB: its buffers (about 40 KB) are within what the pool keeps, but far more room than
// a 26-byte text needs.
std::string large_text() {
  std::string large = "[";
  for (int i = 0; i < 1000; ++i) large += i == 0 ? "\"abcdefgh\"" : ",\"abcdefgh\"";
  return large + "]";
}

TEST(PooledResult, ASmallTextDoesNotTakeTheBuffersOfAMuchLargerDocument) {
  on_a_thread_of_its_own([] {
    std::vector<ParsedDocument> kept;
    kept.reserve(3);
    const long long fresh = allocations_to_parse(kOrderedText, kept);
    const std::string large = large_text();
    (void)allocations_to_parse(large, kept);
    kept.pop_back();                                             // its buffers are kept ...
    EXPECT_EQ(allocations_to_parse(kOrderedText, kept), fresh);  // ... but not given to this one
    EXPECT_EQ(allocations_to_parse(large, kept), 0);             // a text of its size takes them
  });
}

// Guards Pool::release(): a slot emptied below others is filled from the last, which stays kept.
TEST(PooledResult, BuffersTakenFromUnderOthersLeaveTheOthersKept) {
  on_a_thread_of_its_own([] {
    std::vector<ParsedDocument> kept;
    kept.reserve(4);
    const std::string large = large_text();
    (void)allocations_to_parse(kOrderedText, kept);
    (void)allocations_to_parse(large, kept);
    // The small document dies first (clear() alone may destroy in either order): the large
    // one's buffers are kept after its.
    kept.front().document.reset();
    kept.clear();
    EXPECT_EQ(allocations_to_parse(kOrderedText, kept), 0);  // taken from under the large one's
    EXPECT_EQ(allocations_to_parse(large, kept), 0);         // still kept
    EXPECT_EQ(kept.back().document->root().to_json(), nlohmann::json::parse(large));
  });
}

TEST(PooledResult, ADocumentThatOutlivesItsThreadsPoolFreesItsOwnBuffers) {
  // Under ASan/LSan a document given to a pool already destroyed would leak or touch freed
  // memory; here the thread ends cleanly and the document read what nlohmann reads.
  on_a_thread_of_its_own([] {
    // Constructed before the pool (first used by the parse below), so destroyed after it.
    thread_local std::optional<ParsedDocument> outliving;
    outliving.emplace();
    *outliving = parse_document(kPooledText);
    ASSERT_TRUE(outliving->document.has_value());
    EXPECT_EQ(outliving->document->root().to_json(), nlohmann::json::parse(kPooledText));
  });
}

}  // namespace
}  // namespace accord
