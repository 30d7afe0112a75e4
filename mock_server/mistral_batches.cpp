// Mistral's batch jobs on the batch store (batches.hpp): a job on an uploaded JSONL file whose
// lines are `{custom_id, body}`, the model named once by the job, and the results written as the
// OpenAI Batch API's output and error files.

#include "batches.hpp"

namespace accord_mock {
namespace {

using json = nlohmann::ordered_json;

RenderedReply mistral_error(int status, const std::string& message, std::uint64_t serial) {
  return render_error(Endpoint::chat_completions, status, {{"message", message}}, serial);
}

}  // namespace

RenderedReply BatchStore::create_mistral(const std::string& body) {
  std::lock_guard lock(mutex_);
  const auto request = nlohmann::json::parse(body, nullptr, false);
  const auto files = request.is_object() ? request.value("input_files", nlohmann::json()) : nullptr;
  if (!files.is_array() || files.size() != 1 || !files[0].is_string() ||
      request.value("endpoint", "") != "/v1/chat/completions" ||
      request.value("model", "").empty()) {
    return mistral_error(422,
                         "input_files (accord-mock takes one), endpoint \"/v1/chat/completions\" "
                         "and model are required",
                         next_serial_());
  }
  const auto file = files_.find(files[0].get<std::string>());
  if (file == files_.end())
    return mistral_error(404, "No such file: " + files[0].get<std::string>(), next_serial_());
  Batch batch = new_batch("job-");
  batch.mistral = true;
  batch.endpoint = "/v1/chat/completions";
  batch.input_file_id = file->first;
  batch.model = request.value("model", "");
  read_input(batch, file->second.content, std::nullopt, Endpoint::chat_completions);
  const std::string id = batch.id;
  auto& stored = batches_.emplace(id, std::move(batch)).first->second;
  auto document = mistral_object(stored);
  document["status"] = "QUEUED";
  return json_reply(document);
}

json BatchStore::mistral_object(Batch& batch) {
  const bool done = ended(batch);
  std::string status = "RUNNING";
  if (!batch.errors.is_null()) {
    status = "FAILED";
  } else if (batch.cancelled) {
    status = "CANCELLED";
  } else if (done) {
    status = "SUCCESS";
    write_openai_results(batch);
  }
  const auto [total, finished, failed] =
      batch_counts(batch.outcomes, batch.polls, batch.polls_to_end, batch.cancelled);
  json errors = json::array();
  if (!batch.errors.is_null()) {
    for (const auto& error : batch.errors["data"])
      errors.push_back({{"message", error["message"]}, {"count", 1}});
  }
  const auto file_or_null = [](const std::string& id) { return id.empty() ? json() : json(id); };
  return {{"id", batch.id},
          {"object", "batch"},
          {"input_files", json::array({batch.input_file_id})},
          {"metadata", json::object()},
          {"endpoint", batch.endpoint},
          {"model", batch.model},
          {"output_file", file_or_null(batch.output_file_id)},
          {"error_file", file_or_null(batch.error_file_id)},
          {"errors", errors},
          {"status", status},
          {"created_at", batch.created_at},
          {"total_requests", total},
          {"completed_requests", finished},
          {"succeeded_requests", finished - std::min(finished, failed)},
          {"failed_requests", failed},
          {"started_at", batch.created_at},
          {"completed_at", done ? json(now_seconds()) : json()}};
}

RenderedReply BatchStore::retrieve_mistral(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto found = batches_.find(id);
  if (found == batches_.end() || !found->second.mistral)
    return mistral_error(404, "No such batch job: " + id, next_serial_());
  if (found->second.failures_left > 0) {
    --found->second.failures_left;
    return render_error(Endpoint::chat_completions, 503, {}, next_serial_());
  }
  ++found->second.polls;
  return json_reply(mistral_object(found->second));
}

RenderedReply BatchStore::cancel_mistral(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto found = batches_.find(id);
  if (found == batches_.end() || !found->second.mistral)
    return mistral_error(404, "No such batch job: " + id, next_serial_());
  if (!ended(found->second)) found->second.cancelled = true;
  return json_reply(mistral_object(found->second));
}

}  // namespace accord_mock
