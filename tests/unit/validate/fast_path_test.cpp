// The fast paths against what they stand in front of: the quick JSON reader (src/fast_json.*)
// against nlohmann's parser, and the engine's message-free pass (Engine::accepts) against its
// worded pass (Engine::issues). The reader may decline anything; whatever it does decide must be
// exactly what nlohmann decides. The two engine passes must always agree on the verdict.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../examples/schemas/refund.hpp"
#include "../examples/schemas/transfer.hpp"
#include "accord/json_schema.hpp"
#include "accord/json_text.hpp"
#include "accord/validate.hpp"
#include "core/fast_json.hpp"
#include "validate/validator_impl.hpp"

namespace accord {
namespace {

using nlohmann::json;

// Equal including the kind of number (nlohmann's == calls 1, 1u and 1.0 equal) and, for
// ordered_json, the order of keys.
template <class Json>
bool identical(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
      if (ia.key() != ib.key() || !identical(ia.value(), ib.value())) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!identical(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_number_float()) {
    const double x = a.template get<double>();
    const double y = b.template get<double>();
    return x == y && std::signbit(x) == std::signbit(y);
  }
  return a == b;
}

template <class Json>
::testing::AssertionResult same_as_reference(const std::optional<Json>& quick,
                                             const std::string& text, const Json& reference) {
  if (!quick) return ::testing::AssertionSuccess();
  if (reference.is_discarded()) {
    return ::testing::AssertionFailure() << "quick reader accepted what nlohmann rejects: " << text;
  }
  if (!identical(*quick, reference)) {
    return ::testing::AssertionFailure()
           << "values differ for " << text << ": " << quick->dump() << " vs " << reference.dump();
  }
  return ::testing::AssertionSuccess();
}

// Whatever a quick reader returns, nlohmann must return too, identically: the plain one against
// json::parse, the ordered one (reply envelopes) against parse_ordered_json.
::testing::AssertionResult reader_agrees(const std::string& text) {
  auto plain = same_as_reference(detail::fast_parse_json(text, 256), text,
                                 json::parse(text, nullptr, false));
  if (!plain) return plain;
  return same_as_reference(detail::fast_parse_ordered_json(text, 256), text,
                           parse_ordered_json(text, false));
}

std::string shared_dir() {
  if (const char* env = std::getenv("ACCORD_SHARED_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return ACCORD_SHARED_DIR;
}

std::vector<std::string> corpus_lines(const std::string& name) {
  std::ifstream in(shared_dir() + "/corpus/" + name + ".jsonl");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> sample_lines() {
  std::ifstream in(std::string(ACCORD_SOURCE_DIR) + "/bench/sample/refund.jsonl");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::shared_ptr<const detail::ValidatorImpl> reference_of(const Schema& schema) {
  return detail::make_validator_impl(
      emit(schema.check(), EmitOptions{.dialect = Dialect::draft07}).json, &schema,
      detail::EngineOptions{.default_draft = detail::Draft::draft7});
}

std::shared_ptr<const detail::ValidatorImpl> compiled_impl(const char* text) {
  return detail::make_validator_impl(nlohmann::ordered_json::parse(text), nullptr, {});
}

// ---- the quick JSON reader ----

TEST(FastJson, ReadsPlainDocumentsExactlyAsNlohmannDoes) {
  for (const char* text :
       {R"({"a":1,"b":-2,"c":1.5,"d":"x","e":true,"f":false,"g":null,"h":[],"i":{}})",
        R"(  [1, 0, -0, 0.0, -0.0, 1e2, 1E-2, 2.5e+3, 123456789012345678]  )",
        R"("caf\u00e9 \ud83d\ude00 \" \\ \/ \b \f \n \r \t")", R"({"k":"naïve 日本 😀"})",
        R"("\u0000")", "0", "-7", "true", "null"}) {
    ASSERT_TRUE(detail::fast_parse_json(text, 256).has_value()) << text;
    EXPECT_TRUE(reader_agrees(text));
  }
}

TEST(FastJson, LeavesEverythingUnusualToNlohmann) {
  for (const char* text : {"",
                           "   ",
                           "{",
                           "[1,]",
                           R"({"a":1,})",
                           R"({"a" 1})",
                           "01",
                           "1.",
                           ".5",
                           "-",
                           "+1",
                           "1e",
                           "1e400",
                           "-1e400",
                           "1e-400",
                           "NaN",
                           "tru",
                           "nulls",
                           R"("a" "b")",
                           "\"\x01\"",
                           "\"\xff\"",
                           "\"\xc0\xaf\"",
                           "\"\xed\xa0\x80\"",
                           "\"\xf4\x90\x80\x80\"",
                           R"("\ud800")",
                           R"("\udc00")",
                           R"("\ud800\u0041")",
                           R"("\x")",
                           R"("\u12")",
                           "\xef\xbb\xbf{}",
                           R"({"a":1,"a":2})",
                           "12345678901234567890",
                           "-9223372036854775809",
                           "1234567890123456789"}) {
    EXPECT_FALSE(detail::fast_parse_json(text, 256).has_value()) << text;
  }
}

TEST(FastJson, NestingBeyondTheLimitIsLeftToTheReferenceParser) {
  EXPECT_TRUE(detail::fast_parse_json("[[[]]]", 3).has_value());
  EXPECT_FALSE(detail::fast_parse_json("[[[]]]", 2).has_value());
  EXPECT_FALSE(
      detail::fast_parse_json(std::string(600, '[') + std::string(600, ']'), 100000).has_value());
  const auto parsed = parse_json(std::string(300, '[') + std::string(300, ']'));
  ASSERT_FALSE(parsed.value);
  EXPECT_NE(parsed.issues.at(0).message.find("nested deeper than 256"), std::string::npos);
}

TEST(FastJson, OrderedReaderKeepsKeyOrder) {
  const auto quick = detail::fast_parse_ordered_json(R"({"z":1,"a":{"y":2,"b":3}})", 256);
  ASSERT_TRUE(quick.has_value());
  EXPECT_EQ(quick->dump(), R"({"z":1,"a":{"y":2,"b":3}})");
}

TEST(FastJson, OrderedReaderLeavesDuplicateKeysAndWideObjectsToNlohmann) {
  EXPECT_FALSE(detail::fast_parse_ordered_json(R"({"a":1,"a":2})", 256).has_value());
  // An ordered object looks keys up one by one: a wide one goes to the linear reader.
  std::string wide = "{";
  for (int i = 0; i < 65; ++i) wide += (i == 0 ? "\"k" : ",\"k") + std::to_string(i) + "\":0";
  wide += "}";
  EXPECT_FALSE(detail::fast_parse_ordered_json(wide, 256).has_value());
  EXPECT_TRUE(detail::fast_parse_json(wide, 256).has_value());
}

TEST(FastJson, RandomNumbersReadAsNlohmannReadsThem) {
  std::mt19937 random(20261202);
  std::uniform_int_distribution<int> digit(0, 9);
  std::uniform_int_distribution<int> length(1, 22);
  std::uniform_int_distribution<int> shape(0, 5);
  for (int i = 0; i < 20000; ++i) {
    std::string number = shape(random) == 0 ? "-" : "";
    const int digits = length(random);
    // JSON integers have no leading zero: the first digit is 1-9 unless the whole part is 0.
    number += digits == 1 ? static_cast<char>('0' + digit(random))
                          : static_cast<char>('1' + digit(random) % 9);
    for (int d = 1; d < digits; ++d) number += static_cast<char>('0' + digit(random));
    if (shape(random) >= 3) number += "." + std::to_string(random() % 100000);
    if (shape(random) == 5) number += "e" + std::to_string(static_cast<int>(random() % 640) - 320);
    ASSERT_TRUE(reader_agrees("[" + number + "]"));
  }
}

// Byte-level mutations of real documents: whatever the reader accepts, nlohmann accepts equally.
TEST(FastJson, MutatedDocumentsNeverDisagreeWithNlohmann) {
  auto seeds = corpus_lines("refund");
  const auto transfer = corpus_lines("transfer");
  seeds.insert(seeds.end(), transfer.begin(), transfer.end());
  const auto sample = sample_lines();
  seeds.insert(seeds.end(), sample.begin(), sample.end());
  ASSERT_FALSE(seeds.empty());
  const std::string alphabet =
      "\"\\{}[],:0123456789-+.eEtrufalsn \t\n\x01\x7f\xc3\xa9\xe6\x97\xa5\xff";
  std::mt19937 random(7);
  for (int i = 0; i < 60000; ++i) {
    std::string text = seeds[random() % seeds.size()];
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = random() % text.size();
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        default:
          text.erase(at, 1);
      }
    }
    ASSERT_TRUE(reader_agrees(text));
  }
}

TEST(FastJson, EveryCorpusLineTakesTheQuickRoute) {
  for (const char* name : {"refund", "transfer"}) {
    const auto lines = corpus_lines(name);
    if (lines.empty()) GTEST_SKIP() << "the shared corpus is not present";
    std::size_t quick = 0;
    for (const auto& line : lines) {
      ASSERT_TRUE(reader_agrees(line));
      quick += detail::fast_parse_json(line, 256) ? 1 : 0;
    }
    EXPECT_EQ(quick, lines.size()) << name;
  }
}

// ---- the engine's fast pass against its worded pass ----

void expect_passes_agree(const Schema& schema, const std::vector<std::string>& lines) {
  const auto impl = reference_of(schema);
  const Validator validator(schema);
  std::size_t valid = 0;
  for (const auto& line : lines) {
    const auto parsed = parse_json(line);
    if (!parsed.value) continue;
    const Issues worded = impl->engine->issues(*parsed.value);
    const bool accepted = impl->engine->accepts(*parsed.value);
    ASSERT_EQ(accepted, worded.empty()) << line;
    valid += accepted ? 1 : 0;
    // Through the public API the issues are the worded pass's, word for word.
    const auto result = validator.parse_and_validate(line);
    ASSERT_EQ(result.issues, worded) << line;
  }
  EXPECT_GT(valid, 0U);
}

TEST(EngineFastPass, AgreesWithTheWordedPassOnEveryRefundCorpusLine) {
  auto lines = corpus_lines("refund");
  if (lines.empty()) GTEST_SKIP() << "the shared corpus is not present";
  expect_passes_agree(examples::refund_schema(), lines);
}

TEST(EngineFastPass, AgreesWithTheWordedPassOnEveryTransferCorpusLine) {
  auto lines = corpus_lines("transfer");
  if (lines.empty()) GTEST_SKIP() << "the shared corpus is not present";
  expect_passes_agree(examples::transfer_schema(), lines);
}

TEST(EngineFastPass, AgreesWithTheWordedPassOnTheBuiltInSample) {
  expect_passes_agree(examples::refund_schema(), sample_lines());
}

struct Edge {
  const char* name;
  Schema schema;
  std::vector<const char*> values;
};

TEST(EngineFastPass, AgreesWithTheWordedPassOnEdgeCases) {
  const auto positive_even = number().positive().refine(
      [](const json& v) {
        return !v.is_number() || static_cast<long long>(v.get<double>()) % 2 == 0;
      },
      "even");
  const std::vector<Edge> edges = {
      {"integers",
       object({{"n", integer().gte(-3).lte(9007199254740993.0)}}),
       {R"({"n":1})", R"({"n":1.0})", R"({"n":1.5})", R"({"n":-3})", R"({"n":-4})",
        R"({"n":18446744073709551615})", R"({"n":9223372036854775808})", R"({"n":1e300})",
        R"({"n":9007199254740993})", R"({"n":"1"})", R"({})"}},
      {"bounds",
       object({{"x", number().gt(0).lt(1)}, {"y", number().multiple_of(0.01)}}),
       {R"({"x":0.5,"y":4.35})", R"({"x":0,"y":1})", R"({"x":1,"y":1})", R"({"x":0.5,"y":0.001})",
        R"({"x":1e-320,"y":0})", R"({"x":0.5,"y":3})"}},
      {"strings",
       object({{"s", string().min(2).max(3).regex("^[a-z]+$")}, {"d", string().date()}}),
       {R"({"s":"ab","d":"2024-02-29"})", R"({"s":"é","d":"2024-02-29"})",
        R"({"s":"abcd","d":"2024-02-29"})", R"({"s":"ab","d":"2023-02-29"})",
        R"({"s":"ab","d":"2023-1-01"})", R"({"s":"ab\u0000c","d":"2024-01-01"})",
        R"({"s":"ab\n","d":"2024-01-01"})"}},
      {"nullable and optional",
       object(
           {{"a", string().nullable()}, {"b", integer().optional()}, {"c", string().default_("x")}})
           .refine([](const json& v) { return v.contains("c"); }, "defaults are seen"),
       {R"({"a":null})", R"({"a":"x","b":2})", R"({"a":1})", R"({"b":2})", R"({"a":null,"c":null})",
        R"({"a":null,"z":1})"}},
      {"arrays and refinements",
       object({{"items", array(positive_even).min(1).max(3)}}),
       {R"({"items":[2,4]})", R"({"items":[2,3]})", R"({"items":[]})", R"({"items":[2,2,2,2]})",
        R"({"items":[-2]})", R"({"items":"2"})"}},
      {"unions",
       object(
           {{"u", union_({string(), integer()})},
            {"t", discriminated_union("kind", {object({{"kind", literal("a")}, {"n", integer()}}),
                                               object({{"kind", literal("b")}})})}}),
       {R"({"u":"x","t":{"kind":"a","n":1}})", R"({"u":1,"t":{"kind":"b"}})",
        R"({"u":1.5,"t":{"kind":"b"}})", R"({"u":1,"t":{"kind":"c"}})",
        R"({"u":1,"t":{"kind":"a"}})", R"({"u":1,"t":{"kind":"b","n":1}})"}},
      {"a refinement reading the accepted union option's default",
       object({{"either", union_({object({{"a", number().default_(1)}}), number()})}})
           .refine([](const json& v) { return v["either"].is_number() || v["either"]["a"] == 1; },
                   "the option's default is not filled in"),
       {R"({"either":{}})", R"({"either":{"a":2}})", R"({"either":3})"}},
      {"literals and enums",
       object({{"l", literal(3)}, {"e", enumeration({"x", "y"})}, {"b", literal(true)}}),
       {R"({"l":3,"e":"x","b":true})", R"({"l":3.0,"e":"y","b":true})",
        R"({"l":"3","e":"x","b":true})", R"({"l":3,"e":"z","b":true})",
        R"({"l":3,"e":"x","b":1})"}},
      {"throwing refinement",
       object({{"a", string().refine([](const json&) -> bool { throw std::runtime_error("boom"); },
                                     "m")}}),
       {R"({"a":"x"})"}},
      {"passthrough and any",
       object({{"a", any()}}).passthrough(),
       {R"({"a":{"b":[1,{"c":null}]},"z":[[]]})", R"({})", R"({"a":null})"}},
      {"declarative rules with a default",
       object({{"currency", enumeration({"usd", "eur"}).default_("eur")},
               {"amount", number()},
               {"from", string()},
               {"to", string().optional()}})
           .rule(when("currency", Op::eq, "eur").then("amount", Op::lte, 500), "capped")
           .rule(compare("to", Op::gte, field("from")), "to is before from"),
       {R"({"amount":600,"from":"a"})", R"({"currency":"usd","amount":600,"from":"a"})",
        R"({"currency":"eur","amount":500,"from":"b","to":"a"})",
        R"({"amount":1,"from":"a","to":"b"})", R"({"amount":1,"from":"a","to":7})"}},
  };
  for (const auto& edge : edges) {
    const auto impl = reference_of(edge.schema);
    for (const char* text : edge.values) {
      const json value = json::parse(text);
      const Issues worded = impl->engine->issues(value);
      EXPECT_EQ(impl->engine->accepts(value), worded.empty()) << edge.name << ": " << text;
      EXPECT_EQ(Validator(edge.schema).validate(value), worded) << text;
    }
  }
}

TEST(EngineFastPass, AcceptsTheCommonValidShapes) {
  const auto schema =
      object({{"n", integer()}, {"s", string().nullable()}, {"l", array(number())}});
  const auto impl = reference_of(schema);
  EXPECT_TRUE(impl->engine->accepts(json::parse(R"({"n":1,"s":null,"l":[1,2.5]})")));
  EXPECT_TRUE(impl->engine->accepts(json::parse(R"({"n":1,"s":"x","l":[]})")));
  EXPECT_FALSE(impl->engine->accepts(json::parse(R"({"n":"1","s":"x","l":[]})")));
}

TEST(EngineFastPass, ValuesTooDeepForValidateGetOneIssue) {
  const auto schema = object({{"a", any()}});
  json deep = json::array();
  for (int i = 0; i < 1000; ++i) deep = json::array({deep});
  const json value = {{"a", deep}};
  const auto issues = Validator(schema).validate(value);
  ASSERT_EQ(issues.size(), 1U);
  EXPECT_EQ(issues[0].code, IssueCode::invalid_json);
}

TEST(EngineFastPass, CoversRefsNotConditionalsAndUniqueItems) {
  struct Case {
    const char* schema;
    const char* valid;
    const char* invalid;
  };
  for (
      const auto& c : std::vector<Case>{
          {R"({"definitions":{"a":{"type":"string"}},"properties":{"x":{"$ref":"#/definitions/a"}}})",
           R"({"x":"s"})", R"({"x":1})"},
          {R"({"not":{"type":"string"}})", "1", R"("s")"},
          {R"({"type":"array","uniqueItems":true})", "[1,2]", "[1,1.0]"},
          {R"({"if":{"type":"string"},"then":{"minLength":1}})", R"("a")", R"("")"},
          {R"({"enum":[[1]]})", "[1.0]", "[2]"}}) {
    const auto impl = compiled_impl(c.schema);
    EXPECT_TRUE(impl->engine->accepts(json::parse(c.valid))) << c.schema;
    EXPECT_FALSE(impl->engine->accepts(json::parse(c.invalid))) << c.schema;
    EXPECT_FALSE(impl->engine->issues(json::parse(c.invalid)).empty()) << c.schema;
  }
}

TEST(EngineFastPass, JudgesPlainJsonSchemas) {
  const auto impl = compiled_impl(
      R"({"type":"object","required":["a"],"properties":{"a":{"type":["string","null"],"maxLength":2}},"additionalProperties":{"type":"integer"},"minProperties":1})");
  EXPECT_TRUE(impl->engine->accepts(json::parse(R"({"a":"xy","b":3})")));
  EXPECT_TRUE(impl->engine->accepts(json::parse(R"({"a":null})")));
  EXPECT_FALSE(impl->engine->accepts(json::parse(R"({"a":"xyz"})")));
  EXPECT_FALSE(impl->engine->accepts(json::parse(R"({"a":"x","b":"3"})")));
  EXPECT_FALSE(impl->engine->accepts(json::parse(R"({"b":3})")));
}

}  // namespace
}  // namespace accord
