#pragma once
// One streamed attempt: the event stream read as it arrives (SseReader, or
// AwsEventStreamReader for a provider framed so), folded back into the
// provider's reply (StreamAssembler), its output read as JSON (JsonStreamReader) with each part
// handed to the caller and, when asked, judged the moment it closes. Sits between the transport,
// which feeds it bytes, and the extraction loop, which gets the Reply from it.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "accord/client.hpp"
#include "core/aws_event_stream.hpp"
#include "core/json_lines.hpp"
#include "core/json_stream_reader.hpp"
#include "core/sse.hpp"
#include "providers/stream_assembly.hpp"

namespace accord::detail {

// What an extraction asks of its streamed attempts.
struct StreamSetup {
  StreamOptions options;
  PartialValueCallback on_partial;
  std::shared_ptr<const Contract> contract;
  std::size_t attempt = 1;
  // The most output text (the joined deltas) the attempt may hold: the reply cap
  // (TransportOptions::max_response_bytes), counting the output rather than the framing.
  std::size_t max_output_bytes = 16 * 1024 * 1024;
  // A part a repair would make valid is no reason to stop early: the whole reply is repaired.
  RepairPolicy repair = RepairPolicy::off;
};

// The issues `part` (at `wire_path` of the output as the provider writes it) will have in the
// whole value, judged against the contract's original rules; nullopt when that cannot be known
// from the part alone (see Validator::validate_part), or when the part is an optional field sent
// as null (absent once the lowering is undone). A part whose issues the `repair` policy would
// repair has none: the whole reply is repaired at its end.
[[nodiscard]] std::optional<Issues> judge_part(const Contract& contract, const Path& wire_path,
                                               const nlohmann::json& part,
                                               RepairPolicy repair = RepairPolicy::off);

class StreamSession final : public BodyReader {
 public:
  using Redactor = std::function<std::string(std::string)>;
  StreamSession(std::string_view provider, OutputMode mode, StreamSetup setup, Redactor redact);

  void begin() override;
  bool read(std::string_view bytes) override;

  // The reply made of what arrived (redacted whole before decode, as a body read whole is). A
  // server that answered with one body that is not an event stream is read as that provider's
  // reply sent whole.
  [[nodiscard]] Reply reply(const Provider& provider, const HttpResponse& response);
  // The body reply() decoded, redacted whole: the provider's non-streamed body made of the
  // events (the framing is not kept: a key split across events is whole only in joined text),
  // or the body as sent when the server did not stream.
  [[nodiscard]] const std::string& body() const { return body_; }
  [[nodiscard]] const StreamRecord& record() const { return record_; }
  // The issues of the part that stopped the stream (record().stopped_at is set).
  [[nodiscard]] const Issues& early_issues() const { return early_issues_; }
  // The output text that has arrived, in bytes.
  [[nodiscard]] std::size_t output_bytes() const { return output_.size(); }
  // True when no byte reached the reader (a transport that does not stream).
  [[nodiscard]] bool untouched() const { return record_.bytes == 0; }

 private:
  bool read_events(std::string_view bytes);
  // The events `bytes` complete, in the provider's framing.
  std::vector<SseEvent> events_in(std::string_view bytes);
  bool take_events(const std::vector<SseEvent>& events);
  bool on_close(const Path& path, const nlohmann::json& part);
  // Records why the attempt failed: redacted whole, then cut, so no piece of a key survives.
  void fail(std::string why);

  std::string provider_;
  OutputMode mode_;
  StreamSetup setup_;
  Redactor redact_;
  StreamFraming framing_;
  SseReader sse_;
  AwsEventStreamReader aws_;
  JsonLinesReader lines_;  // for an assembler whose events are JSON lines
  std::unique_ptr<StreamAssembler> assembler_;
  std::unique_ptr<JsonStreamReader> json_;
  std::string output_;  // the output text so far
  // The bytes before the first event: a server that does not stream sends its reply whole.
  std::string unframed_;
  std::string body_;
  std::string problem_;  // a malformed event, or the callback's throw
  StreamRecord record_;
  Issues early_issues_;
};

}  // namespace accord::detail
