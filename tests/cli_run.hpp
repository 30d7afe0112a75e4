#pragma once
// The accord command run as a program: stdin from /dev/null, stdout and stderr captured whole.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;

namespace cli_testing {

struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// This process's environment with each "NAME=value" of `changes` in place of NAME's own.
inline std::vector<std::string> environment_with(const std::vector<std::string>& changes) {
  std::vector<std::string> out;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const auto name = text.substr(0, text.find('=') + 1);
    bool changed = false;
    for (const auto& change : changes) changed = changed || change.starts_with(name);
    if (!changed) out.push_back(text);
  }
  out.insert(out.end(), changes.begin(), changes.end());
  return out;
}

// Runs the accord command with `args`, its output files in `dir`; `env_changes` ("NAME=value")
// replace those variables. With `stdout_path` stdout goes there instead and is not read back.
inline Outcome run_cli(std::vector<std::string> args, const std::filesystem::path& dir,
                       const std::vector<std::string>& env_changes = {},
                       const std::filesystem::path& stdout_path = {}) {
#ifdef ACCORD_CLI_PATH
  args.insert(args.begin(), ACCORD_CLI_PATH);
#endif
  const auto out_path = stdout_path.empty() ? dir / "stdout.txt" : stdout_path;
  const auto err_path = dir / "stderr.txt";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  auto env = environment_with(env_changes);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = -1;
  Outcome result;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    ADD_FAILURE() << "cannot start " << args[0];
    return result;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (stdout_path.empty()) result.out = slurp(out_path);
  result.err = slurp(err_path);
  return result;
}

// A test with a temporary directory for the command's files.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef ACCORD_CLI_PATH
    GTEST_SKIP() << "the accord command was not built";
#endif
    std::string pattern = (std::filesystem::temp_directory_path() / "accord-cli-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  std::string file(const std::string& name) const {
    return (dir_ / name).string();
  }

  // The command with stdin from /dev/null; `env_changes` ("NAME=value") replace those variables.
  Outcome run(std::vector<std::string> args,
              const std::vector<std::string>& env_changes = {}) const {
    return run_cli(std::move(args), dir_, env_changes);
  }
  // The same with stdout sent to `stdout_path` (a device, say).
  Outcome run_with_stdout(std::vector<std::string> args,
                          const std::filesystem::path& stdout_path) const {
    return run_cli(std::move(args), dir_, {}, stdout_path);
  }

  std::filesystem::path dir_;
};

}  // namespace cli_testing
