#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <deque>
#include <string>

#include "accord/retry.hpp"
#include "transport/delivery_steps.hpp"

namespace accord {
namespace {

using std::chrono::milliseconds;

TransportResult reply(long status, Headers headers = {}, std::string body = {}) {
  TransportResult result;
  result.response = HttpResponse{status, std::move(headers), std::move(body)};
  return result;
}

TransportResult failed(TransportFailure failure) {
  TransportResult result;
  result.error = TransportError{failure, "test failure"};
  return result;
}

RetryPolicy steady() {
  RetryPolicy policy;
  policy.jitter = 0;  // exact waits, so the tests can pin them
  return policy;
}

const std::string kQuotaBody =
    R"({"error": {"message": "You exceeded your current quota, please check your plan.",
                  "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}})";

std::string status_name(const testing::TestParamInfo<long>& info) {
  return "Status" + std::to_string(info.param);
}

std::string failure_name(const testing::TestParamInfo<TransportFailure>& info) {
  return std::string(to_string(info.param));
}

// --- which results are retried -----------------------------------------------------------

class RetriedStatus : public testing::TestWithParam<long> {};

TEST_P(RetriedStatus, IsRetried) {
  const RetryDecision decision = decide_retry(reply(GetParam()), 0, steady());
  EXPECT_TRUE(decision.retry) << decision.reason;
}

INSTANTIATE_TEST_SUITE_P(Retry, RetriedStatus,
                         testing::Values(408L, 409L, 429L, 500L, 502L, 503L, 504L, 529L, 599L),
                         status_name);

class FinalStatus : public testing::TestWithParam<long> {};

TEST_P(FinalStatus, IsNotRetried) {
  const RetryDecision decision = decide_retry(reply(GetParam()), 0, steady());
  EXPECT_FALSE(decision.retry) << decision.reason;
  EXPECT_EQ(decision.wait, milliseconds{0});
}

INSTANTIATE_TEST_SUITE_P(Retry, FinalStatus,
                         testing::Values(200L, 201L, 204L, 301L, 400L, 401L, 402L, 403L, 404L, 413L,
                                         422L),
                         status_name);

class RetriedFailure : public testing::TestWithParam<TransportFailure> {};

TEST_P(RetriedFailure, IsRetried) {
  const RetryDecision decision = decide_retry(failed(GetParam()), 0, steady());
  EXPECT_TRUE(decision.retry) << decision.reason;
  EXPECT_EQ(decision.wait, milliseconds{500});
}

INSTANTIATE_TEST_SUITE_P(Retry, RetriedFailure,
                         testing::Values(TransportFailure::connect, TransportFailure::dropped,
                                         TransportFailure::timeout),
                         failure_name);

class FinalFailure : public testing::TestWithParam<TransportFailure> {};

TEST_P(FinalFailure, IsNotRetried) {
  const RetryDecision decision = decide_retry(failed(GetParam()), 0, steady());
  EXPECT_FALSE(decision.retry) << decision.reason;
}

INSTANTIATE_TEST_SUITE_P(Retry, FinalFailure,
                         testing::Values(TransportFailure::too_large, TransportFailure::tls,
                                         TransportFailure::other),
                         failure_name);

TEST(DecideRetry, ResultWithNeitherResponseNorErrorIsNotRetried) {
  EXPECT_FALSE(decide_retry(TransportResult{}, 0, steady()).retry);
}

TEST(DecideRetry, XShouldRetryTrueRetriesAStatusThatIsOtherwiseFinal) {
  const RetryDecision decision =
      decide_retry(reply(400, {{"x-should-retry", "true"}}), 0, steady());
  EXPECT_TRUE(decision.retry);
  EXPECT_NE(decision.reason.find("x-should-retry: true"), std::string::npos) << decision.reason;
}

TEST(DecideRetry, XShouldRetryFalseStopsARetryableStatus) {
  const RetryDecision decision =
      decide_retry(reply(503, {{"x-should-retry", "false"}}), 0, steady());
  EXPECT_FALSE(decision.retry);
  EXPECT_NE(decision.reason.find("x-should-retry: false"), std::string::npos) << decision.reason;
}

TEST(DecideRetry, XShouldRetryIsReadWhateverTheHeaderNameCase) {
  EXPECT_FALSE(decide_retry(reply(500, {{"X-Should-Retry", "false"}}), 0, steady()).retry);
}

TEST(DecideRetry, XShouldRetryWithAnotherValueLeavesTheStatusRule) {
  EXPECT_TRUE(decide_retry(reply(500, {{"x-should-retry", "maybe"}}), 0, steady()).retry);
  EXPECT_FALSE(decide_retry(reply(400, {{"x-should-retry", "maybe"}}), 0, steady()).retry);
}

TEST(DecideRetry, InsufficientQuotaIsNeverRetried) {
  const RetryDecision decision = decide_retry(reply(429, {}, kQuotaBody), 0, steady());
  EXPECT_FALSE(decision.retry);
  EXPECT_NE(decision.reason.find("insufficient_quota"), std::string::npos) << decision.reason;
}

TEST(DecideRetry, InsufficientQuotaInErrorTypeAloneIsNotRetried) {
  const std::string body = R"({"error": {"type": "insufficient_quota", "code": null}})";
  EXPECT_FALSE(decide_retry(reply(429, {}, body), 0, steady()).retry);
}

TEST(DecideRetry, InsufficientQuotaInErrorCodeAloneIsNotRetried) {
  const std::string body = R"({"error": {"type": "requests", "code": "insufficient_quota"}})";
  EXPECT_FALSE(decide_retry(reply(429, {}, body), 0, steady()).retry);
}

TEST(DecideRetry, InsufficientQuotaWinsOverXShouldRetryTrue) {
  EXPECT_FALSE(
      decide_retry(reply(429, {{"x-should-retry", "true"}}, kQuotaBody), 0, steady()).retry);
}

TEST(DecideRetry, RateLimit429IsRetried) {
  const std::string body =
      R"({"error": {"message": "Rate limit reached", "type": "tokens", "code": "rate_limit_exceeded"}})";
  EXPECT_TRUE(decide_retry(reply(429, {}, body), 0, steady()).retry);
}

TEST(DecideRetry, InsufficientQuotaMentionedOnlyInTheMessageIsStillRetried) {
  const std::string body =
      R"({"error": {"message": "not insufficient_quota", "type": "tokens", "code": "rate_limit_exceeded"}})";
  EXPECT_TRUE(decide_retry(reply(429, {}, body), 0, steady()).retry);
}

TEST(DecideRetry, InsufficientQuotaNestedDeeperThanTheEnvelopeDoesNotCount) {
  const std::string body = R"({"error": {"detail": {"code": "insufficient_quota"}}})";
  EXPECT_TRUE(decide_retry(reply(429, {}, body), 0, steady()).retry);
}

TEST(DecideRetry, A429BodyThatIsNotJsonIsRetried) {
  EXPECT_TRUE(decide_retry(reply(429, {}, "insufficient_quota <html>"), 0, steady()).retry);
}

TEST(DecideRetry, A429BodyNested100000DeepIsScannedWithoutCrashing) {
  std::string body(100'000, '[');
  body.append("\"insufficient_quota\"").append(100'000, ']');
  EXPECT_TRUE(decide_retry(reply(429, {}, body), 0, steady()).retry);
}

TEST(DecideRetry, A500WithInsufficientQuotaBodyIsRetried) {
  // Only a 429 carries the quota meaning; a 5xx is a server fault whatever its body says.
  EXPECT_TRUE(decide_retry(reply(500, {}, kQuotaBody), 0, steady()).retry);
}

TEST(DecideRetry, StopsWhenRetriesAreUsedUp) {
  const RetryDecision decision = decide_retry(reply(500), 2, steady());
  EXPECT_FALSE(decision.retry);
  EXPECT_NE(decision.reason.find("2 retries used up"), std::string::npos) << decision.reason;
}

TEST(DecideRetry, ZeroMaxRetriesNeverRetries) {
  RetryPolicy policy = steady();
  policy.max_retries = 0;
  EXPECT_FALSE(decide_retry(reply(503), 0, policy).retry);
  EXPECT_FALSE(decide_retry(failed(TransportFailure::dropped), 0, policy).retry);
}

TEST(DecideRetry, RetriesBelowTheLimit) {
  EXPECT_TRUE(decide_retry(reply(500), 1, steady()).retry);
}

// --- how long to wait ----------------------------------------------------------------------

TEST(DecideRetryWait, RetryAfterSecondsIsHonoured) {
  const RetryDecision decision = decide_retry(reply(429, {{"retry-after", "2"}}), 0, steady());
  EXPECT_EQ(decision.wait, milliseconds{2000});
  EXPECT_NE(decision.reason.find("retry-after: 2"), std::string::npos) << decision.reason;
}

TEST(DecideRetryWait, RetryAfterFractionalSecondsIsHonoured) {
  EXPECT_EQ(decide_retry(reply(429, {{"retry-after", "1.5"}}), 0, steady()).wait,
            milliseconds{1500});
}

TEST(DecideRetryWait, RetryAfterMsIsHonoured) {
  const RetryDecision decision = decide_retry(reply(503, {{"retry-after-ms", "250"}}), 0, steady());
  EXPECT_EQ(decision.wait, milliseconds{250});
  EXPECT_NE(decision.reason.find("retry-after-ms: 250"), std::string::npos) << decision.reason;
}

TEST(DecideRetryWait, RetryAfterMsFractionIsRoundedUp) {
  EXPECT_EQ(decide_retry(reply(503, {{"retry-after-ms", "12.2"}}), 0, steady()).wait,
            milliseconds{13});
}

TEST(DecideRetryWait, RetryAfterMsTakesPrecedenceOverRetryAfter) {
  const Headers headers = {{"retry-after", "3"}, {"retry-after-ms", "700"}};
  EXPECT_EQ(decide_retry(reply(429, headers), 0, steady()).wait, milliseconds{700});
}

TEST(DecideRetryWait, UnreadableRetryAfterMsFallsBackToRetryAfter) {
  const Headers headers = {{"retry-after-ms", "soon"}, {"retry-after", "3"}};
  EXPECT_EQ(decide_retry(reply(429, headers), 0, steady()).wait, milliseconds{3000});
}

TEST(DecideRetryWait, RetryAfterHttpDateIsHonoured) {
  const std::time_t in_five_seconds = std::time(nullptr) + 5;
  std::tm tm{};
  gmtime_r(&in_five_seconds, &tm);
  char date[64];
  std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  const RetryDecision decision = decide_retry(reply(429, {{"retry-after", date}}), 0, steady());
  // The date has whole seconds, so the wait lands between 4 and 5 s (3 s allows a slow machine).
  EXPECT_GE(decision.wait, milliseconds{3000}) << date;
  EXPECT_LE(decision.wait, milliseconds{5000}) << date;
}

TEST(DecideRetryWait, RetryAfterHttpDateInThePastFallsBackToBackoff) {
  EXPECT_EQ(
      decide_retry(reply(429, {{"retry-after", "Sun, 06 Nov 1994 08:49:37 GMT"}}), 0, steady())
          .wait,
      milliseconds{500});
}

TEST(DecideRetryWait, RetryAfterLongerThanTheCapFallsBackToBackoff) {
  const RetryDecision decision = decide_retry(reply(429, {{"retry-after", "120"}}), 0, steady());
  EXPECT_TRUE(decision.retry);
  EXPECT_EQ(decision.wait, milliseconds{500});
  EXPECT_NE(decision.reason.find("not honoured"), std::string::npos) << decision.reason;
}

TEST(DecideRetryWait, RetryAfterUpToARaisedCapIsHonoured) {
  RetryPolicy policy = steady();
  policy.max_retry_after = milliseconds{600'000};  // Anthropic's SDK has no 60 s cap
  EXPECT_EQ(decide_retry(reply(529, {{"retry-after", "120"}}), 0, policy).wait,
            milliseconds{120'000});
}

TEST(DecideRetryWait, RetryAfterExactlyAtTheCapIsHonoured) {
  EXPECT_EQ(decide_retry(reply(429, {{"retry-after", "60"}}), 0, steady()).wait,
            milliseconds{60'000});
}

TEST(DecideRetryWait, RetryAfterZeroFallsBackToBackoff) {
  EXPECT_EQ(decide_retry(reply(429, {{"retry-after", "0"}}), 0, steady()).wait, milliseconds{500});
}

TEST(DecideRetryWait, NegativeRetryAfterFallsBackToBackoff) {
  EXPECT_EQ(decide_retry(reply(429, {{"retry-after-ms", "-5"}}), 0, steady()).wait,
            milliseconds{500});
}

TEST(DecideRetryWait, GarbageRetryAfterFallsBackToBackoff) {
  EXPECT_EQ(decide_retry(reply(429, {{"retry-after", "tomorrow-ish"}}), 0, steady()).wait,
            milliseconds{500});
}

TEST(DecideRetryWait, BackoffDoublesPerRetry) {
  RetryPolicy policy = steady();
  policy.max_retries = 10;
  EXPECT_EQ(decide_retry(reply(500), 0, policy).wait, milliseconds{500});
  EXPECT_EQ(decide_retry(reply(500), 1, policy).wait, milliseconds{1000});
  EXPECT_EQ(decide_retry(reply(500), 2, policy).wait, milliseconds{2000});
  EXPECT_EQ(decide_retry(reply(500), 3, policy).wait, milliseconds{4000});
}

TEST(DecideRetryWait, BackoffIsCappedAtMaxBackoff) {
  RetryPolicy policy = steady();
  policy.max_retries = 1000;
  EXPECT_EQ(decide_retry(reply(500), 4, policy).wait, milliseconds{8000});
  EXPECT_EQ(decide_retry(reply(500), 999, policy).wait, milliseconds{8000});
}

TEST(DecideRetryWait, JitterTakesOffAtMostItsFraction) {
  const RetryPolicy policy;  // 25 % jitter by default
  bool varied = false;
  for (int i = 0; i < 200; ++i) {
    const milliseconds wait = decide_retry(reply(500), 0, policy).wait;
    ASSERT_GE(wait, milliseconds{375});
    ASSERT_LE(wait, milliseconds{500});
    varied = varied || wait != milliseconds{500};
  }
  EXPECT_TRUE(varied);
}

TEST(DecideRetryWait, ServerAskedWaitIsNotJittered) {
  const RetryPolicy policy;
  EXPECT_EQ(decide_retry(reply(429, {{"retry-after", "1"}}), 0, policy).wait, milliseconds{1000});
}

// --- deliver ------------------------------------------------------------------------------

class ScriptedTransport final : public Transport {
 public:
  explicit ScriptedTransport(std::deque<TransportResult> script) : script_(std::move(script)) {}
  TransportResult post(const HttpRequest& request) override {
    ++calls;
    last_url = request.url;
    timeouts.push_back(request.timeout);
    TransportResult next = script_.front();
    if (script_.size() > 1) script_.pop_front();  // the last result repeats
    return next;
  }
  int calls = 0;
  std::string last_url;
  std::vector<milliseconds> timeouts;  // each try's

 private:
  std::deque<TransportResult> script_;
};

struct RecordingSleeper {
  std::vector<milliseconds> waits;
  Sleeper sleeper() {
    return [this](milliseconds wait) { waits.push_back(wait); };
  }
};

const HttpRequest kRequest{"http://127.0.0.1:9/v1/chat/completions", {}, "{}"};

TEST(Deliver, WaitsTheRetryAfterThenSucceeds) {
  ScriptedTransport transport({reply(429, {{"retry-after", "1"}}), reply(200, {}, "ok")});
  RecordingSleeper sleeper;
  const Delivery delivery = deliver(transport, kRequest, RetryPolicy{}, sleeper.sleeper());
  EXPECT_EQ(sleeper.waits, std::vector<milliseconds>{milliseconds{1000}});
  ASSERT_EQ(delivery.tries.size(), 2u);
  EXPECT_EQ(delivery.last().response->status, 200);
  EXPECT_EQ(delivery.last().response->body, "ok");
}

TEST(Deliver, SucceedsAfterTwoServerErrors) {
  ScriptedTransport transport({reply(500), reply(500), reply(200)});
  RecordingSleeper sleeper;
  const Delivery delivery = deliver(transport, kRequest, steady(), sleeper.sleeper());
  EXPECT_EQ(transport.calls, 3);
  EXPECT_EQ(sleeper.waits, (std::vector<milliseconds>{milliseconds{500}, milliseconds{1000}}));
  EXPECT_EQ(delivery.last().response->status, 200);
}

TEST(Deliver, InsufficientQuotaIsTriedOnce) {
  ScriptedTransport transport({reply(429, {}, kQuotaBody), reply(200)});
  RecordingSleeper sleeper;
  const Delivery delivery = deliver(transport, kRequest, steady(), sleeper.sleeper());
  EXPECT_EQ(transport.calls, 1);
  EXPECT_TRUE(sleeper.waits.empty());
  EXPECT_EQ(delivery.last().response->status, 429);
}

TEST(Deliver, GivesUpAfterMaxRetriesWithTheLastFailure) {
  ScriptedTransport transport({failed(TransportFailure::dropped)});
  RecordingSleeper sleeper;
  const Delivery delivery = deliver(transport, kRequest, steady(), sleeper.sleeper());
  EXPECT_EQ(transport.calls, 3);  // one try and the default two retries
  EXPECT_EQ(sleeper.waits.size(), 2u);
  EXPECT_EQ(delivery.last().error->failure, TransportFailure::dropped);
}

TEST(Deliver, RecordsOneDecisionPerTry) {
  ScriptedTransport transport({reply(503), failed(TransportFailure::timeout), reply(200)});
  RecordingSleeper sleeper;
  const Delivery delivery = deliver(transport, kRequest, steady(), sleeper.sleeper());
  ASSERT_EQ(delivery.tries.size(), 3u);
  ASSERT_EQ(delivery.decisions.size(), 3u);
  EXPECT_TRUE(delivery.decisions[0].retry);
  EXPECT_TRUE(delivery.decisions[1].retry);
  EXPECT_FALSE(delivery.decisions[2].retry);
  EXPECT_EQ(delivery.tries[0].response->status, 503);
  EXPECT_EQ(delivery.tries[1].error->failure, TransportFailure::timeout);
}

TEST(Deliver, DoesNotRetryAClientError) {
  ScriptedTransport transport({reply(400), reply(200)});
  RecordingSleeper sleeper;
  const Delivery delivery = deliver(transport, kRequest, steady(), sleeper.sleeper());
  EXPECT_EQ(transport.calls, 1);
  EXPECT_EQ(delivery.last().response->status, 400);
}

TEST(Deliver, SendsTheSameRequestEachTry) {
  ScriptedTransport transport({reply(502), reply(200)});
  RecordingSleeper sleeper;
  (void)deliver(transport, kRequest, steady(), sleeper.sleeper());
  EXPECT_EQ(transport.last_url, kRequest.url);
}

TEST(Deliver, EachTryKeepsTheRequestsOwnTimeoutWhenTheDeadlineIsFurther) {
  // The request is sent as it is, its timeout set for each try: a try's cut must not carry over
  // to the next.
  ScriptedTransport transport({reply(503), reply(503), reply(200)});
  RecordingSleeper sleeper;
  HttpRequest request = kRequest;
  request.timeout = milliseconds{300};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{60};
  (void)deliver(transport, request, steady(), sleeper.sleeper(), deadline);
  EXPECT_EQ(transport.timeouts, std::vector<milliseconds>(3, milliseconds{300}));
}

TEST(Deliver, EachTryOfARequestWithoutTimeoutGetsTheTimeLeft) {
  ScriptedTransport transport({reply(503), reply(200)});
  RecordingSleeper sleeper;  // records the 500 ms wait without taking it
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{60};
  (void)deliver(transport, kRequest, steady(), sleeper.sleeper(), deadline);
  ASSERT_EQ(transport.timeouts.size(), 2u);
  EXPECT_GT(transport.timeouts[0], milliseconds{59'000});
  EXPECT_LE(transport.timeouts[0], milliseconds{60'000});
  EXPECT_GT(transport.timeouts[1], milliseconds{59'000});
  EXPECT_LE(transport.timeouts[1], transport.timeouts[0]);
}

// A try's timeout is cut to the time left after its wait; the next try starts again from the
// request's own (none here), so a cut does not carry over to a try with a shorter wait.
TEST(DeliverySteps, ATrysCutTimeoutDoesNotCarryOverToTheNextTry) {
  DeliverySteps steps(kRequest, steady(),
                      std::chrono::steady_clock::now() + std::chrono::seconds{60});
  const HttpRequest* first = steps.next_request(std::chrono::seconds{10});
  ASSERT_NE(first, nullptr);
  EXPECT_LE(first->timeout, milliseconds{50'000});
  const HttpRequest* second = steps.next_request(milliseconds{0});
  ASSERT_NE(second, nullptr);
  EXPECT_GT(second->timeout, milliseconds{59'000});
}

TEST(Deliver, DefaultSleeperWaitsForReal) {
  ScriptedTransport transport({reply(503, {{"retry-after-ms", "1"}}), reply(200)});
  const Delivery delivery = deliver(transport, kRequest, steady());
  EXPECT_EQ(delivery.tries.size(), 2u);
}

}  // namespace
}  // namespace accord
