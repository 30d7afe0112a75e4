#pragma once
// AWS Signature Version 4 for one request (HttpRequest::aws_sigv4), computed here rather than by
// libcurl: curl's CURLOPT_AWS_SIGV4 (7.88) signs the path once-encoded, while AWS encodes it once
// more for every service but S3, so a Bedrock model id's `%3A` (every `...-v1:0`) is refused.

#include <chrono>

#include "accord/http.hpp"

namespace accord::detail {

// The headers that sign `request` at `now`: x-amz-date, x-amz-content-sha256 and Authorization
// (AWS4-HMAC-SHA256 over host, content-type and every x-amz-* header). Empty when
// request.aws_sigv4 is not "aws:amz:{region}:{service}" or aws_credentials is not "ID:SECRET".
[[nodiscard]] Headers aws_sigv4_headers(const HttpRequest& request,
                                        std::chrono::system_clock::time_point now);

}  // namespace accord::detail
