#include "loop/batch_protocol.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <utility>

#include "accord/batch.hpp"
#include "accord/redaction.hpp"
#include "core/line_reader.hpp"
#include "transport/url_origin.hpp"

namespace accord::detail {
namespace {

using nlohmann::ordered_json;

// The body of a batch API reply as JSON; a body that is not is the provider breaking its protocol.
ordered_json parse_reply(const HttpResponse& response, std::string_view what) {
  auto parsed = ordered_json::parse(response.body, nullptr, false);
  if (!parsed.is_object())
    throw BatchFailure(fmt::format("the {} reply is not a JSON object", what));
  return parsed;
}

std::string string_at(const ordered_json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::size_t count_at(const ordered_json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_number_unsigned() ? found->get<std::size_t>() : 0;
}

// An answer's body as the provider's own reply would carry it.
std::string body_text(const ordered_json& body) {
  return body.is_string() ? body.get<std::string>() : body.dump();
}

class OpenAiBatches final : public BatchProtocol {
 public:
  OpenAiBatches(std::string base_url, Headers headers, BatchSend send, BatchRedact redact)
      : BatchProtocol(base_url, std::move(headers), std::move(send), std::move(redact)),
        base_url_(std::move(base_url)) {}

  BatchState submit(const std::vector<BatchItem>& items) override {
    // Every item goes to one endpoint: the batch names it, and each line repeats it.
    const std::string endpoint = "/v1" + items.front().request->url.substr(base_url_.size());
    std::string jsonl;
    for (const auto& item : items) {
      const ordered_json line = {{"custom_id", item.custom_id},
                                 {"method", "POST"},
                                 {"url", endpoint},
                                 {"body", ordered_json::parse(item.request->body)}};
      jsonl += line.dump() + "\n";
    }
    const auto file = parse_reply(upload(jsonl), "file upload");
    const ordered_json create = {{"input_file_id", string_at(file, "id")},
                                 {"endpoint", endpoint},
                                 {"completion_window", "24h"}};
    return state(parse_reply(post(base_url_ + "/batches", "application/json", create.dump()),
                             "batch creation"));
  }

  BatchState poll(const std::string& id) override {
    return state(parse_reply(get(base_url_ + "/batches/" + id), "batch status"));
  }

  BatchState cancel(const std::string& id) override {
    return state(parse_reply(
        post(base_url_ + "/batches/" + id + "/cancel", "application/json", "{}"), "batch cancel"));
  }

  BatchAnswer answer_in(const ordered_json& line) const override {
    BatchAnswer answer;
    const auto response = line.find("response");
    if (response != line.end() && response->is_object()) {
      const auto status = response->find("status_code");
      if (status != response->end() && status->is_number_integer()) {
        const auto body = response->find("body");
        answer.response = HttpResponse{
            status->get<long>(), {}, body_text(body == response->end() ? ordered_json() : *body)};
        return answer;
      }
    }
    const auto error = line.find("error");
    if (error != line.end() && error->is_object()) {
      answer.unanswered = string_at(*error, "code") + ": " + string_at(*error, "message");
    } else if (error != line.end() && error->is_string()) {
      answer.unanswered = error->get<std::string>();
    } else {
      answer.unanswered = "no response";
    }
    return answer;
  }

 private:
  // multipart/form-data with `purpose` and the JSONL `file`, under a boundary absent from it.
  [[nodiscard]] HttpResponse upload(const std::string& jsonl) const {
    std::random_device random;
    std::string boundary;
    do {
      boundary = fmt::format("accord-batch-{:08x}{:08x}", random(), random());
    } while (jsonl.find(boundary) != std::string::npos);
    std::string body = fmt::format(
        "--{0}\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n"
        "--{0}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"batch.jsonl\"\r\n"
        "Content-Type: application/jsonl\r\n\r\n",
        boundary);
    body += jsonl;
    body += fmt::format("\r\n--{}--\r\n", boundary);
    return post(base_url_ + "/files", "multipart/form-data; boundary=" + boundary, std::move(body));
  }

  [[nodiscard]] BatchState state(const ordered_json& batch) const {
    BatchState state{.id = string_at(batch, "id"), .status = string_at(batch, "status")};
    if (state.id.empty()) throw BatchFailure("the batch reply has no id");
    // failed: the input was rejected; completed, expired, cancelled: results may be partial.
    static constexpr std::array kEnded = {"failed", "completed", "expired", "cancelled"};
    for (const char* word : kEnded) state.ended = state.ended || state.status == word;
    const auto counts = batch.value("request_counts", ordered_json::object());
    state.failed = count_at(counts, "failed");
    state.finished = count_at(counts, "completed") + state.failed;
    if (state.status == "failed") {
      state.failure = "the batch failed validation";
      const auto errors = batch.value("errors", ordered_json::object());
      if (errors.is_object() && errors.contains("data") && errors["data"].is_array()) {
        for (const auto& error : errors["data"]) {
          if (error.is_object()) state.failure += "; " + string_at(error, "message");
        }
      }
    }
    for (const char* file : {"output_file_id", "error_file_id"}) {
      const std::string id = string_at(batch, file);
      if (state.ended && !id.empty())
        state.result_urls.push_back(base_url_ + "/files/" + id + "/content");
    }
    return state;
  }

  std::string base_url_;
};

// The HTTP status an errored batch result stands for, from its error type, so the reply decoder
// reads it as it would read the same error from a direct call.
long anthropic_status(const ordered_json& error) {
  static constexpr std::array<std::pair<std::string_view, long>, 7> kStatuses = {{
      {"invalid_request_error", 400},
      {"authentication_error", 401},
      {"permission_error", 403},
      {"not_found_error", 404},
      {"request_too_large", 413},
      {"rate_limit_error", 429},
      {"overloaded_error", 529},
  }};
  // An error of another shape (a string, an array) stands for a server error.
  const auto inner = error.is_object() ? error.find("error") : error.end();
  const std::string type =
      inner != error.end() && inner->is_object() ? string_at(*inner, "type") : "";
  for (const auto& [name, status] : kStatuses) {
    if (name == type) return status;
  }
  return 500;
}

class AnthropicBatches final : public BatchProtocol {
 public:
  AnthropicBatches(const std::string& messages_url, Headers headers, BatchSend send,
                   BatchRedact redact)
      : BatchProtocol(messages_url, std::move(headers), std::move(send), std::move(redact)),
        batches_url_(messages_url + "/batches") {}

  BatchState submit(const std::vector<BatchItem>& items) override {
    ordered_json requests = ordered_json::array();
    for (const auto& item : items) {
      requests.push_back(
          {{"custom_id", item.custom_id}, {"params", ordered_json::parse(item.request->body)}});
    }
    const ordered_json body = {{"requests", std::move(requests)}};
    return state(
        parse_reply(post(batches_url_, "application/json", body.dump()), "batch creation"));
  }

  BatchState poll(const std::string& id) override {
    return state(parse_reply(get(batches_url_ + "/" + id), "batch status"));
  }

  BatchState cancel(const std::string& id) override {
    return state(parse_reply(post(batches_url_ + "/" + id + "/cancel", "application/json", ""),
                             "batch cancel"));
  }

  BatchAnswer answer_in(const ordered_json& line) const override {
    const auto result = line.find("result");
    const bool object = result != line.end() && result->is_object();
    const std::string type = object ? string_at(*result, "type") : "";
    const auto member = [&](const char* key) {
      const auto found = result->find(key);
      return found == result->end() ? ordered_json() : *found;
    };
    BatchAnswer answer;
    if (type == "succeeded") {
      answer.response = HttpResponse{200, {}, body_text(member("message"))};
    } else if (type == "errored") {
      const auto error = member("error");
      answer.response = HttpResponse{anthropic_status(error), {}, body_text(error)};
    } else {
      answer.unanswered = type.empty() ? "no result" : type;  // expired, canceled
    }
    return answer;
  }

 private:
  [[nodiscard]] static BatchState state(const ordered_json& batch) {
    BatchState state{.id = string_at(batch, "id"), .status = string_at(batch, "processing_status")};
    if (state.id.empty()) throw BatchFailure("the batch reply has no id");
    state.ended = state.status == "ended";
    const auto counts = batch.value("request_counts", ordered_json::object());
    state.failed =
        count_at(counts, "errored") + count_at(counts, "canceled") + count_at(counts, "expired");
    state.finished = count_at(counts, "succeeded") + state.failed;
    const std::string results = string_at(batch, "results_url");
    if (state.ended && !results.empty()) state.result_urls.push_back(results);
    return state;
  }

  std::string batches_url_;
};

}  // namespace

namespace {

// The custom_id a result line names in its first bytes, for a line that cannot be read whole.
// Ours are plain ("item-12"), so a value with an escape is not ours.
std::string custom_id_in_head(std::string_view head) {
  constexpr std::string_view kKey = "\"custom_id\"";
  const auto at = head.find(kKey);
  if (at == std::string_view::npos) return {};
  head.remove_prefix(at + kKey.size());
  const auto skip_blanks = [&head] {
    head.remove_prefix(std::min(head.size(), head.find_first_not_of(" \t\r")));
  };
  skip_blanks();
  if (!head.starts_with(':')) return {};
  head.remove_prefix(1);
  skip_blanks();
  if (!head.starts_with('"')) return {};
  head.remove_prefix(1);
  const auto end = head.find_first_of("\"\\");
  if (end == std::string_view::npos || head[end] != '"') return {};
  return std::string(head.substr(0, end));
}

// Keeps the answer for `id` when it is one of ours not answered yet: a later line for the same
// item, or any line for an id never submitted, changes nothing.
void keep(BatchAnswers& answers, const std::string& id, BatchAnswer answer) {
  const auto found = answers.find(id);
  if (found != answers.end() && !found->second.read()) found->second = std::move(answer);
}

}  // namespace

void BatchProtocol::read_results(const std::string& url, BatchAnswers& answers,
                                 std::size_t max_line_bytes) const {
  const auto on_line = [&](std::string_view text) {
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) return;
    const std::string line_text = redact_(std::string(text));
    const auto line = ordered_json::parse(line_text, nullptr, false);
    const std::string id = line.is_object() ? string_at(line, "custom_id") : "";
    if (id.empty()) {
      keep(answers, custom_id_in_head(line_text),
           {std::nullopt, "its result line is not a JSON object with a custom_id"});
      return;
    }
    try {
      keep(answers, id, answer_in(line));
    } catch (const nlohmann::json::exception& e) {
      keep(answers, id,
           {std::nullopt,
            std::string("its result line has a shape accord does not read: ") + e.what()});
    }
  };
  const auto on_overlong = [&](std::string_view head) {
    keep(answers, custom_id_in_head(redact_(std::string(head))),
         {std::nullopt, fmt::format("its result line is over {} bytes, the most one line may take",
                                    max_line_bytes)});
  };
  auto reader = std::make_shared<LineReader>(max_line_bytes, on_line, on_overlong);
  HttpRequest request{url, headers_, ""};
  request.method = "GET";
  request.body_reader = reader;
  // A key goes to the configured origin only: a results file elsewhere (a pre-signed URL, or a
  // hostile provider's) is asked for without it.
  if (!same_origin(url, api_url_)) {
    const Headers redacted = redacted_headers(headers_);
    request.headers.clear();
    for (std::size_t i = 0; i < headers_.size(); ++i) {
      if (redacted[i].second == headers_[i].second) request.headers.push_back(headers_[i]);
    }
  }
  const HttpResponse response = send_(std::move(request));
  // A transport that does not stream hands the body over whole.
  if (reader->untouched()) (void)reader->read(response.body);
  reader->finish();
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

namespace {

enum class BatchApi { none, openai, anthropic };

// The one list of providers with a batch API: has_batch_api and make_batch_protocol read it.
BatchApi batch_api_of(std::string_view provider) {
  if (provider == "openai-chat" || provider == "openai-responses") return BatchApi::openai;
  if (provider == "anthropic") return BatchApi::anthropic;
  return BatchApi::none;
}

}  // namespace

std::unique_ptr<BatchProtocol> make_batch_protocol(std::string_view provider,
                                                   const std::string& base_url,
                                                   const HttpRequest& call, BatchSend send,
                                                   BatchRedact redact) {
  Headers headers;
  for (const auto& header : call.headers) {
    if (header.first != "content-type") headers.push_back(header);
  }
  switch (batch_api_of(provider)) {
    case BatchApi::openai:
      return std::make_unique<OpenAiBatches>(base_url, std::move(headers), std::move(send),
                                             std::move(redact));
    case BatchApi::anthropic:
      // Anthropic's batches live under the Messages URL, wherever the direct call goes.
      return std::make_unique<AnthropicBatches>(call.url, std::move(headers), std::move(send),
                                                std::move(redact));
    case BatchApi::none:
      break;
  }
  return nullptr;
}

}  // namespace accord::detail

namespace accord {

bool has_batch_api(std::string_view provider) {
  return detail::batch_api_of(provider) != detail::BatchApi::none;
}

}  // namespace accord
