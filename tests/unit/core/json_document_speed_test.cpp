// The parser's quick paths (issue 26): strings scanned in blocks, numbers by Clinger's fast path,
// members sorted in place, a document reused across texts. Each must read exactly what nlohmann
// reads, refuse exactly what it refuses (with its message), and never look past the text.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "accord/json_text.hpp"
#include "accord/json_view.hpp"
#include "core/json_scanner.hpp"
#include "fixtures/allocation_count.hpp"
#include "fixtures/reads_as_nlohmann.hpp"

namespace accord {
namespace {

// A string long enough that every offset of a 16-byte block, and the tail after the last whole
// block, holds each case once.
constexpr std::size_t kSpeedStringLength = 40;

// `inner` as a string value, and as a key, at each distance from the start of the text (so the
// string starts at every offset of a block).
void expect_string_reads_as_nlohmann(const std::string& inner) {
  for (std::size_t lead = 0; lead < 17; ++lead) {
    const std::string space(lead, ' ');
    testing_documents::expect_document_reads_as_nlohmann(space + "\"" + inner + "\"");
    testing_documents::expect_document_reads_as_nlohmann(space + "{\"" + inner + "\":1}");
  }
}

TEST(JsonDocumentSpeed, PlainStringsOfEveryLengthReadAsNlohmann) {
  for (std::size_t length = 0; length <= kSpeedStringLength; ++length) {
    std::string inner;
    for (std::size_t i = 0; i < length; ++i) inner += static_cast<char>('a' + i % 26);
    expect_string_reads_as_nlohmann(inner);
    const auto parsed = parse_document("[\"" + inner + "\"]");
    ASSERT_TRUE(parsed.document.has_value());
    EXPECT_EQ((*parsed.document->root().items().begin()).get_string(), inner);
  }
}

TEST(JsonDocumentSpeed, AnEscapeAtEveryOffsetIsDecoded) {
  const std::vector<std::pair<std::string, std::string>> escapes = {
      {"\\n", "\n"},
      {"\\\"", "\""},
      {"\\\\", "\\"},
      {"\\u00e9", "\xc3\xa9"},
      {"\\ud83d\\ude00", "\xf0\x9f\x98\x80"}};
  for (const auto& [written, decoded] : escapes) {
    for (std::size_t at = 0; at <= kSpeedStringLength; ++at) {
      const std::string inner = std::string(at, 'x') + written + std::string(7, 'y');
      expect_string_reads_as_nlohmann(inner);
      const auto parsed = parse_document("\"" + inner + "\"");
      ASSERT_TRUE(parsed.document.has_value());
      EXPECT_EQ(parsed.document->root().get_string(),
                std::string(at, 'x') + decoded + std::string(7, 'y'));
    }
  }
}

TEST(JsonDocumentSpeed, AControlByteAtEveryOffsetIsRefusedAsNlohmann) {
  for (const char control : {'\x00', '\x01', '\x1f', '\n', '\t'}) {
    for (std::size_t at = 0; at <= kSpeedStringLength; ++at) {
      std::string inner(kSpeedStringLength, 'a');
      inner[at == kSpeedStringLength ? at - 1 : at] = control;
      const auto parsed = parse_document("\"" + inner + "\"");
      EXPECT_FALSE(parsed.document.has_value()) << at;
      expect_string_reads_as_nlohmann(inner);
    }
  }
}

TEST(JsonDocumentSpeed, MalformedUtf8AtEveryOffsetIsRefusedAsNlohmann) {
  // A lone continuation byte, a byte never in UTF-8, a truncated sequence, an overlong form, a
  // surrogate, and a code point past U+10FFFF.
  const std::vector<std::string> malformed = {"\x80",     "\xff",         "\xc3",
                                              "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"};
  for (const auto& bad : malformed) {
    for (std::size_t at = 0; at <= kSpeedStringLength; ++at) {
      const std::string inner = std::string(at, 'a') + bad + std::string(3, 'b');
      EXPECT_FALSE(parse_document("\"" + inner + "\"").document.has_value()) << at;
      expect_string_reads_as_nlohmann(inner);
    }
  }
}

TEST(JsonDocumentSpeed, WellFormedUtf8AtEveryOffsetIsKept) {
  const std::vector<std::string> characters = {"\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80",
                                               "\xef\xbf\xbf"};
  for (const auto& character : characters) {
    for (std::size_t at = 0; at <= kSpeedStringLength; ++at) {
      const std::string inner = std::string(at, 'a') + character + std::string(3, 'b');
      const auto parsed = parse_document("\"" + inner + "\"");
      ASSERT_TRUE(parsed.document.has_value()) << at;
      EXPECT_EQ(parsed.document->root().get_string(), inner);
    }
  }
}

// Both block readers, on a buffer of exactly the text's size on the heap, so that a read past
// its end is a sanitizer error.
TEST(JsonDocumentSpeed, PlainAsciiEndStopsAtTheFirstSpecialByteAndReadsNothingPastTheEnd) {
  for (std::size_t size = 0; size <= kSpeedStringLength; ++size) {
    for (std::size_t at = 0; at <= size; ++at) {
      for (const char special : {'"', '\\', '\x1f', '\x80', '\xff'}) {
        const auto buffer = std::make_unique<char[]>(size);
        for (std::size_t i = 0; i < size; ++i) buffer[i] = 'a';
        if (at < size) buffer[at] = special;
        const char* end = buffer.get() + size;
        EXPECT_EQ(detail::scan::plain_ascii_end(buffer.get(), end) - buffer.get(),
                  static_cast<std::ptrdiff_t>(at));
        EXPECT_EQ(detail::scan::plain_ascii_words_end(buffer.get(), end) - buffer.get(),
                  static_cast<std::ptrdiff_t>(at));
      }
    }
  }
}

TEST(JsonDocumentSpeed, ShortDecimalsAreBitIdenticalToACorrectlyRoundedRead) {
  std::mt19937_64 random(26);
  std::vector<std::string> numbers = {"0.0",
                                      "-0.0",
                                      "0.1",
                                      "0.000001",
                                      "1e22",
                                      "1e23",
                                      "-1e-22",
                                      "1e-23",
                                      "9007199254740993.0",
                                      "4.5e15",
                                      "123456789012345.6",
                                      "0.30000000000000004",
                                      "1E+2",
                                      "1e0000",
                                      "2.5e-0005"};
  for (int i = 0; i < 20000; ++i) {
    const int digits = 1 + static_cast<int>(random() % 19);
    std::string mantissa;
    for (int d = 0; d < digits; ++d) mantissa += static_cast<char>('0' + random() % 10);
    const auto point = random() % mantissa.size();
    std::string number = (random() % 2 ? "-" : "") + mantissa.substr(0, point + 1);
    if (point + 1 < mantissa.size()) number += "." + mantissa.substr(point + 1);
    if (random() % 2) number += "e" + std::to_string(static_cast<int>(random() % 61) - 30);
    if (number.find_first_of(".e") == std::string::npos) number += ".5";
    // A leading zero followed by digits is not JSON.
    const auto first = number[0] == '-' ? 1U : 0U;
    if (number[first] == '0' && number.size() > first + 1 && number[first + 1] != '.' &&
        number[first + 1] != 'e') {
      number.insert(first, "1");
    }
    numbers.push_back(number);
  }
  for (const auto& text : numbers) {
    SCOPED_TRACE(text);
    double expected = 0;
    ASSERT_EQ(std::from_chars(text.data(), text.data() + text.size(), expected).ec, std::errc());
    const auto parsed = parse_document(text);
    ASSERT_TRUE(parsed.document.has_value());
    ASSERT_TRUE(parsed.document->root().is_number_float());
    EXPECT_EQ(std::bit_cast<std::uint64_t>(parsed.document->root().get_double()),
              std::bit_cast<std::uint64_t>(expected));
    testing_documents::expect_document_reads_as_nlohmann(text);
  }
}

TEST(JsonDocumentSpeed, MembersInAnyTextOrderComeInKeyOrder) {
  std::vector<std::string> keys = {"b",        "a",  "ab",      "aa",         "",
                                   "a\\u0000", "B",  "\\u00e9", "abcdefghij", "abcdefghi",
                                   "abcdefgh", "zz", "orderId", "orderDate",  "amount",
                                   "x",        "y"};
  std::mt19937 random(26);
  for (std::size_t count = 2; count <= keys.size(); ++count) {
    for (int round = 0; round < 20; ++round) {
      std::shuffle(keys.begin(), keys.end(), random);
      std::string text = "{";
      for (std::size_t i = 0; i < count; ++i) {
        text += (i == 0 ? "\"" : ",\"") + keys[i] + "\":" + std::to_string(i);
      }
      text += "}";
      SCOPED_TRACE(text);
      const auto parsed = parse_document(text);
      ASSERT_TRUE(parsed.document.has_value());
      const nlohmann::json tree = nlohmann::json::parse(text);
      auto want = tree.begin();
      for (const JsonMember& member : parsed.document->root().members()) {
        ASSERT_NE(want, tree.end());
        EXPECT_EQ(member.key, want.key());
        EXPECT_EQ(member.value, *want);
        ++want;
      }
      EXPECT_EQ(want, tree.end());
      for (auto it = tree.begin(); it != tree.end(); ++it) {
        const auto found = parsed.document->root().find(it.key());
        ASSERT_TRUE(found.has_value()) << it.key();
        EXPECT_EQ(*found, it.value());
      }
    }
  }
}

// Texts a reused document reads one after another: escapes, keys out of order, a repeated key
// and a byte-order mark (read by nlohmann), errors, and sizes going up and down.
const std::vector<std::string> kReusedTexts = {
    R"({"orderId":"ORD-1","amount":42.5,"note":"caf\u00e9 \"ok\"","sku":"S"})",
    R"([1,2,3])",
    R"({"b":{"d":1,"c":[true,null]},"a":"x"})",
    "[1,]",
    R"({"k":1,"k":2})",
    "\xef\xbb\xbf{\"bom\":1}",
    R"("\ud83d\ude00 and \n")",
    "\"\xff\"",
    R"({"z":1,"y":2,"x":3,"w":4,"v":5,"u":6,"t":7,"s":8,"r":9,"q":10,"p":11,"o":12,"n":13,"m":14,"l":15,"k":16,"j":17})",
    "0.5",
};

// A member's number is read where the member is, not through the reader's value(): every form of
// number token, well-formed or not, first, last and alone in an object.
TEST(JsonDocumentSpeed, MemberNumbersOfEveryFormReadAsNlohmann) {
  const std::vector<std::string> tokens = {"0",
                                           "-0",
                                           "-0.0",
                                           "7",
                                           "-7",
                                           "9999.99",
                                           "0.01",
                                           "1e5",
                                           "-2.5E-3",
                                           "1E+2",
                                           "123456789012345678",
                                           "1234567890123456789",
                                           "12345678901234567890",
                                           "18446744073709551615",
                                           "18446744073709551616",
                                           "-9223372036854775808",
                                           "-9223372036854775809",
                                           "1e400",
                                           "1e-400",
                                           "01",
                                           "-",
                                           "-a",
                                           "1.",
                                           "1.e5",
                                           ".5",
                                           "1e",
                                           "1e+",
                                           "+1",
                                           "0x10",
                                           "--1",
                                           "1.5.2",
                                           "1e5e5"};
  for (const std::string& token : tokens) {
    testing_documents::expect_document_reads_as_nlohmann("{\"a\":" + token + "}");
    testing_documents::expect_document_reads_as_nlohmann("{\"a\":" + token + ",\"b\":1}");
    testing_documents::expect_document_reads_as_nlohmann("{\"b\":\"x\", \"a\" : " + token + " }");
  }
}

TEST(JsonDocumentSpeed, AReusedDocumentReadsEachTextAsAFreshOne) {
  JsonDocument reused;
  for (const auto& text : kReusedTexts) {
    testing_documents::expect_read_into_reads_as_nlohmann(reused, text);
    const auto fresh = parse_document(text);
    if (fresh.document) {
      EXPECT_TRUE(reused.root() == fresh.document->root()) << text;
    }
  }
}

// The reused document's copy of the text is resized, not cleared: the longer text's bytes past
// the shorter one's end ("2345") stay there until the padding's zeros are written over them. A
// text that ends inside a token (a number alone) is read up to the zero that ends it: with those
// bytes left, the tape reader would read "1" on into "12345" and give up, and nlohmann would read
// the text instead (the same value, with allocations). It must read on the tape, as itself.
TEST(JsonDocumentSpeed, AShorterTextAfterALongerOneReadsOnTheTapeWithoutStaleBytes) {
  JsonDocument reused;
  ASSERT_TRUE(parse_document("12345", ParseLimits{}, reused).empty());
  const std::string shorter = "1";
  testing::arm_allocation_count();
  const Issues issues = parse_document(shorter, ParseLimits{}, reused);
  EXPECT_EQ(testing::disarm_allocation_count(), 0);
  testing_documents::expect_read_as_nlohmann(shorter, issues, &reused);
}

TEST(JsonDocumentSpeed, AReusedDocumentKeepsItsCapacity) {
  JsonDocument reused;
  ASSERT_TRUE(parse_document(kReusedTexts.front(), ParseLimits{}, reused).empty());
  const std::size_t held = reused.bytes();
  ASSERT_TRUE(parse_document("[1,2]", ParseLimits{}, reused).empty());
  EXPECT_EQ(reused.bytes(), held);
  ASSERT_TRUE(parse_document(kReusedTexts.front(), ParseLimits{}, reused).empty());
  EXPECT_EQ(reused.bytes(), held);
}

}  // namespace
}  // namespace accord
