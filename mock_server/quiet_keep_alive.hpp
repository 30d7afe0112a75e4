#pragma once
// An httplib::Server whose idle keep-alive connections cost no CPU. httplib 0.11 (Debian 12's)
// waits for a connection's next request by polling it every 10 ms and sleeping 1 ms in between,
// so each idle connection's thread wakes ~90 times a second: with 1,000 clients kept alive, the
// mock spent more than a core on those wake-ups and became the ceiling of the 1,000-in-flight
// benchmark. Here the wait is one poll() for the whole keep-alive timeout; requests are still
// parsed, routed and answered by httplib (process_request).

#include <httplib.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

namespace accord_mock {

// A connected socket as httplib reads and writes it, buffered so httplib's byte-at-a-time line
// reading costs one recv per buffer, not per byte. One per connection, kept across its requests.
class SocketStream final : public httplib::Stream {
 public:
  SocketStream(int fd, std::chrono::milliseconds read_timeout,
               std::chrono::milliseconds write_timeout)
      : fd_(fd), read_timeout_(read_timeout), write_timeout_(write_timeout) {}

  // Waits up to `timeout` for the next bytes; true when some can be read.
  [[nodiscard]] bool wait_readable(std::chrono::milliseconds timeout) const {
    return begin_ < end_ || wait(POLLIN, timeout);
  }

  bool is_readable() const override { return wait_readable(read_timeout_); }
  bool is_writable() const override { return wait(POLLOUT, write_timeout_); }

  ssize_t read(char* ptr, size_t size) override {
    if (begin_ == end_) {
      if (!is_readable()) return -1;
      const ssize_t got = receive(buffer_.data(), buffer_.size());
      if (got <= 0) return got;
      begin_ = 0;
      end_ = static_cast<std::size_t>(got);
    }
    const std::size_t n = std::min(size, end_ - begin_);
    std::memcpy(ptr, buffer_.data() + begin_, n);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t sent = 0;
    do {
      sent = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address(::getpeername, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address(::getsockname, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  bool wait(short events, std::chrono::milliseconds timeout) const {
    pollfd p{fd_, events, 0};
    int ready = 0;
    do {
      ready = ::poll(&p, 1, static_cast<int>(timeout.count()));
    } while (ready < 0 && errno == EINTR);
    return ready > 0;
  }

  ssize_t receive(char* ptr, std::size_t size) const {
    ssize_t got = 0;
    do {
      got = ::recv(fd_, ptr, size, 0);
    } while (got < 0 && errno == EINTR);
    return got;
  }

  template <typename Name>
  void address(Name name, std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (name(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) return;
    std::array<char, NI_MAXHOST> host{};
    std::array<char, NI_MAXSERV> service{};
    if (::getnameinfo(reinterpret_cast<sockaddr*>(&address), length, host.data(), host.size(),
                      service.data(), service.size(), NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
      ip = host.data();
      port = std::atoi(service.data());
    }
  }

  int fd_;
  std::chrono::milliseconds read_timeout_;
  std::chrono::milliseconds write_timeout_;
  std::array<char, 4096> buffer_{};
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
};

class QuietKeepAliveServer : public httplib::Server {
 private:
  // httplib's accept loop hands every accepted socket to this (on a task-queue worker).
  bool process_and_close_socket(socket_t sock) override {
    using std::chrono::milliseconds;
    using std::chrono::seconds;
    SocketStream stream(
        sock,
        seconds(read_timeout_sec_) +
            std::chrono::duration_cast<milliseconds>(std::chrono::microseconds(read_timeout_usec_)),
        seconds(write_timeout_sec_) + std::chrono::duration_cast<milliseconds>(
                                          std::chrono::microseconds(write_timeout_usec_)));
    bool served = false;
    for (std::size_t left = keep_alive_max_count_; left > 0; --left) {
      if (svr_sock_ == INVALID_SOCKET || !stream.wait_readable(seconds(keep_alive_timeout_sec_)))
        break;
      bool closed = false;
      served = process_request(stream, left == 1, closed, nullptr);
      if (!served || closed) break;
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return served;
  }
};

}  // namespace accord_mock
