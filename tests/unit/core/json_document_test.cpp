#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "accord/json_text.hpp"
#include "accord/json_view.hpp"

namespace accord {
namespace {

// Exact sameness of two trees, number kinds included (== says 1 == 1.0): CBOR writes each kind
// with its own major type.
void expect_same_tree(const nlohmann::json& got, const nlohmann::json& want) {
  EXPECT_EQ(nlohmann::json::to_cbor(got), nlohmann::json::to_cbor(want)) << want.dump();
}

JsonDocument document_of(std::string_view text) {
  auto parsed = parse_document(text);
  EXPECT_TRUE(parsed.document.has_value()) << text;
  return parsed.document ? std::move(*parsed.document) : JsonDocument();
}

const std::vector<std::string> kTexts = {
    "null",
    "true",
    "false",
    "0",
    "-0",
    "-0.0",
    "1.0",
    "1e2",
    "-12",
    "123456789012345678",
    "1234567890123456789",   // 19 digits: nlohmann's unsigned
    "18446744073709551615",  // largest unsigned
    "18446744073709551616",  // one past: a double
    "-9223372036854775808",  // smallest integer
    "-9223372036854775809",  // one past: a double
    "2.2250738585072014e-308",
    "1e-400",  // underflow keeps a zero
    R"("")",
    R"("a\"b\\c\/d\b\f\n\r\t")",
    R"("\u00e9\u20ac\ud83d\ude00")",
    "\"caf\xc3\xa9 \xe2\x82\xac\"",
    R"("\u0001\u001f\u007f")",
    "[]",
    "{}",
    R"([1,[2,[3,[]]],{"a":{}}])",
    R"({"b":1,"a":2,"c":{"z":[1,2],"y":null}})",
    R"({"a":1,"a":2})",  // repeated key: the last value, as nlohmann
    R"({"k":1,"b":2,"k":3,"a":4})",
    "\xef\xbb\xbf{\"bom\":true}",  // byte-order mark: nlohmann skips it
    " \n\t[ 1 , 2 ]\r\n",
    R"({"":0,"a":1,"A":2,"aa":3,"\u00e9":4})",
    R"("a string past the 15 bytes a std::string holds in its own buffer")",
    R"({"a\"b":"c\\d","\n":"\u00e9\t","a key past the short-string buffer":"a value \/ past it"})",
    // More members than the reader's small-object sort takes, in no key order.
    [] {
      std::string text = "{";
      for (int i = 0; i < 40; ++i) {
        const int key = i * 7 % 40;
        text += (i == 0 ? "\"k" : ",\"k") + std::to_string(key) +
                "\":" + (key % 2 == 0 ? std::to_string(key) : "\"v" + std::to_string(key) + "\"");
      }
      return text + "}";
    }(),
};

TEST(ParseDocument, GivesTheTreeNlohmannGivesForEveryText) {
  for (const auto& text : kTexts) {
    SCOPED_TRACE(text);
    const auto tree = parse_json(text);
    const auto parsed = parse_document(text);
    ASSERT_TRUE(tree.value.has_value());
    ASSERT_TRUE(parsed.document.has_value());
    EXPECT_TRUE(parsed.issues.empty());
    const JsonView root = parsed.document->root();
    expect_same_tree(*tree.value, nlohmann::json::parse(text));  // the quick tree reader too
    expect_same_tree(root.to_json(), *tree.value);
    EXPECT_EQ(root.dump(), tree.value->dump());
    EXPECT_TRUE(root == *tree.value);
  }
}

TEST(ParseDocument, RefusesWhatParseJsonRefusesWithTheSameMessage) {
  const std::vector<std::string> bad = {
      "",
      "   ",
      "[1,]",
      "{\"a\" 1}",
      "\"abc",
      "01",
      "1.",
      "-",
      "1e400",
      "-1e400",
      "[1] x",
      "\"\\x\"",
      "\"\\ud800\"",
      "\"\xff\"",
      "\"\xc3\"",
      "tru",
      "nul",
      "{\"a\":1,}",
      "\"\x01\"",
      "[" + std::string(300, '[') + std::string(301, ']'),
  };
  for (const auto& text : bad) {
    SCOPED_TRACE(text);
    const auto tree = parse_json(text);
    const auto parsed = parse_document(text);
    ASSERT_FALSE(tree.value.has_value());
    EXPECT_FALSE(parsed.document.has_value());
    ASSERT_EQ(parsed.issues.size(), tree.issues.size());
    EXPECT_EQ(parsed.issues[0].message, tree.issues[0].message);
    EXPECT_EQ(parsed.issues[0].code, IssueCode::invalid_json);
  }
}

TEST(ParseDocument, KeepsTheLimitsOfParseJson) {
  ParseLimits limits;
  limits.max_depth = 2;
  EXPECT_TRUE(parse_document("[[1]]", limits).document.has_value());
  EXPECT_FALSE(parse_document("[[[1]]]", limits).document.has_value());
  limits = ParseLimits{};
  limits.max_bytes = 4;
  EXPECT_FALSE(parse_document("[1,2]", limits).document.has_value());
  limits = ParseLimits{};
  limits.refuse_repeated_keys = true;
  const auto repeated = parse_document(R"({"a":1,"a":2})", limits);
  EXPECT_FALSE(repeated.document.has_value());
  EXPECT_EQ(repeated.issues.at(0).message,
            parse_json(R"({"a":1,"a":2})", limits).issues.at(0).message);
}

TEST(JsonView, NumberKindsFollowNlohmann) {
  const auto doc = document_of(R"([5,-5,5.0,-0,18446744073709551615,-9223372036854775808])");
  std::vector<JsonView> items(doc.root().items().begin(), doc.root().items().end());
  ASSERT_EQ(items.size(), 6U);
  EXPECT_TRUE(items[0].is_number_unsigned());
  EXPECT_TRUE(items[0].is_number_integer());
  EXPECT_EQ(items[0].get_unsigned(), 5U);
  EXPECT_FALSE(items[1].is_number_unsigned());
  EXPECT_TRUE(items[1].is_number_integer());
  EXPECT_EQ(items[1].get_integer(), -5);
  EXPECT_TRUE(items[2].is_number_float());
  EXPECT_FALSE(items[2].is_number_integer());
  EXPECT_EQ(items[2].get_double(), 5.0);
  EXPECT_TRUE(items[3].is_number_integer());
  EXPECT_FALSE(items[3].is_number_unsigned());  // -0 is nlohmann's integer 0
  EXPECT_EQ(items[4].get_unsigned(), 18446744073709551615ULL);
  EXPECT_EQ(items[5].get_integer(), INT64_MIN);
  EXPECT_EQ(items[1].get_double(), -5.0);
  for (JsonView item : items) {
    EXPECT_TRUE(item.is_number());
    EXPECT_STREQ(item.type_name(), "number");
  }
}

TEST(JsonView, TypeNamesAreNlohmanns) {
  for (const char* text : {"null", "true", "\"s\"", "[]", "{}", "1.5"}) {
    const auto doc = document_of(text);
    EXPECT_STREQ(doc.root().type_name(), nlohmann::json::parse(text).type_name());
  }
}

TEST(JsonView, SizeIsItemsOrMembersNotStringLength) {
  EXPECT_EQ(document_of("[1,[2,3],{}]").root().size(), 3U);
  EXPECT_EQ(document_of(R"({"a":[1,2],"b":{"c":1}})").root().size(), 2U);
  EXPECT_EQ(document_of(R"("abcd")").root().size(), 0U);
  EXPECT_EQ(document_of("7").root().size(), 0U);
}

TEST(JsonView, MembersComeInKeyOrderWhateverTheTextOrder) {
  const auto doc = document_of(R"({"zeta":1,"alpha":{"y":2,"x":3},"mid":[4]})");
  std::vector<std::string> keys;
  for (const JsonMember& member : doc.root().members()) keys.emplace_back(member.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"alpha", "mid", "zeta"}));
  const auto alpha = doc.root().find("alpha");
  ASSERT_TRUE(alpha.has_value());
  EXPECT_EQ((*alpha->members().begin()).key, "x");
}

TEST(JsonView, RepeatedKeyKeepsTheLastValue) {
  const auto doc = document_of(R"({"a":1,"b":2,"a":[3]})");
  EXPECT_EQ(doc.root().size(), 2U);
  EXPECT_EQ(doc.root().find("a")->dump(), "[3]");
}

TEST(JsonView, FindsEveryMemberAndNothingElse) {
  std::string text = "{";
  nlohmann::json tree = nlohmann::json::object();
  for (int i = 99; i >= 0; --i) {  // descending: the tape's order differs from the keys'
    const std::string key = "k" + std::to_string(i * 7 % 100);
    text += (i == 99 ? "\"" : ",\"") + key + "\":" + std::to_string(i);
    tree[key] = i;
  }
  text += "}";
  const auto doc = document_of(text);
  for (const auto& [key, value] : tree.items()) {
    const auto found = doc.root().find(key);
    ASSERT_TRUE(found.has_value()) << key;
    EXPECT_TRUE(*found == value);
  }
  EXPECT_FALSE(doc.root().find("k100").has_value());
  EXPECT_FALSE(doc.root().find("").has_value());
  EXPECT_FALSE(document_of("[1]").root().find("k1").has_value());
  EXPECT_FALSE(document_of(R"({"a":1,"c":2})").root().find("b").has_value());
}

TEST(JsonView, EqualityIsNlohmanns) {
  const std::vector<std::string> texts = {"1",
                                          "1.0",
                                          "-1",
                                          "1.5",
                                          "true",
                                          "\"1\"",
                                          "null",
                                          "[1,2]",
                                          "[1.0,2]",
                                          R"({"a":1,"b":2})",
                                          R"({"b":2.0,"a":1})",
                                          R"({"a":1})",
                                          "[]",
                                          "{}",
                                          "18446744073709551615"};
  for (const auto& x : texts) {
    for (const auto& y : texts) {
      const auto a = document_of(x);
      const auto b = document_of(y);
      const bool want = nlohmann::json::parse(x) == nlohmann::json::parse(y);
      EXPECT_EQ(a.root() == b.root(), want) << x << " vs " << y;
      EXPECT_EQ(a.root() == nlohmann::json::parse(y), want) << x << " vs " << y;
    }
  }
}

TEST(JsonView, IndexIsAValuesIdentityInItsDocument) {
  const auto doc = document_of(R"([{"a":1},{"a":1}])");
  std::vector<JsonView> items(doc.root().items().begin(), doc.root().items().end());
  ASSERT_EQ(items.size(), 2U);
  EXPECT_TRUE(items[0] == items[1]);
  EXPECT_NE(items[0].index(), items[1].index());
  EXPECT_EQ(doc.root().index(), 0U);
  static_assert(sizeof(JsonView) == 16);
}

TEST(JsonDocument, FromJsonGivesTheSameValue) {
  for (const auto& text : kTexts) {
    SCOPED_TRACE(text);
    const auto tree = *parse_json(text).value;
    const auto doc = JsonDocument::from_json(tree);
    expect_same_tree(doc.root().to_json(), tree);
    EXPECT_EQ(doc.root().dump(), tree.dump());
  }
}

TEST(JsonDocument, FromJsonTakesATreeNestedFarDeeperThanTheStack) {
  nlohmann::json tree = nlohmann::json::array();
  nlohmann::json* inner = &tree;
  for (int i = 0; i < 200000; ++i) {
    inner->push_back(nlohmann::json::array());
    inner = &inner->back();
  }
  const auto doc = JsonDocument::from_json(tree);
  EXPECT_EQ(doc.root().size(), 1U);
  EXPECT_EQ(doc.bytes() >= 200001 * 16, true);
}

TEST(JsonDocument, DefaultIsNull) {
  EXPECT_TRUE(JsonDocument().root().is_null());
}

TEST(JsonDocument, BytesCountTheTapeAndTheStrings) {
  const auto small = document_of("[1]");
  const auto large = document_of("[1, \"" + std::string(5000, 'x') + "\"]");
  EXPECT_GE(small.bytes(), 2 * 16U);
  EXPECT_GE(large.bytes(), 5000U + 3 * 16U);
}

TEST(JsonView, DumpEscapesAsNlohmann) {
  const nlohmann::json tree = std::string("a\x01\x1f\x7f\"\\/\b\f\n\r\t\xc3\xa9");
  EXPECT_EQ(JsonDocument::from_json(tree).root().dump(), tree.dump());
  const nlohmann::json invalid = std::string("\xff");
  EXPECT_THROW((void)JsonDocument::from_json(invalid).root().dump(), nlohmann::json::type_error);
}

TEST(JsonView, DumpEscapesEveryAsciiByteAsNlohmann) {
  for (int c = 0; c < 0x80; ++c) {
    const nlohmann::json tree = "<" + std::string(1, static_cast<char>(c)) + ">";
    EXPECT_EQ(JsonDocument::from_json(tree).root().dump(), tree.dump()) << c;
  }
}

TEST(JsonView, DumpEscapesAJsonTextInAStringAsNlohmann) {
  const nlohmann::json tree =
      R"({"orderId":"ORD-123456","note":"line\nnext \"quoted\" caf\u00e9","n":[1,2]})";
  EXPECT_EQ(JsonDocument::from_json(tree).root().dump(), tree.dump());
}

// members_as_written() gives an object's members in the document's order: the text's, as
// nlohmann::ordered_json reads it (a repeated key, which the fallback parse reads, keeps its last
// value at its first place); key order for a document built from a tree.
TEST(JsonView, MembersAsWrittenComeInDocumentOrder) {
  std::string many = "{";
  for (int i = 20; i > 0; --i) many += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  many.back() = '}';
  for (const std::string& text :
       {std::string(R"({"a":1,"b":2})"), std::string(R"({"b":1,"a":[2,"c"]})"), many,
        std::string(R"({"z":1,"a":2,"z":3})"), std::string(R"({"n":1234567890123456789012,"a":1})"),
        std::string("{}")}) {
    const auto parsed = parse_document(text);
    ASSERT_TRUE(parsed.document.has_value()) << text;
    const auto expected = nlohmann::ordered_json::parse(text);
    std::vector<std::pair<std::string, std::string>> read;
    for (const JsonMember& member : parsed.document->root().members_as_written()) {
      read.emplace_back(member.key, member.value.dump());
    }
    std::vector<std::pair<std::string, std::string>> wanted;
    for (const auto& [key, value] : expected.items()) wanted.emplace_back(key, value.dump());
    EXPECT_EQ(read, wanted) << text;
  }
  const auto built = JsonDocument::from_json(nlohmann::json::parse(R"({"b":1,"a":2})"));
  std::vector<std::string> keys;
  for (const JsonMember& member : built.root().members_as_written()) keys.emplace_back(member.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "b"}));
  const auto array = parse_document("[1,2]");
  std::size_t members_of_an_array = 0;
  for (const JsonMember& member : array.document->root().members_as_written()) {
    (void)member;
    ++members_of_an_array;
  }
  EXPECT_EQ(members_of_an_array, 0U);
}

}  // namespace
}  // namespace accord
