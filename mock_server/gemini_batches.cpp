#include "gemini_batches.hpp"

#include <algorithm>

namespace accord_mock {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the real API sends them

constexpr const char* kTypes = "type.googleapis.com/google.ai.generativelanguage.v1main.";

// The google.rpc.Code an HTTP error status stands for (the inverse of the documented mapping).
int rpc_code(int status) {
  switch (status) {
    case 400:
      return 3;  // INVALID_ARGUMENT
    case 401:
      return 16;  // UNAUTHENTICATED
    case 403:
      return 7;  // PERMISSION_DENIED
    case 404:
      return 5;  // NOT_FOUND
    case 409:
      return 10;  // ABORTED
    case 429:
      return 8;  // RESOURCE_EXHAUSTED
    case 500:
      return 13;  // INTERNAL
    case 501:
      return 12;  // UNIMPLEMENTED
    case 503:
      return 14;  // UNAVAILABLE
    default:
      return 2;  // UNKNOWN
  }
}

// One item's entry in inlinedResponses: its response, or its error as a google.rpc.Status.
json inlined_response(const BatchOutcome& outcome, const nlohmann::json& metadata) {
  json entry = json::object();
  if (!outcome.reply) {
    entry["error"] = {{"code", 4},
                      {"message", "The batch expired before this request ran."},
                      {"status", "DEADLINE_EXCEEDED"}};
  } else if (outcome.reply->status / 100 == 2) {
    entry["response"] = body_value(outcome.reply->body);
  } else {
    const json body = body_value(outcome.reply->body);
    const json inner = body.is_object() && body.contains("error") && body["error"].is_object()
                           ? body["error"]
                           : json::object();
    entry["error"] = {{"code", rpc_code(outcome.reply->status)},
                      {"message", inner.value("message", "")},
                      {"status", inner.value("status", "UNKNOWN")}};
  }
  if (!metadata.is_null()) entry["metadata"] = metadata;
  return entry;
}

}  // namespace

RenderedReply GeminiBatches::error(int status, const std::string& message) {
  return render_error(Endpoint::gemini, status, {{"message", message}}, next_serial_());
}

RenderedReply GeminiBatches::create(const std::string& model, const std::string& body) {
  std::lock_guard lock(mutex_);
  const auto request = nlohmann::json::parse(body, nullptr, false);
  const auto batch_in = request.is_object() ? request.value("batch", nlohmann::json()) : nullptr;
  const auto input =
      batch_in.is_object() ? batch_in.value("inputConfig", nlohmann::json()) : nullptr;
  const auto inlined = input.is_object() ? input.value("requests", nlohmann::json()) : nullptr;
  const auto requests = inlined.is_object() ? inlined.value("requests", nlohmann::json()) : nullptr;
  if (!requests.is_array() || requests.empty()) {
    return error(400,
                 "batch.inputConfig.requests.requests: a non-empty array of requests is required "
                 "(accord-mock takes inline requests only)");
  }
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const auto& item = requests[i];
    if (!item.is_object() || !item.contains("request") || !item["request"].is_object()) {
      return error(400, "batch.inputConfig.requests.requests[" + std::to_string(i) +
                            "].request: a GenerateContentRequest object is required");
    }
    if (item.contains("metadata") && !item["metadata"].is_object())
      return error(400, "batch.inputConfig.requests.requests[" + std::to_string(i) +
                            "].metadata: must be an object");
  }
  Batch batch;
  batch.name = serial_id("batches/gemini-", next_serial_());
  batch.model = "models/" + model;
  batch.display_name = batch_in.value("displayName", "");
  batch.created_at = now_seconds();
  batch.polls_to_end = queue_.batch_polls();
  batch.failures_left = queue_.batch_poll_failures();
  for (const auto& item : requests) {
    const auto metadata = item.value("metadata", nlohmann::json());
    const std::string key =
        metadata.is_object() && metadata.contains("key") ? metadata["key"].dump() : "";
    batch.outcomes.push_back(
        answer_batch_item(queue_, Endpoint::gemini, key, item["request"], next_serial_()));
    batch.metadata.push_back(metadata);
  }
  const std::string name = batch.name;
  const auto& stored = batches_.emplace(name, std::move(batch)).first->second;
  return json_reply(operation(stored));
}

json GeminiBatches::operation(const Batch& batch) const {
  const bool done = batch.cancelled || batch.polls >= batch.polls_to_end;
  const bool expired = std::all_of(batch.outcomes.begin(), batch.outcomes.end(),
                                   [](const BatchOutcome& o) { return !o.reply && !o.missing; });
  std::string state = "BATCH_STATE_RUNNING";
  if (batch.cancelled) {
    state = "BATCH_STATE_CANCELLED";
  } else if (done) {
    state = expired ? "BATCH_STATE_EXPIRED" : "BATCH_STATE_SUCCEEDED";
  } else if (batch.polls == 0) {
    state = "BATCH_STATE_PENDING";
  }
  const auto [total, finished, failed_so_far] =
      batch_counts(batch.outcomes, batch.polls, batch.polls_to_end, batch.cancelled);
  const auto count = [](std::size_t n) { return std::to_string(n); };  // int64 as a string
  json metadata = {
      {"@type", std::string(kTypes) + "GenerateContentBatch"},
      {"model", batch.model},
      {"displayName", batch.display_name},
      {"createTime", iso_time(batch.created_at)},
      {"updateTime", iso_time(now_seconds())},
      {"batchStats",
       {{"requestCount", count(total)},
        {"successfulRequestCount", count(finished - std::min(finished, failed_so_far))},
        {"failedRequestCount", count(failed_so_far)},
        {"pendingRequestCount", count(total - finished)}}},
      {"state", state},
      {"name", batch.name}};
  json out = {{"name", batch.name}, {"metadata", std::move(metadata)}, {"done", done}};
  if (batch.cancelled) {
    out["error"] = {{"code", 1}, {"message", "The batch was cancelled."}};
  } else if (done && !expired) {
    json responses = json::array();
    for (std::size_t i = 0; i < batch.outcomes.size(); ++i) {
      if (!batch.outcomes[i].missing)
        responses.push_back(inlined_response(batch.outcomes[i], batch.metadata[i]));
    }
    out["response"] = {{"@type", std::string(kTypes) + "GenerateContentBatchOutput"},
                       {"inlinedResponses", {{"inlinedResponses", std::move(responses)}}}};
  }
  return out;
}

RenderedReply GeminiBatches::retrieve(const std::string& name) {
  std::lock_guard lock(mutex_);
  const auto found = batches_.find(name);
  if (found == batches_.end()) return error(404, "Batch " + name + " not found.");
  if (found->second.failures_left > 0) {
    --found->second.failures_left;
    return error(503, "The service is currently unavailable.");
  }
  ++found->second.polls;
  return json_reply(operation(found->second));
}

RenderedReply GeminiBatches::cancel(const std::string& name) {
  std::lock_guard lock(mutex_);
  const auto found = batches_.find(name);
  if (found == batches_.end()) return error(404, "Batch " + name + " not found.");
  auto& batch = found->second;
  if (batch.polls < batch.polls_to_end) batch.cancelled = true;
  return json_reply(json::object());
}

}  // namespace accord_mock
