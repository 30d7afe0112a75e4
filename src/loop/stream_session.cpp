#include "loop/stream_session.hpp"

#include <fmt/format.h>

#include "core/ascii.hpp"
#include "loop/lowering_path.hpp"
#include "providers/wire.hpp"
#include "repair/value_coercion.hpp"

namespace accord::detail {
namespace {

// The most of a failure's text kept (it may quote a hostile event), cut after redaction.
constexpr std::size_t kProblemBytes = 240;

}  // namespace

std::optional<Issues> judge_part(const Contract& contract, const Path& wire_path,
                                 const nlohmann::json& part, RepairPolicy repair) {
  const Lowering& lowering = contract.wire().lowering;
  const auto unwrapped_path = unwrapped(lowering, wire_path);
  // The whole value is judged whole at the end.
  if (!unwrapped_path || unwrapped_path->empty()) return std::nullopt;
  const Path& path = *unwrapped_path;
  // The part's own share of the lowering, to undo on the part alone.
  Lowering own;
  for (const auto& list : lowering.pair_lists) {
    const auto relation = relate(list, path.segments());
    if (relation.where == PathRelation::above) return std::nullopt;  // inside a list of entries
    if (relation.where == PathRelation::at_or_below) own.pair_lists.push_back(relation.rest);
  }
  for (const auto& optional : lowering.nulled_optionals) {
    const auto relation = relate(optional, path.segments());
    if (relation.where != PathRelation::at_or_below) continue;
    if (relation.rest.empty() && part.is_null()) return std::nullopt;  // absent, not null
    own.nulled_optionals.push_back(relation.rest);
  }
  for (const auto& reference : lowering.references) {
    if (relate(reference.first, path.segments()).where != PathRelation::apart) return std::nullopt;
  }
  auto value = unlower(part, own);
  auto issues = contract.validator().validate_part(path, value);
  if (!issues || issues->empty() || repair == RepairPolicy::off) return issues;
  if (repair::coerce_part(value, contract.json_schema(), path, repair).empty()) return issues;
  auto repaired = contract.validator().validate_part(path, value);
  return repaired && repaired->empty() ? repaired : issues;
}

StreamSession::StreamSession(std::string_view provider, OutputMode mode, StreamSetup setup,
                             Redactor redact)
    : provider_(provider),
      mode_(mode),
      setup_(std::move(setup)),
      redact_(std::move(redact)),
      framing_(stream_framing(provider)) {
  begin();
  record_.streamed = true;
}

void StreamSession::begin() {
  sse_ = SseReader();
  aws_ = AwsEventStreamReader();
  lines_ = JsonLinesReader();
  assembler_ = make_stream_assembler(provider_, mode_);
  json_ = std::make_unique<JsonStreamReader>(
      [this](const Path& path, const nlohmann::json& part) { return on_close(path, part); },
      redact_);
  output_.clear();
  unframed_.clear();
  body_.clear();
  problem_.clear();
  record_ = StreamRecord{.streamed = true};
  early_issues_.clear();
}

void StreamSession::fail(std::string why) {
  problem_ = redact_(std::move(why));
  if (problem_.size() > kProblemBytes) problem_ = problem_.substr(0, kProblemBytes) + "...";
}

bool StreamSession::read(std::string_view bytes) {
  // Called from inside curl: nothing may escape, whatever a hostile event holds.
  try {
    return read_events(bytes);
  } catch (const std::exception& e) {
    fail(std::string("a malformed server-sent event: ") + e.what());
    return false;
  }
}

bool StreamSession::read_events(std::string_view bytes) {
  record_.bytes += bytes.size();
  if (record_.bytes > setup_.options.max_stream_bytes) {
    fail(fmt::format("the event stream is over {} bytes (StreamOptions::max_stream_bytes)",
                     setup_.options.max_stream_bytes));
    return false;
  }
  if (record_.events == 0) {
    if (unframed_.size() + bytes.size() > setup_.max_output_bytes) {
      fail(fmt::format("the reply is over {} bytes with no server-sent event in it",
                       setup_.max_output_bytes));
      return false;
    }
    unframed_ += bytes;
  }
  const auto events = events_in(bytes);
  // Broken framing after events is a broken stream; before any, the server may have answered
  // with its reply whole (read by reply()).
  if (!aws_.problem().empty() && record_.events > 0) {
    fail(aws_.problem());
    return false;
  }
  return take_events(events);
}

bool StreamSession::take_events(const std::vector<SseEvent>& events) {
  for (const auto& event : events) {
    // After the provider's last event nothing belongs to the reply: no text, no stop reason.
    if (assembler_->ended()) {
      ++record_.ignored_after_end;
      continue;
    }
    if (record_.events++ == 0) std::string().swap(unframed_);
    auto taken = assembler_->take(event);
    if (!taken.problem.empty()) {
      fail(std::move(taken.problem));
      return false;
    }
    if (taken.output.empty()) continue;
    output_ += taken.output;
    if (output_.size() > setup_.max_output_bytes) {
      fail(fmt::format("the output is over {} bytes (TransportOptions::max_response_bytes)",
                       setup_.max_output_bytes));
      return false;
    }
    json_->feed(taken.output);
    if (!problem_.empty() || record_.stopped_at) return false;
  }
  return true;
}

std::vector<SseEvent> StreamSession::events_in(std::string_view bytes) {
  switch (framing_) {
    case StreamFraming::aws_event_stream:
      return aws_.feed(bytes);
    case StreamFraming::json_lines:
      return lines_.feed(bytes);
    case StreamFraming::server_sent_events:
      break;
  }
  return sse_.feed(bytes);
}

bool StreamSession::on_close(const Path& path, const nlohmann::json& part) {
  if (setup_.on_partial) {
    try {
      setup_.on_partial(PartialValue{path, part, json_->value(), setup_.attempt});
    } catch (const std::exception& e) {
      fail(std::string("the partial-value callback threw: ") + e.what());
      return false;
    } catch (...) {
      fail("the partial-value callback threw");
      return false;
    }
  }
  if (!setup_.options.stop_at_first_issue || !setup_.contract) return true;
  auto issues = judge_part(*setup_.contract, path, part, setup_.repair);
  if (!issues || issues->empty()) return true;
  early_issues_ = *std::move(issues);
  record_.stopped_at = unwrapped(setup_.contract->wire().lowering, path);
  return false;
}

Reply StreamSession::reply(const Provider& provider, const HttpResponse& response) {
  if (problem_.empty() && record_.events == 0 && !unframed_.empty() &&
      !ascii_lower(response.header("content-type").value_or(""))
           .starts_with(media_type(framing_))) {
    // Asked to stream, the server answered with its reply whole: read it as such.
    record_.read_whole = true;
    body_ = redact_(std::move(unframed_));
    return provider.decode(HttpResponse{response.status, response.headers, body_}, mode_);
  }
  if (framing_ == StreamFraming::json_lines && problem_.empty()) {
    // A last line without its line break is still the server's.
    if (auto last = lines_.finish()) take_events({*std::move(last)});
  }
  body_ = redact_(serialize(assembler_->body(&json_->value())));
  if (problem_.empty() && !aws_.problem().empty()) fail(aws_.problem());
  if (!problem_.empty()) {
    Reply failed = bad_reply(problem_);
    failed.text = redact_(output_);
    return failed;
  }
  Reply reply = provider.decode(HttpResponse{response.status, response.headers, body_}, mode_);
  if (record_.stopped_at) {
    // Stopped on purpose: the output so far stands for the reply; its issues are early_issues().
    reply.status = ReplyStatus::ok;
    reply.text = redact_(output_);
  } else if (!assembler_->ended() && reply.status != ReplyStatus::bad_reply) {
    Reply cut = bad_reply("the event stream ended before its last event");
    cut.text = redact_(output_);
    cut.usage = reply.usage;
    return cut;
  }
  return reply;
}

}  // namespace accord::detail
