#pragma once
// Amazon Bedrock's Converse shape: the reply body, AWS's error envelope, ConverseStream's events
// in the AWS event-stream binary framing, and the SigV4 check a signed request must pass.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "render.hpp"
#include "scenario.hpp"

namespace accord_mock {

// The paths Converse and ConverseStream are served at (group 1: the model id, still encoded);
// also under /v1, the base URL the tests give every provider.
inline constexpr const char* kConverseRoute = R"((?:/v1)?/model/([^/]+)/converse)";
inline constexpr const char* kConverseStreamRoute = R"((?:/v1)?/model/([^/]+)/converse-stream)";

[[nodiscard]] RenderedReply render_converse(const Reply& reply, const nlohmann::json& request,
                                            std::size_t request_bytes, std::uint64_t serial);

// {"message"} with the error's name in x-amzn-ErrorType, as Bedrock answers a failure.
[[nodiscard]] RenderedReply render_bedrock_error(int status, const nlohmann::json& fields,
                                                 std::uint64_t serial);

// The frames (each one event-stream message) that carry a Converse `body` as ConverseStream
// sends it, text and toolUse input in pieces of `chunk_chars` bytes.
[[nodiscard]] std::vector<std::string> converse_stream_events(const nlohmann::json& body,
                                                              std::size_t chunk_chars);

// A well-framed event whose payload is not JSON, for the "malformed" fault.
[[nodiscard]] std::string malformed_converse_event();

inline constexpr std::string_view kEventStreamMediaType = "application/vnd.amazon.eventstream";

// The test signing key pair accord-mock knows (mock_server/README.md).
inline constexpr const char* kMockAccessKeyId = "AKIDACCORDMOCKTEST";
inline constexpr const char* kMockSecretAccessKey = "accord-mock-test-secret-key";

struct SignedRequest {
  std::string method;
  std::string target;  // the path and query as sent, still percent-encoded
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

// A request signed with AWS Signature Version 4 (Authorization: AWS4-HMAC-SHA256 ...) is checked
// as AWS checks it: the canonical request (the path's segments encoded once more, as for every
// service but S3), the string to sign and the HMAC-SHA256 key chain with the test secret. The
// 403 reply for a signature that does not match or an unknown key; nullopt for a good one, or
// for a request not signed so (a Bedrock API key, or none).
[[nodiscard]] std::optional<RenderedReply> refused_signature(const SignedRequest& request,
                                                             std::uint64_t serial);

}  // namespace accord_mock
