// The tape writer's shortcuts (issue 26, parser round four): a small object whose keys match an
// object sorted before on the thread takes that object's member order, and a container closes
// while its entries still wait to reach the tape. Each document must still read as nlohmann
// reads it, whatever came before it.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "accord/json_view.hpp"
#include "fixtures/reads_as_nlohmann.hpp"

namespace accord {
namespace {

TEST(JsonDocumentShapes, ObjectsOfRepeatedShapesInAnySequenceReadAsNlohmann) {
  // More shapes than the writer remembers, some of one size, some alike but for one key, so
  // shapes meet, replace one another and come back.
  const std::vector<std::string> names = {"orderId", "amount", "currency", "note", "sku",
                                          "b",       "a",      "zz",       "",     "memo"};
  std::vector<std::vector<std::string>> shapes;
  std::mt19937 random(2612);
  for (std::size_t count = 2; count <= names.size(); ++count) {
    for (int variant = 0; variant < 3; ++variant) {
      std::vector<std::string> keys = names;
      std::shuffle(keys.begin(), keys.end(), random);
      keys.resize(count);
      shapes.push_back(keys);
    }
  }
  for (int round = 0; round < 400; ++round) {
    const auto& keys = shapes[random() % shapes.size()];
    testing_documents::expect_document_reads_as_nlohmann(testing_documents::object_of_keys(keys));
    // The same shape nested in another, and twice in one array.
    testing_documents::expect_document_reads_as_nlohmann(
        "{\"z\":" + testing_documents::object_of_keys(keys) + ",\"a\":1}");
    testing_documents::expect_document_reads_as_nlohmann(
        "[" + testing_documents::object_of_keys(keys) + "," +
        testing_documents::object_of_keys(keys) + "]");
  }
}

TEST(JsonDocumentShapes, KeysAlikeInTheirFirstSevenBytesAreOrderedByTheWholeKeyEachTime) {
  for (int round = 0; round < 3; ++round) {
    testing_documents::expect_document_reads_as_nlohmann(
        testing_documents::object_of_keys({"abcdefgZ", "abcdefgA", "b"}));
    testing_documents::expect_document_reads_as_nlohmann(
        testing_documents::object_of_keys({"abcdefgA", "abcdefgZ", "b"}));
  }
}

TEST(JsonDocumentShapes, AKeyRepeatedAfterASortedShapeReadsAsNlohmann) {
  testing_documents::expect_document_reads_as_nlohmann(
      testing_documents::object_of_keys({"b", "a"}));
  testing_documents::expect_document_reads_as_nlohmann(
      testing_documents::object_of_keys({"b", "b"}));
  testing_documents::expect_document_reads_as_nlohmann(
      testing_documents::object_of_keys({"b", "a"}));
}

TEST(JsonDocumentShapes, ASeenShapeWhoseKeysDifferPastSevenBytesTakesItsOwnOrder) {
  // The sort keys hold seven bytes: these two objects have the same ones, and the same order.
  const auto first = parse_document(testing_documents::object_of_keys({"b", "abcdefgh_one"}));
  const auto second = parse_document(testing_documents::object_of_keys({"b", "abcdefgh_two"}));
  ASSERT_TRUE(first.document && second.document);
  std::vector<std::string> keys;
  for (const JsonMember& member : second.document->root().members()) keys.emplace_back(member.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"abcdefgh_two", "b"}));
  EXPECT_EQ(second.document->root().find("abcdefgh_two")->get_unsigned(), 1U);
}

// `text` read into a document that held `before`: the tape starts from the room `before` left.
void expect_reused_document_reads_as_nlohmann(const std::string& before, const std::string& text) {
  SCOPED_TRACE(text);
  const auto tree = parse_json(text);
  ASSERT_TRUE(tree.value.has_value());
  JsonDocument reused = *parse_document(before).document;
  ASSERT_TRUE(parse_document(text, ParseLimits{}, reused).empty());
  EXPECT_EQ(nlohmann::json::to_cbor(reused.root().to_json()), nlohmann::json::to_cbor(*tree.value));
  EXPECT_EQ(reused.root().dump(), tree.value->dump());
}

TEST(JsonDocumentShapes, ContainersOpenWhileTheTapeGrowsReadAsNlohmann) {
  // The tape's first room is an entry for every 8 bytes of text, and it doubles when full. Arrays
  // of every length to 70 (denser than that room), before and inside objects whose keys come out
  // of order, grow it while containers are open: in a fresh document, in one reused after a
  // smaller text and in one reused after a larger one. (An entry written past the room is what
  // ASan would see.)
  std::string larger = "[0";
  for (int i = 1; i < 1000; ++i) larger += i % 2 == 0 ? ",0" : ",{}";
  larger += "]";
  expect_reused_document_reads_as_nlohmann("[1]", larger);
  for (std::size_t items = 0; items <= 70; ++items) {
    std::string array = "[";
    for (std::size_t i = 0; i < items; ++i) array += (i == 0 ? "" : ",") + std::to_string(i);
    array += "]";
    for (const std::string& text :
         {"{\"z\":" + array + ",\"b\":{\"y\":1,\"c\":[]},\"a\":2}",
          "[{\"y\":" + array + ",\"x\":{\"q\":" + array + ",\"p\":1}}," + array + "]"}) {
      testing_documents::expect_document_reads_as_nlohmann(text);
      expect_reused_document_reads_as_nlohmann("[1]", text);
      expect_reused_document_reads_as_nlohmann(larger, text);
    }
  }
}

// One document of a stream whose documents change: the keys of `names` that `random` keeps, in
// the order it gives, each value of a kind it picks (every kind of JSON value, so a member's kind
// changes from one document to the next), or a top-level scalar, or a text cut short.
std::string changing_document(std::mt19937& random) {
  const std::vector<std::string> names = {"accountId", "email",          "amount", "currency",
                                          "memo",      "idempotencyKey", "a",      "zz"};
  const std::vector<std::string> values = {"\"acct_r5t9b49\"",
                                           "\"caf\u00e9 \\\"x\\\"\"",
                                           "\"\"",
                                           "9999.99",
                                           "500",
                                           "-0",
                                           "-12.5e-3",
                                           "1e400",
                                           "12345678901234567890",
                                           "true",
                                           "false",
                                           "null",
                                           "{\"b\":1,\"a\":[2,{\"d\":null,\"c\":\"x\"}]}",
                                           "[]",
                                           "{}"};
  switch (random() % 8) {
    case 0:  // a top-level scalar, shorter than most texts before it: the padding after it
             // must read as the end, whatever the longer text left there
      return values[random() % 9];
    case 1: {  // a text cut short
      std::string text = changing_document(random);
      return text.substr(0, random() % (text.size() + 1));
    }
    default:
      break;
  }
  std::vector<std::string> keys = names;
  std::shuffle(keys.begin(), keys.end(), random);
  keys.resize(random() % (keys.size() + 1));
  std::string text = "{";
  for (const std::string& key : keys) {
    if (text.size() > 1) text += ',';
    text += "\"" + key + "\":" + values[random() % values.size()];
  }
  return text + "}";
}

TEST(JsonDocumentShapes, AStreamWhoseKeysAndValueKindsChangeReadsAsNlohmannInAReusedDocument) {
  std::mt19937 random(2608);
  JsonDocument reused;
  for (int round = 0; round < 3000; ++round) {
    const std::string text = changing_document(random);
    testing_documents::expect_document_reads_as_nlohmann(text);
    testing_documents::expect_read_into_reads_as_nlohmann(reused, text);
  }
}

}  // namespace
}  // namespace accord
