// A string enum's options are looked for by a key of each text's length and bytes; membership
// must be exactly std::find's over the options (the oracle), for texts of every length around the
// key's cases (0, 1-3, 4-8, longer), texts that share an option's length, its first and last
// bytes, or its key's bytes in another length, and multi-byte UTF-8.

#include "validate/known_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "accord/validate.hpp"

namespace accord::detail {
namespace {

std::vector<std::string> enum_options() {
  std::vector<std::string> out = {"",
                                  "a",
                                  "aa",
                                  "aaa",
                                  "usd",
                                  "eur",
                                  "EUR",
                                  "abcd",
                                  "abcdefgh",
                                  "abcdefghi",
                                  "damaged_in_transit",
                                  "\xc3\xa9t\xc3\xa9"};
  return out;
}

// Every option, and texts one step away from each: shorter, longer, one byte changed.
std::vector<std::string> probe_texts() {
  std::vector<std::string> out = enum_options();
  for (const std::string& option : enum_options()) {
    if (!option.empty()) {
      out.push_back(option.substr(1));
      out.push_back(option.substr(0, option.size() - 1));
      for (std::size_t i = 0; i < option.size(); ++i) {
        std::string changed = option;
        changed[i] = static_cast<char>(changed[i] ^ 0x20);
        out.push_back(changed);
      }
    }
    out.push_back(option + "a");
    out.push_back("a" + option);
  }
  out.insert(out.end(), {"aaaa", "abca", "adcd", "abcdabcd", "damaged_xx_transit", "usdusd"});
  return out;
}

TEST(KnownTexts, AnOptionSetHoldsExactlyItsOptions) {
  const std::vector<std::string> all = enum_options();
  for (std::size_t count = 0; count <= all.size(); ++count) {
    const std::vector<std::string> some(all.begin(), all.begin() + static_cast<long>(count));
    const KnownTexts set(some);
    for (const std::string& probe : probe_texts()) {
      EXPECT_EQ(set.contains(probe), std::find(some.begin(), some.end(), probe) != some.end())
          << count << " options, probe \"" << probe << "\"";
    }
  }
}

// A string enum whose schema writes its options with JSON escapes holds the texts they decode
// to, whether a document writes a value escaped or not, end to end through the Validator; the
// oracle is std::find over the options nlohmann parsed from the same schema.
TEST(KnownTexts, AnEnumWrittenWithEscapesHoldsTheTextsItsOptionsDecodeTo) {
  const auto schema = nlohmann::ordered_json::parse(
      R"({"type":"object","properties":{"v":{"enum":["\u00e9","a\"b","\\u00e9","eur"]}}})");
  const auto& options = schema["properties"]["v"]["enum"];
  const Validator validator = Validator::from_json_schema(schema);
  for (const std::string value :
       {R"("\u00e9")", "\"\xC3\xA9\"", R"("a\"b")", R"("a\u0022b")", R"("a\\\"b")", R"("\\u00e9")",
        R"("\u0065ur")", R"("e")", R"("\u00e8")", R"("ab")"}) {
    const bool listed = std::find(options.begin(), options.end(),
                                  nlohmann::ordered_json::parse(value)) != options.end();
    EXPECT_EQ(validator.parse_and_validate(R"({"v":)" + value + "}").ok(), listed) << value;
  }
}

}  // namespace
}  // namespace accord::detail
