// The tape reader's second round of quick paths (issue 26): it reads a padded copy of the text
// (zero bytes after the end stop every token, so only the top level compares with the end),
// decodes escaped strings over their own text in that copy, and sorts a small object's keys from
// sort keys kept while reading. Each must read exactly what nlohmann reads and refuse exactly
// what it refuses (with its message), at every length and every offset.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "accord/json_text.hpp"
#include "accord/json_view.hpp"
#include "core/json_scanner.hpp"
#include "fixtures/reads_as_nlohmann.hpp"

namespace accord {
namespace {

// Documents whose every token kind ends the text: each prefix of each is read (or refused) as
// nlohmann does, so every place the text can stop is passed once.
const std::vector<std::string> kTapeReaderDocuments = {
    R"({"orderId":"ORD-123456","amount":438.99,"currency":"USD","note":"caf\u00e9 \"x\"\n"})",
    R"([true,false,null,-0,1e5,-2.5E-3,12345678901234567,"\ud83d\ude00",{},[]])",
    R"({"z":{"y":[1,{"x":"\\"}],"w":"日本"},"a":"naïve"})",
    "  [ 1 , \"a\\tb\" , { \"k\" : null } ]  ",
};

TEST(JsonTapeReader, EveryPrefixOfADocumentReadsAsNlohmann) {
  for (const auto& document : kTapeReaderDocuments) {
    for (std::size_t length = 0; length <= document.size(); ++length) {
      testing_documents::expect_document_reads_as_nlohmann(document.substr(0, length));
    }
  }
}

// The padding's zeros end every token, so a zero byte inside the text must not pass for the end:
// it is refused inside a value, and read as nlohmann reads it after one (nlohmann takes a zero
// byte for the end of the text).
TEST(JsonTapeReader, AZeroByteAtEveryOffsetReadsAsNlohmann) {
  for (const auto& document : kTapeReaderDocuments) {
    for (std::size_t at = 0; at <= document.size(); ++at) {
      std::string text = document;
      text.insert(at, 1, '\0');
      testing_documents::expect_document_reads_as_nlohmann(text);
    }
  }
}

// The padded scan, on a heap buffer of exactly the text and its padding (a read past it is a
// sanitizer error): it stops at the first special byte, or at the padding's first zero.
TEST(JsonTapeReader, PaddedPlainAsciiEndStopsAtTheFirstSpecialByteOrThePadding) {
  for (std::size_t size = 0; size <= 40; ++size) {
    for (std::size_t at = 0; at <= size; ++at) {
      for (const char special : {'"', '\\', '\x1f', '\x80', '\xff'}) {
        const std::size_t padded = size + detail::kTextPadding;
        const auto buffer = std::make_unique<char[]>(padded);
        std::fill(buffer.get(), buffer.get() + size, 'a');
        std::fill(buffer.get() + size, buffer.get() + padded, '\0');
        if (at < size) buffer[at] = special;
        for (std::size_t from = 0; from <= at; ++from) {
          EXPECT_EQ(
              detail::scan::padded_plain_ascii_end(buffer.get() + from, buffer.get() + padded) -
                  buffer.get(),
              static_cast<std::ptrdiff_t>(at));
        }
      }
    }
  }
}

// A string that ends the text, of every length, plain or with an escape at every offset: its
// last bytes are read in the padding's block.
TEST(JsonTapeReader, AStringEndingTheTextAtEveryLengthIsRead) {
  for (std::size_t length = 0; length <= 40; ++length) {
    const std::string plain(length, 'p');
    testing_documents::expect_document_reads_as_nlohmann("\"" + plain + "\"");
    testing_documents::expect_document_reads_as_nlohmann("\"" + plain);  // unterminated
    for (std::size_t at = 0; at <= length; ++at) {
      std::string escaped = plain;
      escaped.insert(at, "\\u00e9");
      const std::string text = "\"" + escaped + "\"";
      testing_documents::expect_document_reads_as_nlohmann(text);
      const auto parsed = parse_document(text);
      ASSERT_TRUE(parsed.document.has_value());
      EXPECT_EQ(parsed.document->root().get_string(),
                std::string(at, 'p') + "\xc3\xa9" + std::string(length - at, 'p'));
    }
  }
}

// Each escape decoded over its own text leaves the strings after it as they were: every string
// of a document with escapes everywhere keeps its own bytes.
TEST(JsonTapeReader, StringsDecodedInPlaceLeaveTheirNeighboursIntact) {
  const std::vector<std::string> escapes = {"\\n",     "\\\"",    "\\\\",    "\\/",
                                            "\\u0041", "\\u00e9", "\\u65e5", "\\ud83d\\ude00"};
  std::string text = "[";
  std::vector<std::string> expected;
  for (std::size_t i = 0; i < escapes.size(); ++i) {
    for (std::size_t j = 0; j < escapes.size(); ++j) {
      const std::string item = "a" + escapes[i] + "b" + escapes[j];
      text += (text.size() > 1 ? ",\"" : "\"") + item + "\",\"plain" + std::to_string(i) + "\"";
      expected.push_back(nlohmann::json::parse("\"" + item + "\"").get<std::string>());
      expected.push_back("plain" + std::to_string(i));
    }
  }
  text += "]";
  const auto parsed = parse_document(text);
  ASSERT_TRUE(parsed.document.has_value());
  std::vector<std::string> read;
  for (JsonView item : parsed.document->root().items()) read.emplace_back(item.get_string());
  EXPECT_EQ(read, expected);
  testing_documents::expect_document_reads_as_nlohmann(text);
}

// Escaped keys sort by their decoded bytes.
TEST(JsonTapeReader, EscapedKeysSortByTheirDecodedText) {
  const std::string text = R"({"\u0062":1,"a\u0000":2,"\u0061":3,"\u00e9":4,"B":5,"ab":6})";
  const auto parsed = parse_document(text);
  ASSERT_TRUE(parsed.document.has_value());
  std::vector<std::string> keys;
  for (const JsonMember& member : parsed.document->root().members()) keys.emplace_back(member.key);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"B", "a", std::string("a\0", 2), "ab", "b", "\xc3\xa9"}));
  testing_documents::expect_document_reads_as_nlohmann(text);
}

// Objects nested inside one another, each with its keys shuffled: the kept sort keys of the
// outer objects stay below an inner object's until it closes, past the reader's 64 kept keys,
// and for objects of 1 to 20 members (a larger one is ordered from the tape).
TEST(JsonTapeReader, NestedObjectsOfEverySizeComeInKeyOrder) {
  std::mt19937 random(2626);
  for (std::size_t members = 1; members <= 20; ++members) {
    for (std::size_t depth = 1; depth <= 12; depth += 11) {
      std::string text;
      for (std::size_t level = 0; level < depth; ++level) {
        std::vector<std::string> keys;
        for (std::size_t i = 0; i < members; ++i) {
          keys.push_back("k" + std::to_string(i * 7 % 11) + "_" + std::to_string(i));
        }
        std::shuffle(keys.begin(), keys.end(), random);
        text += "{";
        for (const auto& key : keys) text += "\"" + key + "\":" + std::to_string(key.size()) + ",";
        text += "\"inner\":";
      }
      text += "null";
      text += std::string(depth, '}');
      testing_documents::expect_document_reads_as_nlohmann(text);
      const auto parsed = parse_document(text);
      ASSERT_TRUE(parsed.document.has_value());
      JsonView level = parsed.document->root();
      const nlohmann::json tree = nlohmann::json::parse(text);
      const nlohmann::json* want = &tree;
      for (std::size_t i = 0; i < depth; ++i) {
        auto expected = want->begin();
        for (const JsonMember& member : level.members()) {
          ASSERT_NE(expected, want->end());
          EXPECT_EQ(member.key, expected.key());
          ++expected;
        }
        EXPECT_EQ(expected, want->end());
        level = *level.find("inner");
        want = &(*want)["inner"];
      }
    }
  }
}

// A key repeated at any two places of an object of any size (nlohmann keeps the last value).
TEST(JsonTapeReader, ARepeatedKeyAnywhereReadsAsNlohmann) {
  for (std::size_t members = 2; members <= 18; ++members) {
    for (std::size_t first = 0; first < members; ++first) {
      for (std::size_t second = first + 1; second < members; ++second) {
        std::string text = "{";
        for (std::size_t i = 0; i < members; ++i) {
          const std::size_t name = i == second ? first : members - i;
          text += (i == 0 ? "\"" : ",\"") + std::string("key") + std::to_string(name) +
                  "\":" + std::to_string(i);
        }
        text += "}";
        testing_documents::expect_document_reads_as_nlohmann(text);
      }
    }
  }
}

// The plain runs between escapes move down over the room the escapes before them freed, a word
// at a time: runs of every length from 0 to 40 bytes, after escapes (one, or a few together)
// that free 1, 2, 3, 4, 5, 7 and 8 bytes, and one of each length ending the string.
TEST(JsonTapeReader, PlainRunsOfEveryLengthBetweenEscapesDecodeAsNlohmann) {
  const std::vector<std::string> escapes = {"\\\"",    "\\n\\t",        "\\u0800",       "\\u00e9",
                                            "\\u0041", "\\u0041\\n\\t", "\\ud83d\\ude00"};
  for (std::size_t length = 0; length <= 40; ++length) {
    std::string run;
    for (std::size_t i = 0; i < length; ++i) run += static_cast<char>('a' + i % 26);
    for (const auto& escape : escapes) {
      const std::string item = escape + run + escape + run + "\\t" + run;
      testing_documents::expect_document_reads_as_nlohmann("[\"" + item + "\",\"" + run + "\"]");
      testing_documents::expect_document_reads_as_nlohmann("{\"" + item + "\":\"" + item + "\"}");
    }
  }
}

// After a string's first escape its special bytes are taken sixteen at a time: whatever follows
// an escape (another escape, a UTF-8 sequence, the closing quote, a bad escape, a control byte,
// malformed UTF-8, the end of the text), at every offset from the escape and from a block's
// start, reads (or is refused) as nlohmann does; with nothing after it too, so that the string
// (or the text) ends inside what follows or just after it.
TEST(JsonTapeReader, WhatFollowsAnEscapeAtEveryOffsetReadsAsNlohmann) {
  const std::vector<std::string> next = {"\\\"",
                                         "\\n",
                                         "\\u00e9",
                                         "\\ud83d\\ude00",
                                         "\xc3\xa9",
                                         "\xe6\x97\xa5",
                                         "\xf0\x9f\x98\x80",
                                         "\\x",
                                         "\\u00g0",
                                         "\\udc00",
                                         "\x01",
                                         "\xc3",
                                         "\xed\xa0\x80",
                                         "\\",
                                         "\\u00",
                                         "\\ud83d\\",
                                         "\xf0\x9f",
                                         ""};
  for (std::size_t before = 0; before <= 18; ++before) {
    for (std::size_t between = 0; between <= 18; ++between) {
      for (const auto& what : next) {
        for (const char* after : {"c", ""}) {
          const std::string item =
              std::string(before, 'a') + "\\\"" + std::string(between, 'b') + what + after;
          testing_documents::expect_document_reads_as_nlohmann("[\"" + item + "\",\"d\"]");
          testing_documents::expect_document_reads_as_nlohmann("\"" + item);
        }
      }
    }
  }
}

}  // namespace
}  // namespace accord
