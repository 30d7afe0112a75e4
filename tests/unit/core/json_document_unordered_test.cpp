// A document read by detail::parse_document_unordered (a reply's envelope) leaves its small
// objects' members in the text's order, but must hold what nlohmann::ordered_json reads from the
// same text: each member found by find(), the members as written in the text's order, and a key
// repeated in an object read by nlohmann (its last value, at the place of its first), whatever
// the object's size and however alike its keys.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/json_view.hpp"
#include "core/json_document.hpp"
#include "core/json_dump.hpp"
#include "fixtures/reads_as_nlohmann.hpp"

namespace accord {
namespace {

// The text read unordered holds what ordered_json reads: the same members in the same order,
// each found by its key, or the same refusal.
void expect_unordered_reads_as_ordered_json(const std::string& text) {
  SCOPED_TRACE(text);
  const auto tree = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  const ParsedDocument parsed = detail::parse_document_unordered(text, ParseLimits{});
  ASSERT_EQ(parsed.document.has_value(), !tree.is_discarded());
  if (tree.is_discarded()) return;
  std::string as_written;
  detail::dump_value(parsed.document->root(), detail::MemberOrder::text, as_written);
  EXPECT_EQ(as_written, tree.dump());
  if (!tree.is_object()) return;
  for (auto member = tree.begin(); member != tree.end(); ++member) {
    const auto found = parsed.document->root().find(member.key());
    ASSERT_TRUE(found.has_value()) << member.key();
    std::string value;
    detail::dump_value(*found, detail::MemberOrder::text, value);
    EXPECT_EQ(value, member.value().dump());
  }
  EXPECT_FALSE(parsed.document->root().find("no such key").has_value());
}

TEST(JsonDocumentUnordered, AnEnvelopeReadsAsOrderedJsonInItsTextsOrder) {
  expect_unordered_reads_as_ordered_json(
      R"({"id":"chatcmpl-1","object":"chat.completion","created":1796550065,"choices":[{"index":0,)"
      R"("message":{"role":"assistant","content":"{\"amount\":42.5,\"note\":\"caf\u00e9\"}",)"
      R"("refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"stop"}],)"
      R"("usage":{"prompt_tokens":39,"completion_tokens":41,"total_tokens":80,)"
      R"("prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"b":0,"a":1}}})");
  expect_unordered_reads_as_ordered_json(R"([{"z":1,"a":[{"y":2,"b":3}]},"x",1.5,null])");
}

TEST(JsonDocumentUnordered, ObjectsOfEverySizeInAnyOrderReadAsOrderedJson) {
  for (std::size_t count = 1; count <= 20; ++count) {
    std::vector<std::string> keys;
    // Descending, and alike in their first seven bytes for every other one.
    for (std::size_t i = count; i-- > 0;) {
      keys.push_back((i % 2 == 0 ? "key" : "prefix_") + std::to_string(i));
    }
    expect_unordered_reads_as_ordered_json(testing_documents::object_of_keys(keys));
    expect_unordered_reads_as_ordered_json("{\"outer\":" + testing_documents::object_of_keys(keys) +
                                           ",\"a\":[]}");
  }
}

TEST(JsonDocumentUnordered, ARepeatedKeyAnywhereReadsAsOrderedJson) {
  for (std::size_t members = 2; members <= 18; ++members) {
    for (std::size_t first = 0; first < members; ++first) {
      for (std::size_t second = first + 1; second < members; ++second) {
        std::vector<std::string> keys;
        for (std::size_t i = 0; i < members; ++i) {
          keys.push_back("key" + std::to_string(i == second ? first : members - i));
        }
        expect_unordered_reads_as_ordered_json(testing_documents::object_of_keys(keys));
      }
    }
  }
}

TEST(JsonDocumentUnordered, KeysAlikeInTheirFirstSevenBytesAreRepeatedOnlyWhenWhollyAlike) {
  expect_unordered_reads_as_ordered_json(
      testing_documents::object_of_keys({"abcdefgh_two", "abcdefgh_one"}));
  expect_unordered_reads_as_ordered_json(
      testing_documents::object_of_keys({"abcdefgh_one", "b", "abcdefgh_one"}));
  expect_unordered_reads_as_ordered_json(
      testing_documents::object_of_keys({"abcdefg", "abcdefgh", "abcdefg"}));
  // A key and the same key with a zero byte after it share their sort key's prefix.
  expect_unordered_reads_as_ordered_json(R"({"a":1,"a\u0000":2})");
  expect_unordered_reads_as_ordered_json(R"({"a\u0000":1,"a":2,"\u0061\u0000":3})");
}

// The two modes share the thread's known shapes: an object's shape first met unordered (its
// keys' order worked out, none recorded) then gives a document read in key order its members in
// key order, and one first met in key order lets an unordered reading of it pass. The inner
// object's keys are this test's own, so no test run before it has stored its shape.
TEST(JsonDocumentUnordered, AShapeMetUnorderedFirstGivesTheNextDocumentsKeyOrder) {
  const std::string text = R"({"zeta":1,"alpha":2,"mid":{"yarrow":1,"xenon":2},"beta":3})";
  expect_unordered_reads_as_ordered_json(text);
  testing_documents::expect_document_reads_as_nlohmann(text);
  expect_unordered_reads_as_ordered_json(text);
}

// A repeated key in an object whose count and first and last keys are those of a shape already
// known (so it is held against that shape's keys) is still caught: each key is compared.
TEST(JsonDocumentUnordered, ARepeatedKeyInAKnownShapeIsCaught) {
  expect_unordered_reads_as_ordered_json(R"({"a":1,"b":2,"c":3})");
  expect_unordered_reads_as_ordered_json(R"({"a":1,"a":2,"c":3})");
}

// An object whose keys tie in their first seven bytes has the sort keys of one that repeats a
// key (prompt_tokens_details and prompt_tokens): a shape with a tie is never stored, so the
// repeated key is caught.
TEST(JsonDocumentUnordered, ARepeatedKeyWithTheSortKeysOfATiedShapeIsCaught) {
  expect_unordered_reads_as_ordered_json(R"({"prompt_tokens":1,"x":2,"prompt_tokens_details":3})");
  expect_unordered_reads_as_ordered_json(R"({"prompt_tokens":1,"x":2,"prompt_tokens":3})");
}

}  // namespace
}  // namespace accord
