// run_batch with per-request extra headers, against accord-mock: a provider batch is one HTTP
// request with one set of headers, so requests whose extra headers (the client's merged with
// their own) differ are refused before anything is sent, naming the first that differs and the
// header but never its value; equal ones, in any case or order, go out as one batch.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "accord/batch.hpp"
#include "fixtures/batch_mock.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;
using namespace testing_batches;

std::vector<ExtractRequest> requests_with(const std::vector<Headers>& headers) {
  std::vector<ExtractRequest> requests;
  for (const auto& extra : headers) {
    auto request = refund_request();
    request.parameters.extra_headers = extra;
    requests.push_back(std::move(request));
  }
  return requests;
}

TEST(BatchExtraHeaders, RequestWithOtherExtraHeadersIsRefusedBeforeAnythingIsSent) {
  REQUIRE_MOCK();
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}}.dump());
  const auto client = batch_client("openai-chat", mock, kKey);
  const auto requests =
      requests_with({{{"x-tenant", "a"}}, {{"x-tenant", "a"}}, {{"x-tenant", "secret-b"}}});
  try {
    (void)run_batch(client, requests, fast_polls());
    FAIL() << "the batch was sent";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("requests[2]"), std::string::npos) << message;
    EXPECT_NE(message.find("x-tenant"), std::string::npos) << message;
    EXPECT_EQ(message.find("secret-b"), std::string::npos) << message;
  }
  EXPECT_TRUE(mock.requests().empty());
}

TEST(BatchExtraHeaders, AHeaderOnlySomeRequestsHaveIsNamed) {
  REQUIRE_MOCK();
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}}.dump());
  const auto client = batch_client("anthropic", mock, kKey);
  try {
    (void)run_batch(client, requests_with({{}, {{"x-trace", "1"}}}), fast_polls());
    FAIL() << "the batch was sent";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("requests[1] differs from requests[0] in the extra header "
                                         "x-trace"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(mock.requests().empty());
}

TEST(BatchExtraHeaders, EqualHeadersInAnotherCaseAndOrderGoOutAsOneBatch) {
  REQUIRE_MOCK();
  MockProcess mock(json{{"replies", {{{"json", kValidRefund}}}}}.dump());
  const auto client = batch_client("openai-chat", mock, kKey);
  const auto results = run_batch(
      client,
      requests_with({{{"x-tenant", "a"}, {"x-trace", "1"}}, {{"X-Trace", "1"}, {"X-Tenant", "a"}}}),
      fast_polls());
  ASSERT_EQ(results.size(), 2u);
  for (const auto& result : results) ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(created_batches(mock, "openai-chat"), 1u);
}

}  // namespace
}  // namespace accord
