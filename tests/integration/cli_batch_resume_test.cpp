// `accord batch` interrupted and run again, as a program: SIGINT/SIGTERM sent to the real process
// while it waits on accord-mock's batch API, its state file, --resume, the refusal to start a
// second paid batch, the token totals, and the refusal of a provider without batches.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fixtures/batch_mock.hpp"
#include "fixtures/cli_run.hpp"
#include "fixtures/hostile_server.hpp"
#include "fixtures/mock_process.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

using cli_testing::Outcome;
using cli_testing::slurp;

class CliBatchResume : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef ACCORD_CLI_PATH
    GTEST_SKIP() << "the accord command was not built";
#endif
    std::string pattern = (fs::temp_directory_path() / "accord-batch-resume-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    std::ofstream(dir_ / "transfer.json") << R"({
      "title": "transfer", "type": "object",
      "properties": {"accountId": {"type": "string"}, "amount": {"type": "number", "maximum": 500}},
      "required": ["accountId", "amount"], "additionalProperties": false})";
    std::ofstream(dir_ / "docs.jsonl") << "\"Send 300 to acct_9.\"\n\"Send 40 to acct_17.\"\n";
  }
  void TearDown() override {
    if (pid_ > 0) (void)finish();
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  [[nodiscard]] std::string file(const std::string& name) const {
    return (dir_ / name).string();
  }
  [[nodiscard]] std::string state_path() const {
    return file("results.jsonl.batch-state.json");
  }

  // `accord batch` on the two documents against `base_url`, results to results.jsonl.
  [[nodiscard]] std::vector<std::string> batch_args(const std::string& provider,
                                                    const std::string& base_url,
                                                    const std::string& first_poll) const {
    return {"batch",        file("transfer.json"),
            "--provider",   provider,
            "--base-url",   base_url,
            "--input",      file("docs.jsonl"),
            "--output",     file("results.jsonl"),
            "--first-poll", first_poll};
  }

  // Starts the command with stdin from /dev/null and stdout/stderr to files.
  void start(std::vector<std::string> args) {
#ifdef ACCORD_CLI_PATH
    args.insert(args.begin(), ACCORD_CLI_PATH);
#endif
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, file("stdout.txt").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, file("stderr.txt").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int rc = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ASSERT_EQ(rc, 0) << "cannot start " << args[0];
  }

  // Waits for the command; the exit code (128 + signal when a signal killed it).
  Outcome finish() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
            slurp(file("stdout.txt")), slurp(file("stderr.txt"))};
  }

  Outcome run(std::vector<std::string> args) {
    start(std::move(args));
    return finish();
  }

  // Sends `signal` once the state file names a batch (the command is then in its first wait),
  // and returns how the command ended and how long it took after the signal.
  std::pair<Outcome, std::chrono::milliseconds> interrupt(int signal) {
    const auto limit = std::chrono::steady_clock::now() + 20s;
    while (!fs::exists(state_path()) && std::chrono::steady_clock::now() < limit)
      std::this_thread::sleep_for(5ms);
    EXPECT_TRUE(fs::exists(state_path())) << slurp(file("stderr.txt"));
    const auto sent = std::chrono::steady_clock::now();
    ::kill(pid_, signal);
    auto outcome = finish();
    return {outcome, std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - sent)};
  }

  // The OpenAI batch API requests the mock received on `method` ending with `suffix`.
  static std::size_t count(const MockProcess& mock, const std::string& method,
                           const std::string& suffix) {
    return accord::testing_batches::count_requests(mock, method, "/v1/batches", suffix);
  }

  static std::string two_replies() {
    const json ok = {{"accountId", "acct_9"}, {"amount", 300}};
    return json{{"replies", json::array({json{{"json", ok}}, json{{"json", ok}}})},
                {"batch_polls", 1}}
        .dump();
  }

  fs::path dir_;
  pid_t pid_ = -1;
};

TEST_F(CliBatchResume, SigintDuringTheWaitLeavesTheBatchRunningAndSaysHowToResume) {
  MockProcess mock(two_replies());
  start(batch_args("openai-chat", mock.base_url(), "60"));
  const auto [r, took] = interrupt(SIGINT);
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_LT(took, 5s);  // not the minute's wait
  EXPECT_NE(r.err.find("SIGINT"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("runs on at the provider"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--resume"), std::string::npos) << r.err;
  const auto state = json::parse(slurp(state_path()));
  EXPECT_EQ(state["provider"], "openai-chat");
  EXPECT_EQ(state["batches"][0]["items"], json::array({"item-0", "item-1"}));
  EXPECT_EQ(count(mock, "POST", "/cancel"), 0u);
}

TEST_F(CliBatchResume, SigtermWithCancelOnSignalCancelsTheBatchAndSaysSo) {
  MockProcess mock(two_replies());
  auto args = batch_args("openai-chat", mock.base_url(), "60");
  args.push_back("--cancel-on-signal");
  start(args);
  const auto [r, took] = interrupt(SIGTERM);
  EXPECT_EQ(r.code, 143) << r.err;
  EXPECT_NE(r.err.find("SIGTERM"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cancel sent"), std::string::npos) << r.err;
  EXPECT_EQ(count(mock, "POST", "/cancel"), 1u);
}

TEST_F(CliBatchResume, ResumeCollectsTheRecordedBatchWithoutCreatingAnother) {
  MockProcess mock(two_replies());
  start(batch_args("openai-chat", mock.base_url(), "60"));
  (void)interrupt(SIGINT);
  auto args = batch_args("openai-chat", mock.base_url(), "0.002");
  args.push_back("--resume");
  const auto r = run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(slurp(file("results.jsonl")));
  std::size_t ok = 0;
  for (std::string line; std::getline(lines, line);) ok += json::parse(line)["ok"] == true ? 1 : 0;
  EXPECT_EQ(ok, 2u);
  EXPECT_EQ(count(mock, "POST", "/v1/batches"), 1u);
  EXPECT_FALSE(fs::exists(state_path()));  // the job is over
}

TEST_F(CliBatchResume, RerunWithoutResumeIsRefusedWhileTheStateFileExists) {
  MockProcess mock(two_replies());
  start(batch_args("openai-chat", mock.base_url(), "60"));
  (void)interrupt(SIGINT);
  const auto sent = mock.requests().size();
  const auto r = run(batch_args("openai-chat", mock.base_url(), "0.002"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--resume"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--fresh"), std::string::npos) << r.err;
  EXPECT_EQ(mock.requests().size(), sent);
}

TEST_F(CliBatchResume, StateFileIsRemovedOnceEveryItemWasAnswered) {
  MockProcess mock(two_replies());
  const auto r = run(batch_args("openai-chat", mock.base_url(), "0.002"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(state_path()));
}

TEST_F(CliBatchResume, StateFileIsKeptWhenAnItemWasNeverAnswered) {
  const json ok = {{"accountId", "acct_9"}, {"amount", 300}};
  MockProcess mock(
      json{{"replies", json::array({json{{"json", ok}}, json{{"batch_expired", true}}})}}.dump());
  const auto r = run(batch_args("openai-chat", mock.base_url(), "0.002"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("1 item was never answered"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(state_path()));
}

TEST_F(CliBatchResume, BatchPrintsTheTokenTotalsOfEveryAttempt) {
  MockProcess mock(two_replies());
  auto args = batch_args("anthropic", mock.root_url(), "0.002");
  args.insert(args.end(), {"--trace", file("traces.jsonl")});
  const auto r = run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  long long in = 0, out = 0;
  std::istringstream lines(slurp(file("traces.jsonl")));
  for (std::string line; std::getline(lines, line);) {
    const auto traced = json::parse(line);
    for (const auto& attempt : traced["trace"]["attempts"]) {
      in += attempt["usage"]["input_tokens"].get<long long>();
      out += attempt["usage"]["output_tokens"].get<long long>();
    }
  }
  ASSERT_GT(in, 0);
  EXPECT_NE(r.err.find("accord: tokens in " + std::to_string(in) + " / out " + std::to_string(out) +
                       " / total " + std::to_string(in + out) + " over 2 attempts in 1 round"),
            std::string::npos)
      << r.err;
}

TEST_F(CliBatchResume, GenericProviderIsRefusedBeforeTheStartLineAndAnyRequest) {
  hostile::Server server(hostile::canned(hostile::Server::response("{}")));
  const auto r = run(batch_args("generic", server.base_url(), "0"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("generic has no batch API"), std::string::npos) << r.err;
  // The providers named as having one are the registry's (Mistral's came with issue 27).
  EXPECT_NE(r.err.find("batch jobs run on openai-chat, openai-responses, anthropic, gemini"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("mistral"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("as a batch job"), std::string::npos) << r.err;
  EXPECT_EQ(server.requests(), 0);
  EXPECT_FALSE(fs::exists(state_path()));
}

}  // namespace
