// Inputs the fuzz targets (tests/fuzz/) once crashed on, pinned so they stay fixed in the
// ordinary suite too. Each input is also kept in that target's seed corpus.
#include <gtest/gtest.h>

#include "accord/json_text.hpp"
#include "accord/providers/provider.hpp"
#include "accord/validate.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

// validate_refund / validate_transfer: a string holding "; expected '" and then bytes that are
// not UTF-8 made parse_json echo those bytes in its message (taking them for nlohmann's
// "expected ..." note), and dumping the issues as JSON threw type_error 316.
const std::string kExpectedInString = "{\"RoderId\":\"ORD-./...~.......; expected '" +
                                      std::string(34, '\xFF') +
                                      "~...[[[\"A{[FAAAAaAA/...\xD2\xD1\xD1\x8A[((\x01.";

TEST(FuzzRegressions, ParseErrorMessageNeverEchoesTheInput) {
  const ParsedJson parsed = parse_json(kExpectedInString);
  ASSERT_EQ(parsed.issues.size(), 1u);
  const std::string& message = parsed.issues[0].message;
  EXPECT_EQ(message.find('\xFF'), std::string::npos) << message;
  EXPECT_EQ(message.find("RoderId"), std::string::npos) << message;
  EXPECT_NO_THROW((void)to_json(parsed.issues).dump());
}

TEST(FuzzRegressions, ExpectedTextInsideAStringIsNotTakenForNlohmannsNote) {
  const std::string input = "\"ju; expected" + std::string(52, '\xFF') + " s";
  const ParsedJson parsed = parse_json(input);
  ASSERT_EQ(parsed.issues.size(), 1u);
  EXPECT_EQ(parsed.issues[0].message.find("expected"), std::string::npos)
      << parsed.issues[0].message;
}

TEST(FuzzRegressions, ValidatorIssuesForTheCrashInputDumpAsJson) {
  const Validator validator(examples::refund_schema());
  const auto result = validator.parse_and_validate(kExpectedInString);
  EXPECT_FALSE(result.ok());
  EXPECT_NO_THROW((void)to_json(result.issues).dump());
}

// decode_*: usage counts of 1e300 were converted to int64 (undefined behaviour), and Anthropic's
// input + cache counts near INT64_MAX overflowed when summed. Counts are clamped to [0, 2^53].
constexpr std::int64_t kCountCap = std::int64_t{1} << 53;

TEST(FuzzRegressions, HugeFloatUsageIsClampedNotConverted) {
  const auto provider = make_provider("openai-chat");
  const Reply reply =
      provider->decode(HttpResponse{200,
                                    {},
                                    R"({"choices":[{"message":{"role":"assistant","content":"{}"},)"
                                    R"("finish_reason":"stop"}],"usage":{"prompt_tokens":1e300,)"
                                    R"("completion_tokens":-3,"total_tokens":-1e300}})"},
                       OutputMode::response_format);
  EXPECT_EQ(reply.usage.input_tokens, kCountCap);
  EXPECT_EQ(reply.usage.output_tokens, 0);
}

TEST(FuzzRegressions, AnthropicInputCountsNearInt64MaxDoNotOverflowWhenSummed) {
  const auto provider = make_provider("anthropic");
  const Reply reply = provider->decode(
      HttpResponse{200,
                   {},
                   R"({"content":[{"type":"text","text":"{}"}],"stop_reason":"end_turn",)"
                   R"("usage":{"input_tokens":9223372036854775807,)"
                   R"("cache_read_input_tokens":18446744073709551615,"output_tokens":1}})"},
      OutputMode::response_format);
  EXPECT_EQ(reply.usage.input_tokens, 2 * kCountCap);
  EXPECT_EQ(reply.usage.total_tokens, 2 * kCountCap + 1);
}

}  // namespace
}  // namespace accord
