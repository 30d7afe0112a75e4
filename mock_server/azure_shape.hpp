#pragma once
// Azure OpenAI's differences from Chat Completions: what its deployment routes refuse (no
// api-version, no credential), and the content filter's annotations on every reply.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "render.hpp"

namespace accord_mock {

// What Azure answers instead of a completion: 404 when a deployment URL has no api-version, 401
// without an `api-key` header or a bearer token. nullopt when the request may proceed.
[[nodiscard]] std::optional<RenderedReply> azure_refusal(bool deployment_url, bool has_api_version,
                                                         bool has_credential, std::uint64_t serial);

// The rendered Chat Completions reply with Azure's annotations: prompt_filter_results at the top
// and content_filter_results on each choice, filtered (violence, high) when the reply is a
// content-filter stop. A body that is not a completion (a scripted fault) is left as it is.
[[nodiscard]] RenderedReply with_azure_annotations(RenderedReply reply, ReplyKind kind);

// Azure streams the prompt's annotations first, in a chunk with no choices.
[[nodiscard]] std::vector<std::string> with_prompt_filter_chunk(std::vector<std::string> events);

}  // namespace accord_mock
