#pragma once
// MockProcess: runs the real accord-mock binary for one test and stops it afterwards.
//
//   MockProcess mock(R"({"replies":[{"json":{"ok":true}}]})");
//   client.base_url = mock.base_url();          // "http://127.0.0.1:PORT/v1"
//   ... mock.requests() ...                     // what the mock received, credentials redacted
//
// The constructor throws std::runtime_error when the mock does not announce its port within
// 10 s (bad scenario, missing binary); the destructor sends SIGTERM, waits (SIGKILL after 10 s)
// and reaps the child, so no zombie is left behind.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

extern char** environ;

class MockProcess {
 public:
  // `scenario_json` empty: the mock's default scenario. `log_path` empty: a temporary log file
  // that the destructor removes. `options` go to the command line as they are.
  explicit MockProcess(std::string scenario_json, std::string log_path = "",
                       const std::vector<std::string>& options = {})
      : log_path_(std::move(log_path)) {
    if (log_path_.empty()) {
      log_path_ = make_temp_file("accord-mock-log-", "");
      owns_log_ = true;
    }
    std::vector<std::string> args = {binary_path(), "--port", "0", "--log", log_path_};
    args.insert(args.end(), options.begin(), options.end());
    if (!scenario_json.empty()) {
      // Long scenarios go through a file: a single argv string is limited to 128 KiB.
      if (scenario_json.size() > 32 * 1024) {
        scenario_path_ = make_temp_file("accord-mock-scenario-", scenario_json);
        args.insert(args.end(), {"--scenario", scenario_path_});
      } else {
        args.insert(args.end(), {"--scenario-json", scenario_json});
      }
    }
    try {
      spawn(args);
      port_ = read_port(std::chrono::seconds(10));
    } catch (...) {
      stop();
      cleanup_files();
      throw;
    }
  }

  ~MockProcess() {
    stop();
    cleanup_files();
  }

  MockProcess(const MockProcess&) = delete;
  MockProcess& operator=(const MockProcess&) = delete;

  [[nodiscard]] int port() const { return port_; }
  // The OpenAI-style base URL: "http://127.0.0.1:PORT/v1".
  [[nodiscard]] std::string base_url() const { return root_url() + "/v1"; }
  // Without "/v1", as Anthropic's SDK wants it and for the /_accord/ admin endpoints.
  [[nodiscard]] std::string root_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  [[nodiscard]] const std::string& log_path() const { return log_path_; }
  [[nodiscard]] pid_t pid() const { return pid_; }

  // The log file's raw text (one JSON object per line).
  [[nodiscard]] std::string log_text() const {
    std::ifstream in(log_path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  // Every provider request received so far, oldest first, as a JSON array of
  // {"method","path","headers","body"}. Complete as soon as the reply (or drop) was seen: the mock
  // writes each line before answering.
  [[nodiscard]] nlohmann::json requests() const {
    auto entries = nlohmann::json::array();
    std::ifstream in(log_path_, std::ios::binary);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) entries.push_back(nlohmann::json::parse(line));
    }
    return entries;
  }

  // SIGTERM, then waits for the exit. Returns the exit code, or -signal when killed. Idempotent.
  int stop() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status = 0;
      if (!wait_for_exit(std::chrono::seconds(10), status)) {
        ::kill(pid_, SIGKILL);
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
      }
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
      pid_ = -1;
    }
    if (stdout_fd_ >= 0) {
      ::close(stdout_fd_);
      stdout_fd_ = -1;
    }
    return exit_code_;
  }

  // The binary under test: ACCORD_MOCK_PATH from the build, or the environment variable of the
  // same name.
  static std::string binary_path() {
    if (const char* env = std::getenv("ACCORD_MOCK_PATH"); env != nullptr && *env != '\0')
      return env;
#ifdef ACCORD_MOCK_PATH
    return ACCORD_MOCK_PATH;
#else
    throw std::runtime_error("MockProcess: accord-mock was not built (ACCORD_MOCK_PATH unset)");
#endif
  }

 private:
  static std::string make_temp_file(const std::string& prefix, const std::string& content) {
    const char* tmp = std::getenv("TMPDIR");
    std::string path =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
    const int fd = ::mkstemp(path.data());
    if (fd < 0) throw std::runtime_error("MockProcess: cannot create a temporary file");
    std::size_t written = 0;
    while (written < content.size()) {
      const auto n = ::write(fd, content.data() + written, content.size() - written);
      if (n <= 0) {
        ::close(fd);
        throw std::runtime_error("MockProcess: cannot write " + path);
      }
      written += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return path;
  }

  void cleanup_files() {
    if (owns_log_) std::remove(log_path_.c_str());
    if (!scenario_path_.empty()) std::remove(scenario_path_.c_str());
  }

  void spawn(const std::vector<std::string>& args) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("MockProcess: pipe failed");
    stdout_fd_ = fds[0];
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);  // dup2 clears CLOEXEC
    // Reset what a test runner may have blocked or ignored, so SIGTERM really stops the mock.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGINT);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(fds[1]);
    if (rc != 0) throw std::runtime_error("MockProcess: cannot start " + args[0]);
    pid_ = pid;
  }

  int read_port(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string line;
    while (line.find('\n') == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) throw std::runtime_error("MockProcess: no port line within timeout");
      pollfd p{stdout_fd_, POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) continue;  // the deadline check above ends the loop
      char buffer[256];
      const auto n = ::read(stdout_fd_, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw std::runtime_error(
            "MockProcess: accord-mock exited before listening (output: " + line + ")");
      line.append(buffer, static_cast<std::size_t>(n));
    }
    line.resize(line.find('\n'));
    const std::string prefix = "listening on ";
    const auto colon = line.rfind(':');
    if (line.rfind(prefix, 0) != 0 || colon == std::string::npos)
      throw std::runtime_error("MockProcess: unexpected first line: " + line);
    const int port = std::atoi(line.c_str() + colon + 1);
    if (port <= 0) throw std::runtime_error("MockProcess: no port in: " + line);
    return port;
  }

  // Waits on a pidfd when the kernel has them; otherwise polls waitpid.
  bool wait_for_exit(std::chrono::milliseconds timeout, int& status) {
#ifdef SYS_pidfd_open
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      int ready = 0;
      do {
        ready = ::poll(&p, 1, static_cast<int>(timeout.count()));
      } while (ready < 0 && errno == EINTR);
      ::close(pidfd);
      if (ready <= 0) return false;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      return true;
    }
#endif
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  std::string log_path_;
  bool owns_log_ = false;
  std::string scenario_path_;
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  int port_ = 0;
  int exit_code_ = -1;
};
