// Reply decoding for one provider (accord_fuzz_setting, named by each target), through the real
// Client: the fuzz input is what the transport "received", so decoding, the retry decision, parsing
// and validating the content, the corrective request that sends the reply back, and the Trace are
// all exercised.
//
// Input: one control byte (low nibble: HTTP status, bit 4: forced-tool mode, bit 5: a
// retry-after header), then the body.
#include <cstddef>
#include <cstdint>
#include <string>

#include "accord/client.hpp"
#include "schemas/refund.hpp"

namespace {

constexpr long kStatuses[16] = {200, 200, 200, 200, 200, 200, 201, 400,
                                401, 404, 408, 429, 500, 503, 529, 200};

// Answers every request with the fuzz input; single-threaded, as libFuzzer runs.
class Replay final : public accord::Transport {
 public:
  accord::HttpResponse response;
  accord::TransportResult post(const accord::HttpRequest&) override {
    return accord::TransportResult{response, std::nullopt, {}};
  }
};

}  // namespace

// The provider's name: each fuzz target links this file's one object with its own setting, so
// the fuzzer is compiled once for all four providers.
extern "C" const char accord_fuzz_setting[];

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace accord;
  static const auto replay = std::make_shared<Replay>();
  static const Client client(ClientOptions{.provider = accord_fuzz_setting,
                                           .base_url = "http://127.0.0.1:9/v1",
                                           .api_key = "sk-fuzz-key",
                                           .retry = {.max_retries = 0},
                                           .custom_transport = replay});
  static const Schema schema = examples::refund_schema();
  if (size == 0) return 0;

  HttpResponse& response = replay->response;
  response.status = kStatuses[data[0] & 0x0F];
  response.headers = {{"content-type", "application/json"}};
  if ((data[0] & 0x20) != 0) response.headers.emplace_back("retry-after", "1");
  response.body.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
  const OutputMode mode =
      (data[0] & 0x10) != 0 ? OutputMode::forced_tool : OutputMode::response_format;

  (void)decide_retry(TransportResult{response, std::nullopt, {}}, 0, RetryPolicy{});
  const auto result =
      client.extract({.schema = schema, .prompt = "extract", .name = "refund", .mode = mode});
  (void)result.trace().to_json().dump();
  (void)result.trace().to_text();
  if (!result.ok()) (void)ExtractError(result.error()).what();
  return 0;
}
