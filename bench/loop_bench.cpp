// `accord-bench loop` and `accord-bench concurrent`: calls/sec of Client::extract against
// accord-mock, and the bare-HTTP floor of the same request.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <iostream>
#include <latch>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "accord/client.hpp"
#include "bench.hpp"
#include "schemas/refund.hpp"

namespace accord::bench {
namespace {

using clock_type = std::chrono::steady_clock;

// What the mock answers with: valid on the first attempt, so one extract is one HTTP call.
nlohmann::json refund_document() {
  return {{"orderId", "ORD-482913"},
          {"amount", 42.5},
          {"currency", "EUR"},
          {"orderDate", "2026-11-02"},
          {"refundDate", "2026-11-20"},
          {"note", "arrived broken"},
          {"sku", "KT-200"}};
}

const char* kPrompt =
    "Hello, I ordered a kettle (SKU KT-200) on 2026-11-02, order ORD-482913, and it arrived "
    "broken. Please refund the 42.50 EUR I paid. I am writing on 2026-11-20. Thanks, Dana";

// A server to call: the one given, or accord-mock started for this run.
struct Server {
  std::optional<MockServer> mock;
  std::string base_url;
};

void start(Server& server, const LoopOptions& options) {
  if (!options.base_url.empty()) {
    server.base_url = options.base_url;
    return;
  }
  nlohmann::json reply = {{"json", refund_document()}};
  if (options.delay_ms > 0) reply["delay_ms"] = options.delay_ms;
  const nlohmann::json scenario = {{"replies", nlohmann::json::array({reply})}};
  server.mock.emplace(mock_binary(options.mock), scenario.dump());
  // Anthropic's base URL has no /v1 (as ANTHROPIC_BASE_URL); OpenAI-style ones do.
  server.base_url = server.mock->root_url() + (options.provider == "anthropic" ? "" : "/v1");
}

struct Bench {
  std::shared_ptr<CurlTransport> transport = std::make_shared<CurlTransport>();
  Client client;
  Schema schema = examples::refund_schema();  // one Schema: one Contract, compiled once
  ExtractRequest request{.schema = schema, .prompt = kPrompt, .name = "refund"};

  Bench(const LoopOptions& options, const std::string& base_url)
      : client(ClientOptions{.provider = options.provider,
                             .base_url = base_url,
                             .api_key = "bench-not-a-key",
                             .custom_transport = transport}) {}

  // The HTTP request extract() sends on a first attempt, encoded the same way.
  [[nodiscard]] HttpRequest first_request(const std::string& base_url) const {
    const auto contract = client.contract(schema, request.name);
    CallSpec call{.base_url = base_url,
                  .api_key = "bench-not-a-key",
                  .model = std::string(client.provider().default_model()),
                  .output_name = request.name,
                  .output = &contract->wire(),
                  .mode = request.mode};
    call.turns.push_back(Turn{.role = Turn::Role::user, .text = request.prompt});
    return client.provider().encode(call);
  }

  bool extract_once() const {
    auto result = client.extract(request);
    if (!result.ok()) {
      static std::atomic<bool> told{false};
      if (!told.exchange(true)) std::cerr << "extract failed: " << result.error().message << "\n";
    }
    return result.ok();
  }
};

void report(const std::string& what, int calls, int failures, double seconds) {
  std::cout << "mode: " << what << "\ncalls: " << calls << " failures: " << failures
            << "\nseconds: " << seconds << "\npeak_rss_kib: " << peak_rss_kib()
            << "\ncalls_per_sec: " << static_cast<long long>(calls / seconds) << "\n";
}

// The median of `values` (sorted in place); 0 for none.
double median(std::vector<double>& values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// extract/raw side by side in one process, on one mock and one kept-alive connection: `rounds`
// pairs of blocks of `calls`, the order flipped every round so neither side always runs second.
// A single pair moves by ±30% (far more on a loaded machine); the median of the pairs does not.
// CPU microseconds per call (this process: encode, HTTP, parse, validate) are printed too: on a
// shared machine they move less than wall time, and their difference is the loop's own work.
int compare_rounds(const LoopOptions& options, const std::function<bool(bool raw)>& one) {
  std::vector<double> ratios;
  std::vector<double> cpu_extract;
  std::vector<double> cpu_raw;
  int failures = 0;
  // Calls per second of one block; its CPU microseconds per call go to `cpu`.
  const auto block = [&](bool raw, std::vector<double>& cpu) {
    const double cpu_before = cpu_seconds();
    const auto started = clock_type::now();
    for (int i = 0; i < options.calls; ++i) failures += one(raw) ? 0 : 1;
    const double seconds = std::chrono::duration<double>(clock_type::now() - started).count();
    cpu.push_back((cpu_seconds() - cpu_before) * 1e6 / options.calls);
    return options.calls / seconds;
  };
  for (int round = 0; round < options.rounds; ++round) {
    double extract = 0;
    double raw = 0;
    if (round % 2 == 0) {
      extract = block(false, cpu_extract);
      raw = block(true, cpu_raw);
    } else {
      raw = block(true, cpu_raw);
      extract = block(false, cpu_extract);
    }
    ratios.push_back(extract / raw);
    std::cout << "round " << round + 1 << ": extract " << static_cast<long long>(extract) << " raw "
              << static_cast<long long>(raw) << " ratio " << extract / raw << "\n";
  }
  const double cpu_extract_us = median(cpu_extract);
  const double cpu_raw_us = median(cpu_raw);
  const double ratio = median(ratios);  // sorts: the quantiles below read the sorted ratios
  const auto quantile = [&](double q) {
    return ratios[static_cast<std::size_t>(q * static_cast<double>(ratios.size() - 1) + 0.5)];
  };
  std::cout << "failures: " << failures << "\ncpu_us_per_extract: " << cpu_extract_us
            << "\ncpu_us_per_raw: " << cpu_raw_us << "\nratio_min: " << ratios.front()
            << "\nratio_p25: " << quantile(0.25) << "\nratio_p75: " << quantile(0.75)
            << "\nratio_max: " << ratios.back() << "\nratio_median: " << ratio << "\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace

int run_loop(const LoopOptions& options) {
  Server server;
  start(server, options);
  Bench bench(options, server.base_url);
  std::cout << "provider: " << options.provider << "\nbase_url: " << server.base_url << "\n";

  // Warm-up through extract() either way: it compiles the contract and opens the connection.
  const auto warm = bench.client.extract(bench.request);
  if (!warm.ok()) throw std::runtime_error("extract failed: " + warm.error().message);
  const HttpRequest raw = bench.first_request(server.base_url);
  const bool same_body = raw.body == warm.trace().attempts.front().request_body;
  std::cout << "raw_body_matches_extract: " << (same_body ? "yes" : "no") << "\n";

  auto one = [&](bool bare) {
    if (bare) {
      const auto result = bench.transport->post(raw);
      return result.response && result.response->status == 200;
    }
    return bench.extract_once();
  };
  for (int i = 0; i < options.warmup; ++i) (void)one(options.raw);
  if (options.rounds > 0) return same_body ? compare_rounds(options, one) : 1;
  int failures = 0;
  const auto started = clock_type::now();
  for (int i = 0; i < options.calls; ++i) failures += one(options.raw) ? 0 : 1;
  const double seconds = std::chrono::duration<double>(clock_type::now() - started).count();
  report(options.raw ? "raw" : "extract", options.calls, failures, seconds);
  return failures == 0 && same_body ? 0 : 1;
}

// K calls of extract_async in flight from this one thread: each call's callback (on the
// transport's thread) starts the next until `calls` have started.
double run_async(const Bench& bench, int in_flight, int calls, std::atomic<int>& failures) {
  std::atomic<int> started{0};
  std::atomic<int> ended{0};
  std::promise<void> all_ended;
  std::function<void()> start_one = [&] {
    if (started.fetch_add(1) >= calls) return;
    (void)bench.client.extract_async(bench.request, [&](Result<nlohmann::json> result) {
      if (!result.ok()) failures.fetch_add(1);
      start_one();
      if (ended.fetch_add(1) + 1 == calls) all_ended.set_value();
    });
  };
  const auto begun = clock_type::now();
  for (int i = 0; i < std::min(in_flight, calls); ++i) start_one();
  all_ended.get_future().wait();
  return std::chrono::duration<double>(clock_type::now() - begun).count();
}

// K threads over one shared Client (extract() is synchronous and thread-safe, and the transport
// keeps one pooled curl handle, one kept-alive connection, per thread in flight), or with
// --async K calls of extract_async from one thread.
int run_concurrent(const LoopOptions& options) {
  Server server;
  start(server, options);
  Bench bench(options, server.base_url);
  std::cout << "provider: " << options.provider << "\nbase_url: " << server.base_url
            << "\nin_flight: " << options.in_flight << "\ndelay_ms: " << options.delay_ms << "\n";

  std::atomic<int> failures{0};
  auto run = [&](int calls) {
    if (options.async) return run_async(bench, options.in_flight, calls, failures);
    std::atomic<int> next{0};
    std::latch ready(options.in_flight + 1);
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(options.in_flight));
    for (int t = 0; t < options.in_flight; ++t) {
      threads.emplace_back([&] {
        ready.arrive_and_wait();
        while (next.fetch_add(1) < calls) {
          if (!bench.extract_once()) failures.fetch_add(1);
        }
      });
    }
    ready.arrive_and_wait();
    const auto started = clock_type::now();
    for (auto& thread : threads) thread.join();
    return std::chrono::duration<double>(clock_type::now() - started).count();
  };
  // Warm-up: every thread's connection is opened before timing.
  (void)run(std::max(options.warmup, options.in_flight));
  failures = 0;
  const double client_cpu = cpu_seconds();
  const double mock_cpu = server.mock ? server.mock->cpu_seconds() : 0;
  const double seconds = run(options.calls);
  // Where the time goes: CPU seconds per second of the timed run (1.0 = one core busy).
  std::cout << "client_cpu_per_sec: " << (cpu_seconds() - client_cpu) / seconds << "\n";
  if (server.mock) {
    std::cout << "mock_cpu_per_sec: " << (server.mock->cpu_seconds() - mock_cpu) / seconds
              << "\nmock_peak_rss_kib: " << server.mock->peak_rss_kib()
              << "\nmock_threads: " << server.mock->threads() << "\n";
  }
  report(options.async ? "extract_async" : "extract", options.calls, failures.load(), seconds);
  return failures == 0 ? 0 : 1;
}

}  // namespace accord::bench
