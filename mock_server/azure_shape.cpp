#include "azure_shape.hpp"

namespace accord_mock {
namespace {

using json = nlohmann::ordered_json;

// The four harm categories every annotation carries, each safe unless `filtered` names it.
json filter_results(const char* filtered = nullptr) {
  json results = json::object();
  for (const char* category : {"hate", "self_harm", "sexual", "violence"}) {
    const bool hit = filtered != nullptr && std::string_view(category) == filtered;
    results[category] = {{"filtered", hit}, {"severity", hit ? "high" : "safe"}};
  }
  return results;
}

json prompt_filter_results() {
  return json::array({{{"prompt_index", 0}, {"content_filter_results", filter_results()}}});
}

RenderedReply azure_error(int status, const char* message, std::uint64_t serial) {
  RenderedReply out;
  out.status = status;
  // Azure's gateway errors carry the status as a string code and no type.
  out.body = json{{"error", {{"code", std::to_string(status)}, {"message", message}}}}.dump();
  out.headers.emplace_back("apim-request-id", serial_id("req_", serial));
  return out;
}

}  // namespace

std::optional<RenderedReply> azure_refusal(bool deployment_url, bool has_api_version,
                                           bool has_credential, std::uint64_t serial) {
  if (deployment_url && !has_api_version) return azure_error(404, "Resource not found", serial);
  if (!has_credential) {
    return azure_error(401, "Access denied: send an api-key header or a bearer token.", serial);
  }
  return std::nullopt;
}

RenderedReply with_azure_annotations(RenderedReply reply, ReplyKind kind) {
  auto body = json::parse(reply.body, nullptr, false);
  if (body.is_discarded() || !body.is_object() || !body.contains("choices") ||
      !body["choices"].is_array())
    return reply;
  json annotated = json::object();
  for (auto& [key, value] : body.items()) {
    if (key == "choices") annotated["prompt_filter_results"] = prompt_filter_results();
    annotated[key] = std::move(value);
  }
  for (auto& choice : annotated["choices"]) {
    choice["content_filter_results"] =
        filter_results(kind == ReplyKind::content_filter ? "violence" : nullptr);
  }
  reply.body = annotated.dump();
  return reply;
}

std::vector<std::string> with_prompt_filter_chunk(std::vector<std::string> events) {
  const json chunk = {{"choices", json::array()},
                      {"created", 0},
                      {"id", ""},
                      {"model", ""},
                      {"object", ""},
                      {"prompt_filter_results", prompt_filter_results()}};
  events.insert(events.begin(), "data: " + chunk.dump() + "\n\n");
  return events;
}

}  // namespace accord_mock
