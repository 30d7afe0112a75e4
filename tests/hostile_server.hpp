#pragma once
// A provider written from raw sockets, for faults accord-mock's HTTP library cannot produce: a
// body trickled a byte at a time, an endless run of `100 Continue`, exact bytes (compressed or
// binary) after any headers. One thread serves connections one after another on 127.0.0.1.

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace hostile {

class Server {
 public:
  // Answers each request: gets the connection (its request already read) and writes what it
  // likes; `sent` tells whether the client is still there.
  using Answer = std::function<void(Server& server, int connection)>;

  explicit Server(Answer answer) : answer_(std::move(answer)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    const int yes = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(listener_, 8);
    socklen_t size = sizeof address;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~Server() {
    stopping_ = true;
    thread_.join();
    ::close(listener_);
  }
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  [[nodiscard]] std::string base_url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
  }
  [[nodiscard]] int requests() const { return requests_; }
  // The request being answered, head and body as received (for an Answer, on the server's thread).
  [[nodiscard]] const std::string& request() const { return request_; }
  [[nodiscard]] bool stopping() const { return stopping_; }

  // Writes all of `bytes`; false once the client has gone.
  static bool send(int connection, const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const auto n = ::send(connection, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }

  // A whole response: status 200, the given extra header lines, then `body` as it is.
  static std::string response(const std::string& body, const std::string& headers = "") {
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\nConnection: close\r\n" + headers + "\r\n" + body;
  }

 private:
  void serve() {
    while (!stopping_) {
      pollfd waiting{listener_, POLLIN, 0};
      if (::poll(&waiting, 1, 20) <= 0) continue;
      const int connection = ::accept(listener_, nullptr, nullptr);
      if (connection < 0) continue;
      if (read_request(connection)) {
        ++requests_;
        answer_(*this, connection);
      }
      ::close(connection);
    }
  }

  // Reads the headers and a Content-Length body into request_; false when the client never sent
  // them.
  bool read_request(int connection) {
    std::string data;
    char buffer[4096];
    std::size_t wanted = std::string::npos;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!stopping_ && std::chrono::steady_clock::now() < until) {
      if (wanted == std::string::npos) {
        if (const auto end = data.find("\r\n\r\n"); end != std::string::npos) {
          std::size_t length = 0;
          if (const auto at = data.find("Content-Length: "); at != std::string::npos && at < end) {
            length = std::stoul(data.substr(at + 16));
          }
          wanted = end + 4 + length;
        }
      }
      if (wanted != std::string::npos && data.size() >= wanted) {
        request_ = std::move(data);
        return true;
      }
      pollfd readable{connection, POLLIN, 0};
      if (::poll(&readable, 1, 20) <= 0) continue;
      const auto n = ::recv(connection, buffer, sizeof buffer, 0);
      if (n <= 0) return false;
      data.append(buffer, static_cast<std::size_t>(n));
    }
    return false;
  }

  Answer answer_;
  std::string request_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

// A streamed response: status 200, Content-Type text/event-stream, then `events` as they are
// (the server-sent events, each ending with a blank line); the closed connection ends it.
inline std::string event_stream(const std::string& events) {
  return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" + events;
}

// Headers, then the body one byte per `every` until the client gives up.
inline Server::Answer trickle(std::chrono::milliseconds every) {
  return [every](Server& server, int connection) {
    if (!Server::send(connection,
                      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                      "Content-Length: 100000\r\n\r\n")) {
      return;
    }
    while (!server.stopping() && Server::send(connection, " ")) std::this_thread::sleep_for(every);
  };
}

// `100 Continue` after `100 Continue`, never a final status.
inline Server::Answer endless_continue(std::chrono::milliseconds every) {
  return [every](Server& server, int connection) {
    while (!server.stopping() && Server::send(connection, "HTTP/1.1 100 Continue\r\n\r\n")) {
      std::this_thread::sleep_for(every);
    }
  };
}

// The n-th request gets the n-th bytes; the last ones repeat.
inline Server::Answer in_turn(std::vector<std::string> replies) {
  return [replies = std::move(replies)](Server& server, int connection) {
    const auto n = static_cast<std::size_t>(server.requests());
    Server::send(connection, replies[std::min(n, replies.size()) - 1]);
  };
}

// The same bytes for every request.
inline Server::Answer canned(std::string bytes) {
  return [bytes = std::move(bytes)](Server&, int connection) { Server::send(connection, bytes); };
}

}  // namespace hostile
