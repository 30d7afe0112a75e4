#include "batches.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace accord_mock {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the real APIs send them

constexpr std::int64_t kDaySeconds = 24 * 60 * 60;

RenderedReply openai_error(int status, const std::string& message, std::uint64_t serial) {
  return render_error(Endpoint::chat_completions, status, {{"message", message}}, serial);
}

RenderedReply anthropic_error(int status, const std::string& message, std::uint64_t serial) {
  return render_error(Endpoint::messages, status, {{"message", message}}, serial);
}

std::optional<Endpoint> openai_endpoint(const std::string& url) {
  if (url == "/v1/chat/completions") return Endpoint::chat_completions;
  if (url == "/v1/responses") return Endpoint::responses;
  return std::nullopt;
}

}  // namespace

RenderedReply json_reply(const json& document, int status) {
  RenderedReply out;
  out.status = status;
  out.body = document.dump(-1, ' ', false, json::error_handler_t::replace);
  return out;
}

std::string iso_time(std::int64_t seconds) {
  const std::time_t t = seconds;
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

// A body that is not JSON stays a string.
json body_value(const std::string& body) {
  auto parsed = json::parse(body, nullptr, false);
  return parsed.is_discarded() ? json(body) : parsed;
}

std::size_t done_after(std::size_t total, int polls, int polls_to_end) {
  if (polls >= polls_to_end) return total;
  return total * static_cast<std::size_t>(polls) / static_cast<std::size_t>(polls_to_end);
}

BatchCounts batch_counts(const std::vector<BatchOutcome>& outcomes, int polls, int polls_to_end,
                         bool cancelled) {
  std::size_t failed = 0;
  for (const auto& outcome : outcomes)
    failed += (!outcome.reply || outcome.reply->status / 100 != 2) ? 1 : 0;
  const std::size_t total = outcomes.size();
  const bool done = cancelled || polls >= polls_to_end;
  return {.total = total,
          .finished = cancelled ? 0 : done_after(total, polls, polls_to_end),
          .failed = done ? failed : 0};
}

BatchOutcome answer_batch_item(ReplyQueue& queue, Endpoint endpoint, std::string custom_id,
                               const nlohmann::json& body, std::uint64_t serial) {
  const Reply reply = queue.next();
  if (reply.batch_missing) return {std::move(custom_id), std::nullopt, true};
  if (reply.batch_expired) return {std::move(custom_id), std::nullopt};
  // delay_ms, drop and the other connection faults belong to a direct call's HTTP exchange; a
  // batch item has none.
  return {std::move(custom_id), render_reply(endpoint, reply, body, body.dump().size(), serial)};
}

BatchStore::Outcome BatchStore::answer(Endpoint endpoint, std::string custom_id,
                                       const nlohmann::json& body) {
  return answer_batch_item(queue_, endpoint, std::move(custom_id), body, next_serial_());
}

std::string BatchStore::store_file(const std::string& filename, const std::string& purpose,
                                   std::string content) {
  File file{serial_id("file-", next_serial_()), filename, purpose, std::move(content),
            now_seconds()};
  const std::string id = file.id;
  files_.emplace(id, std::move(file));
  return id;
}

RenderedReply BatchStore::upload_file(const std::string& filename, const std::string& purpose,
                                      std::string content) {
  std::lock_guard lock(mutex_);
  if (purpose != "batch") {
    return openai_error(400, "accord-mock stores files with purpose \"batch\" only",
                        next_serial_());
  }
  const std::size_t bytes = content.size();
  const std::string id = store_file(filename, purpose, std::move(content));
  const File& file = files_.at(id);
  return json_reply({{"id", id},
                     {"object", "file"},
                     {"bytes", bytes},
                     {"created_at", file.created_at},
                     {"filename", filename},
                     {"purpose", purpose}});
}

RenderedReply BatchStore::file_content(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto found = files_.find(id);
  if (found == files_.end()) return openai_error(404, "No such File object: " + id, next_serial_());
  RenderedReply out;
  out.content_type = "application/octet-stream";
  out.body = found->second.content;
  return out;
}

RenderedReply BatchStore::create_openai(const std::string& body, bool azure) {
  std::lock_guard lock(mutex_);
  const auto request = nlohmann::json::parse(body, nullptr, false);
  if (!request.is_object() || !request.contains("input_file_id") ||
      !request["input_file_id"].is_string() || !request.contains("endpoint") ||
      request.value("completion_window", "") != "24h") {
    return openai_error(400, "input_file_id, endpoint and completion_window \"24h\" are required",
                        next_serial_());
  }
  const std::string file_id = request["input_file_id"];
  const auto file = files_.find(file_id);
  if (file == files_.end())
    return openai_error(404, "No such File object: " + file_id, next_serial_());
  const std::string endpoint = request.value("endpoint", "");
  // Azure names the endpoint without /v1, and its batch items are Azure's replies.
  const auto rendered =
      azure ? (endpoint == "/chat/completions" ? std::optional(Endpoint::azure_chat_completions)
                                               : std::nullopt)
            : openai_endpoint(endpoint);
  if (!rendered) {
    return openai_error(400,
                        azure ? "accord-mock batches /chat/completions only on Azure"
                              : "accord-mock batches /v1/chat/completions and /v1/responses only",
                        next_serial_());
  }
  Batch batch = new_batch("batch_");
  batch.endpoint = endpoint;
  batch.input_file_id = file_id;
  read_input(batch, file->second.content, endpoint, *rendered);
  const std::string id = batch.id;
  auto& stored = batches_.emplace(id, std::move(batch)).first->second;
  auto document = openai_object(stored);
  document["status"] = "validating";
  return json_reply(document);
}

BatchStore::Batch BatchStore::new_batch(const char* id_prefix) {
  Batch batch;
  batch.id = serial_id(id_prefix, next_serial_());
  batch.created_at = now_seconds();
  batch.polls_to_end = queue_.batch_polls();
  batch.failures_left = queue_.batch_poll_failures();
  return batch;
}

void BatchStore::read_input(Batch& batch, const std::string& content,
                            const std::optional<std::string>& url, Endpoint endpoint) {
  // Like the real API: a bad input file fails the whole batch at validation, before any item runs.
  json errors = json::array();
  std::vector<std::pair<std::string, nlohmann::json>> items;
  std::set<std::string> ids;
  std::istringstream lines(content);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (line.empty()) continue;
    const auto item = nlohmann::json::parse(line, nullptr, false);
    std::string problem;
    if (!item.is_object() || !item.contains("custom_id") || !item["custom_id"].is_string()) {
      problem = "each line needs a string custom_id";
    } else if (!ids.insert(item["custom_id"].get<std::string>()).second) {
      problem = "custom_id " + item["custom_id"].get<std::string>() + " is used twice";
    } else if (url && (item.value("method", "") != "POST" || item.value("url", "") != *url)) {
      problem = "method must be POST and url the batch's endpoint " + *url;
    } else if (!item.contains("body") || !item["body"].is_object()) {
      problem = "body must be an object";
    }
    if (!problem.empty()) {
      errors.push_back({{"code", "invalid_request"},
                        {"line", number},
                        {"message", problem},
                        {"param", nullptr}});
      continue;
    }
    items.emplace_back(item["custom_id"].get<std::string>(), item["body"]);
  }
  if (errors.empty() && items.empty()) {
    errors.push_back({{"code", "empty_file"},
                      {"line", nullptr},
                      {"message", "The input file has no requests."},
                      {"param", nullptr}});
  }
  if (errors.empty()) {
    for (auto& [custom_id, item_body] : items)
      batch.outcomes.push_back(answer(endpoint, custom_id, item_body));
  } else {
    batch.errors = {{"object", "list"}, {"data", errors}};
  }
}

void BatchStore::write_openai_results(Batch& batch) {
  if (batch.results_written) return;
  batch.results_written = true;
  std::string output;
  std::string errors;
  for (const auto& outcome : batch.outcomes) {
    if (outcome.missing) continue;
    json line = {{"id", serial_id("batch_req_", next_serial_())}, {"custom_id", outcome.custom_id}};
    if (!outcome.reply) {
      line["response"] = nullptr;
      line["error"] = {
          {"code", "batch_expired"},
          {"message", "This request could not be executed before the completion window expired."}};
    } else {
      line["response"] = {{"status_code", outcome.reply->status},
                          {"request_id", serial_id("req_", next_serial_())},
                          {"body", body_value(outcome.reply->body)}};
      line["error"] = nullptr;
    }
    const bool succeeded = outcome.reply && outcome.reply->status / 100 == 2;
    (succeeded ? output : errors) +=
        line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  }
  if (!output.empty())
    batch.output_file_id = store_file("batch_output.jsonl", "batch_output", output);
  if (!errors.empty())
    batch.error_file_id = store_file("batch_errors.jsonl", "batch_output", errors);
}

json BatchStore::openai_object(Batch& batch) {
  const bool done = ended(batch);
  std::string status = "in_progress";
  if (!batch.errors.is_null()) {
    status = "failed";
  } else if (batch.cancelled) {
    status = "cancelled";
  } else if (done) {
    status = "completed";
    write_openai_results(batch);
  }
  const auto [total, finished, failed_so_far] =
      batch_counts(batch.outcomes, batch.polls, batch.polls_to_end, batch.cancelled);
  const auto at = [&](bool when) { return when ? json(now_seconds()) : json(nullptr); };
  return {
      {"id", batch.id},
      {"object", "batch"},
      {"endpoint", batch.endpoint},
      {"errors", batch.errors},
      {"input_file_id", batch.input_file_id},
      {"completion_window", "24h"},
      {"status", status},
      {"output_file_id", batch.output_file_id.empty() ? json(nullptr) : json(batch.output_file_id)},
      {"error_file_id", batch.error_file_id.empty() ? json(nullptr) : json(batch.error_file_id)},
      {"created_at", batch.created_at},
      {"in_progress_at", at(status != "failed")},
      {"expires_at", batch.created_at + kDaySeconds},
      {"finalizing_at", at(status == "completed")},
      {"completed_at", at(status == "completed")},
      {"failed_at", at(status == "failed")},
      {"expired_at", nullptr},
      {"cancelling_at", at(batch.cancelled)},
      {"cancelled_at", at(batch.cancelled)},
      {"request_counts",
       {{"total", total},
        {"completed", finished - std::min(finished, failed_so_far)},
        {"failed", failed_so_far}}},
      {"metadata", nullptr}};
}

RenderedReply BatchStore::retrieve_openai(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto found = batches_.find(id);
  if (found == batches_.end() || found->second.anthropic || found->second.mistral)
    return openai_error(404, "No such Batch object: " + id, next_serial_());
  if (found->second.failures_left > 0) {
    --found->second.failures_left;
    return render_error(Endpoint::chat_completions, 503, {}, next_serial_());
  }
  ++found->second.polls;
  return json_reply(openai_object(found->second));
}

RenderedReply BatchStore::cancel_openai(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto found = batches_.find(id);
  if (found == batches_.end() || found->second.anthropic || found->second.mistral)
    return openai_error(404, "No such Batch object: " + id, next_serial_());
  if (!ended(found->second)) found->second.cancelled = true;
  return json_reply(openai_object(found->second));
}

namespace {
// Anthropic's rule for custom_id: 1 to 64 of [a-zA-Z0-9_-]. A loop, not std::regex, whose
// internals g++ 12 flags as maybe-uninitialized under ASan at -O1.
bool is_custom_id(const std::string& id) {
  return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}
}  // namespace

RenderedReply BatchStore::create_anthropic(const std::string& body, const std::string& origin) {
  std::lock_guard lock(mutex_);
  const auto request = nlohmann::json::parse(body, nullptr, false);
  if (!request.is_object() || !request.contains("requests") || !request["requests"].is_array() ||
      request["requests"].empty()) {
    return anthropic_error(400, "requests: a non-empty array is required", next_serial_());
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < request["requests"].size(); ++i) {
    const auto& item = request["requests"][i];
    const auto where = "requests." + std::to_string(i);
    if (!item.is_object() || !item.contains("custom_id") || !item["custom_id"].is_string() ||
        !is_custom_id(item["custom_id"].get<std::string>())) {
      return anthropic_error(400, where + ".custom_id: must match ^[a-zA-Z0-9_-]{1,64}$",
                             next_serial_());
    }
    if (!ids.insert(item["custom_id"].get<std::string>()).second)
      return anthropic_error(400, where + ".custom_id: must be unique", next_serial_());
    if (!item.contains("params") || !item["params"].is_object())
      return anthropic_error(400, where + ".params: an object is required", next_serial_());
  }
  Batch batch = new_batch("msgbatch_");
  batch.anthropic = true;
  for (const auto& item : request["requests"])
    batch.outcomes.push_back(answer(Endpoint::messages, item["custom_id"], item["params"]));
  const std::string id = batch.id;
  const auto& stored = batches_.emplace(id, std::move(batch)).first->second;
  return json_reply(anthropic_object(stored, origin));
}

json BatchStore::anthropic_object(const Batch& batch, const std::string& origin) const {
  const bool done = ended(batch);
  std::size_t succeeded = 0, errored = 0, expired = 0;
  for (const auto& outcome : batch.outcomes) {
    if (!outcome.reply) {
      ++expired;
    } else if (outcome.reply->status / 100 == 2) {
      ++succeeded;
    } else {
      ++errored;
    }
  }
  const std::size_t total = batch.outcomes.size();
  json counts = {
      {"processing", total}, {"succeeded", 0}, {"errored", 0}, {"canceled", 0}, {"expired", 0}};
  if (batch.cancelled) {
    counts = {
        {"processing", 0}, {"succeeded", 0}, {"errored", 0}, {"canceled", total}, {"expired", 0}};
  } else if (done) {
    counts = {{"processing", 0},
              {"succeeded", succeeded},
              {"errored", errored},
              {"canceled", 0},
              {"expired", expired}};
  } else {
    // Partway: the finished ones reported as succeeded, the rest still processing.
    const std::size_t finished = done_after(total, batch.polls, batch.polls_to_end);
    counts["processing"] = total - finished;
    counts["succeeded"] = finished;
  }
  const auto now = now_seconds();
  return {{"id", batch.id},
          {"type", "message_batch"},
          {"processing_status", done ? "ended" : "in_progress"},
          {"request_counts", counts},
          {"ended_at", done ? json(iso_time(now)) : json(nullptr)},
          {"created_at", iso_time(batch.created_at)},
          {"expires_at", iso_time(batch.created_at + kDaySeconds)},
          {"archived_at", nullptr},
          {"cancel_initiated_at", batch.cancelled ? json(iso_time(now)) : json(nullptr)},
          {"results_url",
           done ? json(origin + "/v1/messages/batches/" + batch.id + "/results") : json(nullptr)}};
}

RenderedReply BatchStore::retrieve_anthropic(const std::string& id, const std::string& origin) {
  std::lock_guard lock(mutex_);
  const auto found = batches_.find(id);
  if (found == batches_.end() || !found->second.anthropic)
    return anthropic_error(404, "No such batch: " + id, next_serial_());
  if (found->second.failures_left > 0) {
    --found->second.failures_left;
    return render_error(Endpoint::messages, 503, {}, next_serial_());
  }
  ++found->second.polls;
  return json_reply(anthropic_object(found->second, origin));
}

RenderedReply BatchStore::cancel_anthropic(const std::string& id, const std::string& origin) {
  std::lock_guard lock(mutex_);
  const auto found = batches_.find(id);
  if (found == batches_.end() || !found->second.anthropic)
    return anthropic_error(404, "No such batch: " + id, next_serial_());
  if (!ended(found->second)) found->second.cancelled = true;
  return json_reply(anthropic_object(found->second, origin));
}

RenderedReply BatchStore::anthropic_results(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto found = batches_.find(id);
  if (found == batches_.end() || !found->second.anthropic)
    return anthropic_error(404, "No such batch: " + id, next_serial_());
  const Batch& batch = found->second;
  if (!ended(batch)) {
    return anthropic_error(404, "Batch " + id + " has not ended; its results are not ready",
                           next_serial_());
  }
  std::string lines;
  for (const auto& outcome : batch.outcomes) {
    if (outcome.missing) continue;
    json result;
    if (batch.cancelled) {
      result = {{"type", "canceled"}};
    } else if (!outcome.reply) {
      result = {{"type", "expired"}};
    } else if (outcome.reply->status / 100 == 2) {
      result = {{"type", "succeeded"}, {"message", body_value(outcome.reply->body)}};
    } else {
      result = {{"type", "errored"}, {"error", body_value(outcome.reply->body)}};
    }
    lines += json{{"custom_id", outcome.custom_id}, {"result", result}}.dump(
                 -1, ' ', false, json::error_handler_t::replace) +
             "\n";
  }
  RenderedReply out;
  out.content_type = "application/binary";
  out.body = std::move(lines);
  return out;
}

}  // namespace accord_mock
