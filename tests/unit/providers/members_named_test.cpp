// members_named (providers/wire.hpp): the members of a reply's object found in one walk, held
// against JsonView::find, one lookup per name, which the codecs used before.

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>

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
    if (expected) EXPECT_TRUE(found[i]->is_same(*expected)) << names[i];
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

TEST(MembersNamed, AnObjectOfManyMembersIsReadAsFindReadsIt) {
  // Past 16 members find looks keys up in the member order instead of walking them.
  std::string text = "{";
  for (int i = 40; i > 0; --i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text.back() = '}';
  const JsonDocument document = envelope_of(text);
  expect_as_find<4>(document.root(), {"k1", "k40", "k17", "k41"});
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
    EXPECT_EQ(string_or_empty(found[i]), string_or_empty(object, std::string(kNames[i]).c_str()))
        << kNames[i];
  }
}

}  // namespace
}  // namespace accord::detail
