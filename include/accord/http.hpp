#pragma once
// One HTTP exchange as a Transport sees it: the request, the response, and why a try got no
// response. Provider profiles encode to and decode from these types.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace accord {

using Headers = std::vector<std::pair<std::string, std::string>>;

// Takes a response body as it arrives (a streamed reply). One reader serves every try of a
// request: begin() starts each try afresh. Called on the thread running the transfer.
class BodyReader {
 public:
  virtual ~BodyReader() = default;
  virtual void begin() = 0;
  // The next bytes of a 2xx body (a failure's body is only collected). The reader bounds what it
  // is given (CurlTransport's max_response_bytes does not apply to it). false stops the transfer,
  // which then ends with the response read so far, not with an error.
  virtual bool read(std::string_view bytes) = 0;
};

struct HttpRequest {
  std::string url;
  Headers headers;  // may carry credentials: never log them; see redacted_headers()
  std::string body;
  // This try's time limit when shorter than TransportOptions::total_timeout (what is left of a
  // call's deadline); 0: the transport's own limit. CurlTransport honours it.
  std::chrono::milliseconds timeout{0};
  // "POST" (every provider call) or "GET" (a batch job's status and results), which sends no body.
  std::string method = "POST";
  // Streamed replies: a 2xx body is handed to this reader as it arrives, instead of being kept
  // in HttpResponse::body. CurlTransport honours it; a transport that does not fills
  // HttpResponse::body, which the reader is then given whole.
  std::shared_ptr<BodyReader> body_reader;
  // AWS Signature Version 4, computed by the transport as it sends (CurlTransport adds
  // x-amz-date, x-amz-content-sha256 and Authorization): the scope "aws:amz:{region}:{service}"
  // and the credentials "ACCESS_KEY_ID:SECRET_ACCESS_KEY" (a secret: never logged). Empty: the
  // request is not signed.
  std::string aws_sigv4;
  std::string aws_credentials;
};

struct HttpResponse {
  long status = 0;
  Headers headers;  // names lower-cased
  std::string body;
  [[nodiscard]] std::optional<std::string> header(std::string_view name) const;
};

// `cancelled`: the caller cancelled the call (or its client shut down) before the try ended.
enum class TransportFailure { connect, timeout, dropped, too_large, tls, cancelled, other };
[[nodiscard]] std::string_view to_string(TransportFailure failure);

struct TransportError {
  TransportFailure failure = TransportFailure::other;
  std::string message;  // never contains credentials
};

// Exactly one of response / error is set.
struct TransportResult {
  std::optional<HttpResponse> response;
  std::optional<TransportError> error;
  std::chrono::milliseconds elapsed{0};
};

}  // namespace accord
