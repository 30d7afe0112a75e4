// The byte checks that read a word at a time (accord/same_bytes.hpp, a simple pattern's literal
// start, is_iso_date's digits and dashes) give the verdicts of a byte-by-byte reading, for every
// length and every byte in every place.

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "accord/same_bytes.hpp"
#include "core/ascii.hpp"
#include "text/simple_pattern.hpp"
#include "text/string_formats.hpp"

namespace accord::detail {
namespace {

TEST(WordCompares, SameBytesAgreesWithMemcmpForEveryLengthAndPlace) {
  const std::string base = "abcdefghijklmnopqrstuvwxyz0123456789ABCD";
  for (std::size_t size = 0; size <= base.size(); ++size) {
    std::string other = base;
    EXPECT_TRUE(bytes_detail::same_bytes(base.data(), other.data(), size)) << size;
    for (std::size_t place = 0; place < size; ++place) {
      other = base;
      other[place] = static_cast<char>(other[place] ^ 0x80);
      EXPECT_FALSE(bytes_detail::same_bytes(base.data(), other.data(), size))
          << size << " at " << place;
    }
  }
}

// is_iso_date as a reading byte by byte would decide it.
bool word_compares_date_by_bytes(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (const std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  const int year = std::stoi(text.substr(0, 4));
  const int month = std::stoi(text.substr(5, 2));
  const int day = std::stoi(text.substr(8, 2));
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return day <= days[month - 1];
}

TEST(WordCompares, IsoDateAgreesWithAByteByByteReadingForEveryByteInEveryPlace) {
  for (const std::string base : {"2024-02-29", "2023-02-28", "1999-12-31", "0000-01-01"}) {
    ASSERT_TRUE(is_iso_date(base)) << base;
    for (std::size_t place = 0; place < base.size(); ++place) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string text = base;
        text[place] = static_cast<char>(byte);
        EXPECT_EQ(is_iso_date(text), word_compares_date_by_bytes(text))
            << base << " with byte " << byte << " at " << place;
      }
    }
  }
}

TEST(WordCompares, IsoDateOfNineOrElevenBytesIsNoDate) {
  EXPECT_FALSE(is_iso_date("2024-02-2"));
  EXPECT_FALSE(is_iso_date("2024-02-290"));
}

TEST(WordCompares, APatternsLiteralStartIsComparedWhole) {
  const auto order = SimplePattern::compile(R"(^ORD-\d{6}$)");
  ASSERT_TRUE(order);
  EXPECT_TRUE(order->search("ORD-123456"));
  for (const char* text : {"", "O", "ORD", "ORD-", "ORD-12345", "ORD-1234567", "ORX-123456",
                           "ord-123456", "XORD-123456", "ORD-12345a"}) {
    EXPECT_FALSE(order->search(text)) << text;
  }
}

TEST(WordCompares, APatternOfALiteralStartAloneMatchesWhatBeginsWithIt) {
  const auto literal_only = SimplePattern::compile("^acct_");
  ASSERT_TRUE(literal_only);
  EXPECT_TRUE(literal_only->search("acct_"));
  EXPECT_TRUE(literal_only->search("acct_x9 and more"));
  EXPECT_FALSE(literal_only->search("acct"));
  EXPECT_FALSE(literal_only->search("acc_t"));
}

// A repeated first item is no literal start: `a{2}` then `b`.
TEST(WordCompares, ARepeatedFirstItemIsMatchedAsARepeat) {
  const auto repeated = SimplePattern::compile("^a{2}b");
  ASSERT_TRUE(repeated);
  EXPECT_TRUE(repeated->search("aab"));
  EXPECT_FALSE(repeated->search("ab"));
}

TEST(WordCompares, AnAnchorAloneMatchesTheEmptyText) {
  const auto anchor_only = SimplePattern::compile("^");
  ASSERT_TRUE(anchor_only);
  EXPECT_TRUE(anchor_only->search(""));
}

// is_email read part by part, as it was before it became an automaton.
bool word_compares_email_by_parts(std::string_view text) {
  const auto at = text.find('@');
  if (at == std::string_view::npos || at == 0) return false;
  const std::string_view local = text.substr(0, at);
  if (local.front() == '.' || local.back() == '.' || local.back() == '\'') return false;
  if (local.find("..") != std::string_view::npos) return false;
  for (const char c : local) {
    if (!ascii_alnum(c) && std::string_view("_'+-.").find(c) == std::string_view::npos) {
      return false;
    }
  }
  const std::string_view domain = text.substr(at + 1);
  const auto top = domain.rfind('.');
  if (top == std::string_view::npos || domain.size() - top < 3) return false;
  for (const char c : domain.substr(top + 1)) {
    if (!ascii_alpha(c)) return false;
  }
  std::string_view labels = domain.substr(0, top);
  while (true) {
    const auto dot = labels.find('.');
    const std::string_view label = labels.substr(0, dot);
    if (label.empty() || !ascii_alnum(label.front())) return false;
    for (const char c : label) {
      if (!ascii_alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    labels.remove_prefix(dot + 1);
  }
}

TEST(WordCompares, EmailAgreesWithAReadingPartByPart) {
  for (const char* text : {"ops@example.com",
                           "first.last+tag@b-c.io",
                           "o'neil@mail.example.co.uk",
                           "a@b.co",
                           "a@@b.co",
                           "a@",
                           "@b.co",
                           ".a@b.co",
                           "a.@b.co",
                           "a'@b.co",
                           "a..b@c.de",
                           "a@-b.co",
                           "a@b..co",
                           "a@.b.co",
                           "a@b.c",
                           "a@b.c1",
                           "a@b.co.",
                           "a@bco",
                           "a@b-.co",
                           "a@b.c-o"}) {
    EXPECT_EQ(is_email(text), word_compares_email_by_parts(text)) << text;
  }
  // A local part, '@' and a domain from the bytes that decide, with now and then one byte of
  // any of them put anywhere: every verdict as the reading part by part gives it.
  const std::string local_bytes = "aZ9._'+-";
  const std::string domain_bytes = "aZ9.-";
  const std::string any_bytes = "aZ9.-_'+@\xC3";
  std::mt19937 random(26);
  const auto pick = [&](const std::string& bytes) {
    return bytes[std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(random)];
  };
  const auto count = [&](std::size_t most) {
    return std::uniform_int_distribution<std::size_t>(0, most)(random);
  };
  std::size_t valid = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string text;
    for (std::size_t n = count(4); n > 0; --n) text += pick(local_bytes);
    text += '@';
    for (std::size_t n = count(7); n > 0; --n) text += pick(domain_bytes);
    if (count(9) < 3) text[count(text.size() - 1)] = pick(any_bytes);
    const bool expected = word_compares_email_by_parts(text);
    valid += expected ? 1 : 0;
    ASSERT_EQ(is_email(text), expected) << text;
  }
  EXPECT_GT(valid, 100U);  // the strings reach valid addresses too
}

}  // namespace
}  // namespace accord::detail
