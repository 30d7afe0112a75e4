// Starting and stopping accord-mock for a benchmark run.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench.hpp"

extern char** environ;

namespace accord::bench {

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

namespace {

// A "Name:  N kB"-style line of /proc/PID/status, as a number; -1 when absent.
long status_field(int pid, const std::string& name) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(name + ":", 0) == 0) return std::atol(line.c_str() + name.size() + 1);
  }
  return -1;
}

}  // namespace

std::string mock_binary(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("ACCORD_MOCK_PATH"); env != nullptr && *env != '\0') return env;
  // Next to this binary in the build tree: build/bench/accord-bench, build/mock_server/accord-mock.
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const auto sibling = self.parent_path().parent_path() / "mock_server" / "accord-mock";
    if (std::filesystem::exists(sibling)) return sibling.string();
  }
#ifdef ACCORD_MOCK_PATH
  return ACCORD_MOCK_PATH;
#else
  throw std::runtime_error("accord-mock not found: pass --mock or --base-url");
#endif
}

MockServer::MockServer(const std::string& binary, const std::string& scenario_json) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  stdout_fd_ = fds[0];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<std::string> args = {binary, "--port", "0", "--scenario-json", scenario_json};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(stdout_fd_);
    throw std::runtime_error("cannot start " + binary);
  }
  pid_ = pid;

  // The first line is "listening on 127.0.0.1:PORT".
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd p{stdout_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char buffer[256];
    const auto n = ::read(stdout_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    line.append(buffer, static_cast<std::size_t>(n));
  }
  const auto colon = line.rfind(':');
  if (line.rfind("listening on ", 0) == 0 && colon != std::string::npos) {
    port_ = std::atoi(line.c_str() + colon + 1);
  }
  if (port_ <= 0) {
    stop();
    throw std::runtime_error("accord-mock did not announce a port (output: " + line + ")");
  }
}

MockServer::~MockServer() {
  stop();
}

void MockServer::stop() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    // It stops within a moment; SIGKILL after 5 s if it does not.
    bool reaped = false;
    for (int i = 0; i < 200 && !reaped; ++i) {
      reaped = ::waitpid(pid_, &status, WNOHANG) == pid_;
      if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    if (!reaped) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
    pid_ = -1;
  }
  if (stdout_fd_ >= 0) {
    ::close(stdout_fd_);
    stdout_fd_ = -1;
  }
}

double MockServer::cpu_seconds() const {
  std::ifstream stat("/proc/" + std::to_string(pid_) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  // Fields after the command name (which may hold spaces) start past the last ')'; utime and
  // stime are the 14th and 15th fields of the whole line, the 12th and 13th after it.
  const auto paren = text.rfind(')');
  if (paren == std::string::npos) return -1;
  std::istringstream fields(text.substr(paren + 2));
  std::string field;
  double ticks = 0;
  for (int i = 1; i <= 13 && fields >> field; ++i) {
    if (i >= 12) ticks += std::atof(field.c_str());
  }
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

long MockServer::peak_rss_kib() const {
  return status_field(pid_, "VmHWM");
}

long MockServer::threads() const {
  return status_field(pid_, "Threads");
}

std::string MockServer::root_url() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

}  // namespace accord::bench
