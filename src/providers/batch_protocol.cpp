#include "providers/batch_protocol.hpp"

#include <fmt/format.h>

#include "providers/registry.hpp"

namespace accord::detail {

using nlohmann::ordered_json;

ordered_json batch_reply(const HttpResponse& response, std::string_view what) {
  auto parsed = ordered_json::parse(response.body, nullptr, false);
  if (!parsed.is_object())
    throw BatchFailure(fmt::format("the {} reply is not a JSON object", what));
  return parsed;
}

std::string body_text(const ordered_json& body) {
  return body.is_string() ? body.get<std::string>() : body.dump();
}

HttpResponse BatchProtocol::get(std::string url) const {
  HttpRequest request{std::move(url), headers_, ""};
  request.method = "GET";
  return send_(std::move(request));
}

HttpResponse BatchProtocol::post(std::string url, std::string content_type,
                                 std::string body) const {
  HttpRequest request{std::move(url), headers_, std::move(body)};
  request.headers.emplace_back("content-type", std::move(content_type));
  return send_(std::move(request));
}

std::unique_ptr<BatchProtocol> make_batch_protocol(std::string_view provider,
                                                   const std::string& base_url,
                                                   const HttpRequest& call, BatchSend send,
                                                   BatchRedact redact) {
  const ProviderParts* parts = provider_parts(provider);
  if (parts == nullptr || parts->batches == nullptr) return nullptr;
  BatchSetup setup{.base_url = base_url,
                   .call_url = call.url,
                   .headers = {},
                   .send = std::move(send),
                   .redact = std::move(redact)};
  for (const auto& header : call.headers) {
    if (header.first != "content-type") setup.headers.push_back(header);
  }
  return parts->batches(setup);
}

}  // namespace accord::detail
