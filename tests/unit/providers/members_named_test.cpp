// members_named (providers/wire.hpp): the members of a reply's object found in one walk, held
// against JsonView::find, one lookup per name, which the codecs used before.

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "accord/json_view.hpp"
#include "providers/wire.hpp"

namespace accord::detail {
namespace {

JsonDocument envelope_of(std::string_view text) {
  auto result = parse_document(text);
  EXPECT_TRUE(result.document) << text;
  return result.document ? *std::move(result.document) : JsonDocument();
}

template <std::size_t N>
void expect_as_find(JsonView object, const std::array<std::string_view, N>& names) {
  const auto found = members_named<N>(object, names);
  for (std::size_t i = 0; i < N; ++i) {
    const auto expected = object.find(names[i]);
    ASSERT_EQ(found[i].has_value(), expected.has_value()) << names[i];
    if (expected) {
      EXPECT_TRUE(found[i]->is_same(*expected)) << names[i];
    }
  }
}

TEST(MembersNamed, EachNameFindsTheMemberFindFinds) {
  // Keys out of order, a name that is a prefix of another, and names the object lacks.
  const JsonDocument document = envelope_of(
      R"({"total_tokens":9,"prompt_tokens":4,"prompt_tokens_details":{"cached_tokens":2},)"
      R"("completion_tokens":5,"":0})");
  expect_as_find<6>(document.root(), {"prompt_tokens", "completion_tokens", "total_tokens",
                                      "prompt_tokens_details", "input_tokens_details", ""});
}

// `{"k40":40,...,"k1":1`, unclosed: more members than find walks (past 16 it looks keys up in
// the member order instead), keys out of order.
std::string members_k40_down_to_k1() {
  std::string text = "{";
  for (int i = 40; i > 0; --i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text.pop_back();
  return text;
}

TEST(MembersNamed, AnObjectOfManyMembersIsReadAsFindReadsIt) {
  const JsonDocument document = envelope_of(members_k40_down_to_k1() + "}");
  expect_as_find<4>(document.root(), {"k1", "k40", "k17", "k41"});
}

TEST(MembersNamed, ANameListedTwiceFillsBothSlots) {
  const JsonDocument document = envelope_of(R"({"b":2,"a":1})");
  expect_as_find<3>(document.root(), {"a", "b", "a"});
}

TEST(MembersNamed, ARepeatedKeyReadsAsFindReadsIt) {
  // A repeated key's value is nlohmann's, the last one, whether find walks or looks up.
  for (const std::string& text :
       {std::string(R"({"a":1,"b":2,"a":3})"), members_k40_down_to_k1() + R"(,"k17":"again"})"}) {
    const JsonDocument document = envelope_of(text);
    constexpr std::array<std::string_view, 3> kNames{"a", "k17", "b"};
    expect_as_find<3>(document.root(), kNames);
    const nlohmann::json tree = nlohmann::json::parse(text);
    const auto found = members_named<3>(document.root(), kNames);
    for (std::size_t i = 0; i < kNames.size(); ++i) {
      const auto last = tree.find(kNames[i]);
      ASSERT_EQ(found[i].has_value(), last != tree.end()) << text << " " << kNames[i];
      if (found[i]) {
        EXPECT_TRUE(*found[i] == *last) << text << " " << kNames[i];
      }
    }
  }
}

TEST(MembersNamed, AValueThatIsNotAnObjectHasNoMembers) {
  for (const std::string_view text : {R"(["usage"])", R"("usage")", "7", "null"}) {
    const JsonDocument document = envelope_of(text);
    expect_as_find<1>(document.root(), {"usage"});
  }
}

TEST(MembersNamed, AFoundCountReadsAsTheCountLookedUpByName) {
  // Hostile and odd counts: each must read as token_count(object, key) reads it.
  const JsonDocument document =
      envelope_of(R"({"big":1e300,"negative":-5,"text":"12","real":3.7,"nothing":null,"exact":12,)"
                  R"("past":18446744073709551615,"below":-9223372036854775808})");
  const JsonView object = document.root();
  constexpr std::array<std::string_view, 9> kNames{"big",   "negative", "text",  "real",  "nothing",
                                                   "exact", "past",     "below", "absent"};
  const auto found = members_named<9>(object, kNames);
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    EXPECT_EQ(token_count(found[i]), token_count(object, std::string(kNames[i]).c_str()))
        << kNames[i];
  }
}

TEST(MembersNamed, AFoundStringReadsAsTheStringLookedUpByName) {
  // Each must read as string_or_empty(object, key) reads it: empty, escaped, not a string.
  const JsonDocument document = envelope_of(
      R"({"empty":"","escaped":"a\"b\\c\n\u00e9\ud83d\ude00","number":7,"object":{"x":"y"},)"
      R"("nothing":null,"plain":"text"})");
  const JsonView object = document.root();
  constexpr std::array<std::string_view, 7> kNames{"empty",   "escaped", "number", "object",
                                                   "nothing", "plain",   "absent"};
  const auto found = members_named<7>(object, kNames);
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    EXPECT_EQ(string_or_empty(found[i]), string_or_empty(object, std::string(kNames[i]).c_str()))
        << kNames[i];
  }
}

}  // namespace
}  // namespace accord::detail
