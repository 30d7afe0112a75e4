#include "bedrock_shape.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <map>

#include "core/aws_event_stream.hpp"
#include "render_parts.hpp"
#include "stream.hpp"

namespace accord_mock {
namespace {

using json = nlohmann::ordered_json;  // keys in the order Bedrock sends them
using request_json = nlohmann::json;

// The tool toolConfig.toolChoice.tool names, if any (or the only tool under `any`).
std::optional<std::string> forced_tool(const request_json& request) {
  const auto* config = member(request, "toolConfig");
  const auto* choice = config != nullptr ? member(*config, "toolChoice") : nullptr;
  if (choice == nullptr) return std::nullopt;
  if (const auto* tool = member(*choice, "tool")) return string_member(*tool, "name");
  const auto* tools = member(*config, "tools");
  if (member(*choice, "any") != nullptr && tools != nullptr && tools->is_array() &&
      tools->size() == 1) {
    if (const auto* spec = member((*tools)[0], "toolSpec")) return string_member(*spec, "name");
  }
  return std::nullopt;
}

struct AwsError {
  const char* type;
  const char* message;
};

// Bedrock Runtime's exceptions by status (its API reference, "Errors").
AwsError aws_error(int status) {
  switch (status) {
    case 400:
      return {"ValidationException", "Invalid request."};
    case 401:
      return {"UnrecognizedClientException", "Incorrect API key provided."};
    case 403:
      return {"AccessDeniedException",
              "You don't have access to the model with the specified model ID."};
    case 404:
      return {"ResourceNotFoundException", "The requested resource was not found."};
    case 408:
      return {"ModelTimeoutException", "The model took too long to respond."};
    case 424:
      return {"ModelErrorException", "The model returned an error."};
    case 429:
      return {"ThrottlingException",
              "Rate limit reached: too many requests, please wait before trying again."};
    case 500:
      return {"InternalServerException", "The server had an error while processing your request."};
    case 503:
      return {"ServiceUnavailableException", "The service is temporarily unavailable."};
    default:
      return status >= 500 ? AwsError{"InternalServerException", "Server error."}
                           : AwsError{"ValidationException", "Request failed."};
  }
}

RenderedReply error_reply(int status, const char* type, json body, std::uint64_t serial) {
  RenderedReply out;
  out.status = status;
  out.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  out.headers.emplace_back("x-amzn-requestid", serial_id("req_", serial));
  out.headers.emplace_back(
      "x-amzn-ErrorType",
      std::string(type) + ":http://internal.amazon.com/coral/com.amazon.bedrock/");
  return out;
}

// ---- SigV4 --------------------------------------------------------------------------------------

std::string hex(const unsigned char* bytes, std::size_t size) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < size; ++i) out += {kHex[bytes[i] >> 4], kHex[bytes[i] & 0xF]};
  return out;
}

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, 32> digest{};
  std::size_t size = 0;
  EVP_Q_digest(nullptr, "SHA256", nullptr, data.data(), data.size(), digest.data(), &size);
  return hex(digest.data(), size);
}

std::string hmac(std::string_view key, std::string_view data) {
  std::array<unsigned char, 32> mac{};
  std::size_t size = 0;
  EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key.data(), key.size(),
            reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac.data(),
            mac.size(), &size);
  return std::string(reinterpret_cast<const char*>(mac.data()), size);
}

// Each byte but the unreserved ones (and '/') percent-encoded: AWS encodes the path as received
// once more for every service but S3, so a model id's %3A is signed as %253A.
std::string uri_encode_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out.push_back(c);
    } else {
      out += {'%', kHex[u >> 4], kHex[u & 0xF]};
    }
  }
  return out;
}

std::string trimmed(std::string_view value) {
  const auto first = value.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = value.find_last_not_of(" \t");
  std::string out;
  bool space = false;
  for (const char c : value.substr(first, last - first + 1)) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

// The Authorization header's Credential, SignedHeaders and Signature.
std::map<std::string, std::string> authorization_fields(std::string_view value) {
  std::map<std::string, std::string> out;
  value.remove_prefix(std::min(value.size(), value.find(' ') + 1));
  while (!value.empty()) {
    const auto comma = value.find(',');
    auto part = value.substr(0, comma);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    if (const auto eq = part.find('='); eq != std::string_view::npos) {
      out.emplace(std::string(part.substr(0, eq)), std::string(part.substr(eq + 1)));
    }
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return out;
}

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

RenderedReply signature_refused(const char* type, const std::string& message,
                                std::uint64_t serial) {
  return error_reply(403, type, json{{"message", message}}, serial);
}

// ---- ConverseStream -----------------------------------------------------------------------------

std::string event(const char* type, const json& payload) {
  return accord::detail::aws_event_stream_message(
      {{":event-type", type}, {":content-type", "application/json"}, {":message-type", "event"}},
      payload.dump(-1, ' ', false, json::error_handler_t::replace));
}

}  // namespace

RenderedReply render_converse(const Reply& reply, const request_json& request,
                              std::size_t request_bytes, std::uint64_t serial) {
  Splicer splicer;
  const auto forced = forced_tool(request);
  json content = json::array();
  std::string stop_reason = "end_turn";
  const auto text_block = [&](const std::string& text) {
    return json{{"text", splicer.string(payload_text(reply, text))}};
  };
  const auto said = reply_content(reply, forced, "tooluse_", serial);
  for (auto& c : said.calls) {
    content.push_back(
        {{"toolUse",
          {{"toolUseId", c.id}, {"name", c.name}, {"input", splicer.raw(c.input_json)}}}});
  }
  if (said.text) content.push_back(text_block(*said.text));
  if (said.calls_tool) {
    stop_reason = "tool_use";
  } else if (reply.kind == ReplyKind::refusal) {
    // Bedrock has no refusal reason: the model's declining words come content_filtered.
    content.push_back(text_block(reply.text));
    stop_reason = "content_filtered";
  } else if (reply.kind == ReplyKind::truncated) {
    stop_reason = "max_tokens";
  } else if (reply.kind == ReplyKind::content_filter) {
    // A guardrail's intervention; its text, when given, is the guardrail's blocked message.
    stop_reason = "guardrail_intervened";
  }
  const auto input = tokens_for(request_bytes);
  const auto produced = reply.kind == ReplyKind::empty ? 0 : tokens_for(content_bytes(reply));
  json usage = {{"inputTokens", input},
                {"outputTokens", produced},
                {"totalTokens", input + produced},
                {"cacheReadInputTokens", 0},
                {"cacheWriteInputTokens", 0}};
  if (reply.usage.is_object()) usage.merge_patch(json(reply.usage));
  const json document = {
      {"output", {{"message", {{"role", "assistant"}, {"content", std::move(content)}}}}},
      {"stopReason", stop_reason},
      {"usage", std::move(usage)},
      {"metrics", {{"latencyMs", 1}}}};
  RenderedReply out;
  out.body = splicer.serialise(document);
  out.headers.emplace_back("x-amzn-requestid", serial_id("req_", serial));
  for (const auto& h : reply.headers) out.headers.push_back(h);
  return out;
}

RenderedReply render_bedrock_error(int status, const request_json& fields, std::uint64_t serial) {
  const auto d = aws_error(status);
  json body = {{"message", d.message}};
  if (fields.is_object()) body.update(json(fields));  // a null value stays null
  return error_reply(status, d.type, std::move(body), serial);
}

std::vector<std::string> converse_stream_events(const request_json& body, std::size_t chunk_chars) {
  std::vector<std::string> out;
  out.push_back(event("messageStart", {{"role", "assistant"}}));
  const auto& blocks = body.at("output").at("message").at("content");
  const std::size_t size = std::max<std::size_t>(1, chunk_chars);
  for (std::size_t index = 0; index < blocks.size(); ++index) {
    const auto& block = blocks[index];
    if (const auto* use = member(block, "toolUse")) {
      out.push_back(event(
          "contentBlockStart",
          {{"start",
            {{"toolUse",
              {{"toolUseId", use->value("toolUseId", "")}, {"name", use->value("name", "")}}}}},
           {"contentBlockIndex", index}}));
      for (auto& piece : pieces(use->value("input", request_json::object()).dump(), size)) {
        out.push_back(event("contentBlockDelta", {{"delta", {{"toolUse", {{"input", piece}}}}},
                                                  {"contentBlockIndex", index}}));
      }
    } else {
      for (auto& piece : pieces(block.value("text", ""), size)) {
        out.push_back(event("contentBlockDelta",
                            {{"delta", {{"text", piece}}}, {"contentBlockIndex", index}}));
      }
    }
    out.push_back(event("contentBlockStop", {{"contentBlockIndex", index}}));
  }
  out.push_back(event("messageStop", {{"stopReason", body.value("stopReason", "end_turn")}}));
  out.push_back(event("metadata", {{"usage", body.value("usage", request_json::object())},
                                   {"metrics", {{"latencyMs", 1}}}}));
  return out;
}

std::string malformed_converse_event() {
  return accord::detail::aws_event_stream_message(
      {{":event-type", "contentBlockDelta"}, {":message-type", "event"}}, "{\"delta\": ");
}

std::optional<RenderedReply> refused_signature(const SignedRequest& request, std::uint64_t serial) {
  const auto header = [&](std::string_view name) -> std::optional<std::string> {
    for (const auto& [key, value] : request.headers) {
      if (lower(key) == name) return value;
    }
    return std::nullopt;
  };
  const auto authorization = header("authorization");
  if (!authorization || !authorization->starts_with("AWS4-HMAC-SHA256 ")) return std::nullopt;
  auto fields = authorization_fields(*authorization);
  // Credential=AKID/yyyymmdd/region/service/aws4_request
  const std::string& credential = fields["Credential"];
  const auto slash = credential.find('/');
  const std::string key_id = credential.substr(0, slash);
  const std::string scope = slash == std::string::npos ? "" : credential.substr(slash + 1);
  if (key_id != kMockAccessKeyId) {
    return signature_refused("UnrecognizedClientException",
                             "The security token included in the request is invalid.", serial);
  }
  std::vector<std::string> scope_parts;
  for (std::size_t from = 0; from <= scope.size();) {
    const auto to = std::min(scope.find('/', from), scope.size());
    scope_parts.push_back(scope.substr(from, to - from));
    from = to + 1;
  }
  const auto date = header("x-amz-date").value_or("");
  if (scope_parts.size() != 4 || scope_parts[3] != "aws4_request" || date.size() < 8 ||
      date.substr(0, 8) != scope_parts[0]) {
    return signature_refused("IncompleteSignatureException",
                             "Credential should be scoped to a valid date, region and service.",
                             serial);
  }
  const auto q = request.target.find('?');
  const std::string path = request.target.substr(0, q);
  std::vector<std::string> query;
  if (q != std::string::npos) {
    const std::string text = request.target.substr(q + 1);
    for (std::size_t from = 0; from <= text.size();) {
      const auto to = std::min(text.find('&', from), text.size());
      if (to > from)
        query.push_back(text.substr(from, to - from) + (text.find('=', from) < to ? "" : "="));
      from = to + 1;
    }
    std::sort(query.begin(), query.end());
  }
  std::string canonical_query;
  for (const auto& pair : query) canonical_query += (canonical_query.empty() ? "" : "&") + pair;
  std::string canonical_headers;
  const std::string& signed_headers = fields["SignedHeaders"];
  for (std::size_t from = 0; from <= signed_headers.size();) {
    const auto to = std::min(signed_headers.find(';', from), signed_headers.size());
    const std::string name = signed_headers.substr(from, to - from);
    canonical_headers += name + ":" + trimmed(header(name).value_or("")) + "\n";
    from = to + 1;
  }
  const std::string canonical_request =
      request.method + "\n" + uri_encode_path(path) + "\n" + canonical_query + "\n" +
      canonical_headers + "\n" + signed_headers + "\n" +
      header("x-amz-content-sha256").value_or(sha256_hex(request.body));
  const std::string string_to_sign =
      "AWS4-HMAC-SHA256\n" + date + "\n" + scope + "\n" + sha256_hex(canonical_request);
  std::string key = hmac(std::string("AWS4") + kMockSecretAccessKey, scope_parts[0]);
  for (std::size_t i = 1; i < 4; ++i) key = hmac(key, scope_parts[i]);
  const std::string mac = hmac(key, string_to_sign);
  if (hex(reinterpret_cast<const unsigned char*>(mac.data()), mac.size()) != fields["Signature"]) {
    return signature_refused(
        "InvalidSignatureException",
        "The request signature we calculated does not match the signature you provided. Check "
        "your AWS Secret Access Key and signing method. The canonical request was:\n" +
            canonical_request,
        serial);
  }
  return std::nullopt;
}

}  // namespace accord_mock
