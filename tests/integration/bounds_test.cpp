// Red-team run 2, "unbounded or fatal": a scoped correction's echo, a refused raised cap, a
// throwing extract_async callback and a document of hostile lookaround strings, each bounded.
// Over real HTTP against accord-mock where the wire is involved.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

#include "accord/client.hpp"
#include "accord/validate.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "loop/loop.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;
using namespace std::chrono_literals;

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// ---- the scoped correction's echo ----

TEST(ScopedCorrectionEcho, HugeFailingValueIsCutAsTheWholeObjectEchoIs) {
  // A 2 MB code over its limit beside 2.5 MB of valid notes: scoped (under half of the object),
  // and the value asked about is echoed in the correction.
  const Schema schema = object({{"code", string().max(10)}, {"notes", string()}});
  const json first = {{"code", std::string(2'000'000, 'x')},
                      {"notes", std::string(2'500'000, 'n')}};
  MockProcess mock(scenario({{{"json", first}}, {{"json", {{"code", "AB-1"}}}}}));
  const Client client({.provider = "openai-chat", .model = "m", .base_url = mock.base_url()});
  auto result = client.extract({.schema = schema, .prompt = "Extract.", .name = "r"});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value()["code"], "AB-1");
  ASSERT_EQ(result.trace().attempts.at(1).role, AttemptRole::scoped_correction);

  const std::string sent = mock.requests().at(1)["body"].dump();
  RecordProperty("scoped_request_bytes", static_cast<int>(sent.size()));
  // The echo and the issue list at their caps, the prompt and the patch schema: well under
  // 64 KiB where the value alone was 2 MB.
  EXPECT_LT(sent.size(), detail::kEchoedReplyBytes + detail::kEchoedIssuesBytes + 16 * 1024);
  EXPECT_TRUE(contains(sent, "more bytes of the values not repeated")) << sent.substr(0, 2000);
}

// ---- the raised-cap retry refused ----

TEST(RaisedCapRefused, EndsAsTheTruncationItWasNamingTheRefusedCap) {
  const json refused = {{"status", 400},
                        {"body",
                         {{"error",
                           {{"message",
                             "max_tokens is too large: 4096. This model supports at most 2048 "
                             "completion tokens."},
                            {"type", "invalid_request_error"}}}}}};
  MockProcess mock(scenario({{{"truncated", R"({"orderId": "ORD-4)"}}, refused}));
  const Client client(
      {.provider = "openai-chat", .model = "m", .base_url = mock.base_url(), .max_tokens = 1024});
  auto result = client.extract(
      {.schema = examples::refund_schema(), .prompt = "Extract the refund.", .name = "refund"});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::truncated) << result.error().message;
  const auto& message = result.error().message;
  EXPECT_TRUE(contains(message, "raised to 4096 was refused")) << message;
  EXPECT_TRUE(contains(message, "max_tokens is too large")) << message;
  const auto& attempts = result.error().trace.attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].content, R"({"orderId": "ORD-4)");  // the partial output is kept
  EXPECT_EQ(attempts[1].role, AttemptRole::raised_cap);
  EXPECT_TRUE(contains(attempts[1].note, "the raised cap of max_tokens 4096 was refused"))
      << attempts[1].note;
}

TEST(RaisedCapRefused, OtherHttpErrorsOfTheRetryStayHttpErrors) {
  MockProcess mock(scenario({{{"truncated", R"({"orderId": "ORD-4)"}}, {{"status", 401}}}));
  const Client client({.provider = "openai-chat", .model = "m", .base_url = mock.base_url()});
  auto result = client.extract(
      {.schema = examples::refund_schema(), .prompt = "Extract the refund.", .name = "refund"});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::http) << result.error().message;
}

// ---- a throwing extract_async callback ----

TEST(AsyncCallbackThrows, TheExceptionGoesToTheHookAndTheOtherCallsFinish) {
  constexpr int kCalls = 12;
  // Each reply waits, so every call is in flight when the first callback throws.
  MockProcess mock(scenario({{{"json", kValidRefund}, {"delay_ms", 100}}}));
  std::promise<std::string> heard;
  ClientOptions options{.provider = "openai-chat", .model = "m", .base_url = mock.base_url()};
  options.on_callback_exception = [&](std::exception_ptr thrown) {
    try {
      std::rethrow_exception(thrown);
    } catch (const std::exception& e) {
      heard.set_value(e.what());
    }
  };
  const Client client(options);
  std::atomic<int> delivered{0};
  std::atomic<int> valid{0};
  std::promise<void> all_done;
  for (int i = 0; i < kCalls; ++i) {
    (void)client.extract_async(
        {.schema = examples::refund_schema(), .prompt = "Extract the refund.", .name = "refund"},
        [&](Result<json> result) {
          valid += result.ok() ? 1 : 0;
          const int n = ++delivered;
          if (n == kCalls) all_done.set_value();
          if (n == 1) throw std::runtime_error("the caller's bug");
        });
  }
  ASSERT_EQ(all_done.get_future().wait_for(20s), std::future_status::ready);
  EXPECT_EQ(valid.load(), kCalls);
  auto what = heard.get_future();
  ASSERT_EQ(what.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(what.get(), "the caller's bug");
  EXPECT_EQ(client.callback_exceptions(), 1u);
}

TEST(AsyncCallbackThrows, WithoutAHookTheExceptionIsCounted) {
  MockProcess mock(scenario({{{"json", kValidRefund}}}));
  const Client client({.provider = "openai-chat", .model = "m", .base_url = mock.base_url()});
  std::promise<void> called;
  (void)client.extract_async(
      {.schema = examples::refund_schema(), .prompt = "Extract the refund.", .name = "refund"},
      [&](const Result<json>&) {
        called.set_value();
        throw 42;  // not even a std::exception
      });
  called.get_future().wait();
  // The count is raised after the callback returns (throws): wait for it, briefly.
  for (int i = 0; i < 500 && client.callback_exceptions() == 0; ++i)
    std::this_thread::sleep_for(2ms);
  EXPECT_EQ(client.callback_exceptions(), 1u);
  // The transport's thread lives on: another call completes.
  EXPECT_TRUE(client
                  .extract_async({.schema = examples::refund_schema(),
                                  .prompt = "Extract the refund.",
                                  .name = "refund"})
                  .get()
                  .ok());
}

// ---- the backtracking budget per document ----

// Each string takes PCRE2 past its per-match limit (the lookahead tries 2^30 ways to split the
// a's before the "!" fails it).
constexpr const char* kHostileLookaround = "^(?=(a|a)*$)";

json strings(std::size_t count, const std::string& each) {
  return json(std::vector<std::string>(count, each));
}

Validator lookaround_validator(const std::string& pattern) {
  return Validator::from_json_schema(
      {{"type", "array"}, {"items", {{"type", "string"}, {"pattern", pattern}}}});
}

TEST(BacktrackingBudget, ManyHostileStringsSpendOneBudgetPerDocument) {
  const auto validator = lookaround_validator(kHostileLookaround);
  const auto value = strings(10'000, std::string(30, 'a') + "!");
  const auto start = std::chrono::steady_clock::now();
  const auto issues = validator.validate(value);
  const auto took = std::chrono::steady_clock::now() - start;
  // 10,000 x 1,000,000 steps took 11-12 s (83 s on a loaded host) before the budget; the
  // budget's 10,000,000 steps take tens of milliseconds.
  EXPECT_LT(took, 5s);
  ASSERT_FALSE(issues.empty());
  const bool named = std::any_of(issues.begin(), issues.end(), [](const Issue& issue) {
    return contains(issue.message, "spent its budget of 10000000 backtracking steps");
  });
  EXPECT_TRUE(named) << prettify(issues);
}

TEST(BacktrackingBudget, LookaroundsWithinTheBudgetJudgeEveryString) {
  // 10,000 strings that each match quickly: the budget is not spent, every one is judged.
  const auto validator = lookaround_validator(R"(^(?=.*\d)(?!.*--)[a-z0-9-]+$)");
  auto value = strings(10'000, "order-1234");
  EXPECT_TRUE(validator.validate(value).empty());
  value[9'999] = "order--1234";
  const auto issues = validator.validate(value);
  ASSERT_EQ(issues.size(), 1u) << prettify(issues);
  EXPECT_EQ(issues[0].path.to_string(), "[9999]");
  EXPECT_FALSE(contains(issues[0].message, "budget")) << issues[0].message;
}

TEST(BacktrackingBudget, EachValidationHasItsOwnBudget) {
  const auto validator = lookaround_validator(kHostileLookaround);
  (void)validator.validate(strings(100, std::string(30, 'a') + "!"));
  // A later document is judged in full, not refused for what an earlier one spent.
  EXPECT_TRUE(validator.validate(strings(3, std::string(30, 'a'))).empty());
}

}  // namespace
}  // namespace accord
