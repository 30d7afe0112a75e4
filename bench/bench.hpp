#pragma once
// accord-bench: the pieces shared by its subcommands.

#include <chrono>
#include <optional>
#include <string>

namespace accord::bench {

struct ValidateOptions {
  std::string schema;    // refund | transfer
  std::string corpus;    // one JSON document per line
  std::string verdicts;  // optional: valid/invalid per line written here
  std::string expected;  // optional: reference verdicts; a disagreement makes the exit code 1
  std::string mode = "full";
  double seconds = 2.0;
  std::size_t lines = 0;  // 0: every line
};

struct LoopOptions {
  std::string provider = "openai-chat";
  std::string base_url;  // empty: accord-bench starts accord-mock itself
  std::string mock;      // accord-mock binary; empty: the one built next to accord-bench
  int calls = 2000;
  int warmup = 50;
  bool raw = false;
  int rounds = 0;      // loop only: alternate extract and raw blocks of `calls` this many times
  int in_flight = 1;   // concurrent only
  bool async = false;  // concurrent only: extract_async from one thread instead of K threads
  int delay_ms = 0;    // the mock's reply delay (only when accord-bench starts the mock)
};

struct LoweringOptions {
  std::string schema;  // a JSON Schema file
  int repeat = 5;      // lowerings per provider; the median is printed
};

int run_validate(const ValidateOptions& options);
// Import once, then lower for every provider: milliseconds and wire bytes, one line each.
int run_lowering(const LoweringOptions& options);
int run_loop(const LoopOptions& options);
int run_concurrent(const LoopOptions& options);
// Input tokens of a scoped versus a whole-object correction (provider, mock from LoopOptions).
int run_corrections(const LoopOptions& options);
// Corrections avoided by lossless repair on the repair corpus, and what each saves.
int run_repairs(const LoopOptions& options, const std::string& corpus_path);

// Peak resident set size of this process so far, in KiB (getrusage).
long peak_rss_kib();
// CPU seconds (user + system) this process has used so far.
double cpu_seconds();
// Heap bytes held by operator-new allocations made while counting was on and not yet freed
// (malloc_usable_size of each: what the allocator hands out, not what was asked for).
void count_heap(bool on);
long long heap_bytes_in_use();
// operator-new calls made while counting was on (every one, freed or not).
long long heap_allocations();

// accord-mock started for one run and stopped (SIGTERM, then reaped) when this goes away.
class MockServer {
 public:
  MockServer(const std::string& binary, const std::string& scenario_json);
  ~MockServer();
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;
  [[nodiscard]] std::string root_url() const;
  // The mock process's own figures, from /proc: CPU seconds (user + system) so far, peak resident
  // set (VmHWM) in KiB, and threads now.
  [[nodiscard]] double cpu_seconds() const;
  [[nodiscard]] long peak_rss_kib() const;
  [[nodiscard]] long threads() const;

 private:
  void stop();
  int pid_ = -1;
  int stdout_fd_ = -1;
  int port_ = 0;
};

// The accord-mock binary: --mock, else $ACCORD_MOCK_PATH, else the one this build made.
std::string mock_binary(const std::string& given);

}  // namespace accord::bench
