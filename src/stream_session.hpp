#pragma once
// One streamed attempt: the event stream read as it arrives (SseReader), folded back into the
// provider's reply (StreamAssembler), its output read as JSON (JsonStreamReader) with each part
// handed to the caller and, when asked, judged the moment it closes. Sits between the transport,
// which feeds it bytes, and the extraction loop, which gets the Reply from it.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "accord/client.hpp"
#include "json_stream_reader.hpp"
#include "providers/stream_assembly.hpp"
#include "sse.hpp"

namespace accord::detail {

// What an extraction asks of its streamed attempts.
struct StreamSetup {
  StreamOptions options;
  PartialValueCallback on_partial;
  std::shared_ptr<const Contract> contract;
  std::size_t attempt = 1;
};

// The issues `part` (at `wire_path` of the output as the provider writes it) will have in the
// whole value, judged against the contract's original rules; nullopt when that cannot be known
// from the part alone (see Validator::validate_part), or when the part is an optional field sent
// as null (absent once the lowering is undone).
[[nodiscard]] std::optional<Issues> judge_part(const Contract& contract, const Path& wire_path,
                                               const nlohmann::json& part);

class StreamSession final : public BodyReader {
 public:
  using Redactor = std::function<std::string(std::string)>;
  StreamSession(std::string_view provider, OutputMode mode, StreamSetup setup, Redactor redact);

  void begin() override;
  bool read(std::string_view bytes) override;

  // The reply made of what arrived (redacted whole before decode, as a body read whole is).
  [[nodiscard]] Reply reply(const Provider& provider, const HttpResponse& response) const;
  [[nodiscard]] const StreamRecord& record() const { return record_; }
  // The issues of the part that stopped the stream (record().stopped_at is set).
  [[nodiscard]] const Issues& early_issues() const { return early_issues_; }
  // True when no byte reached the reader (a transport that does not stream).
  [[nodiscard]] bool untouched() const { return record_.bytes == 0; }

 private:
  bool read_events(std::string_view bytes);
  bool on_close(const Path& path, const nlohmann::json& part);

  std::string provider_;
  OutputMode mode_;
  StreamSetup setup_;
  Redactor redact_;
  SseReader sse_;
  std::unique_ptr<StreamAssembler> assembler_;
  std::unique_ptr<JsonStreamReader> json_;
  std::string output_;   // the output text so far
  std::string problem_;  // a malformed event, or the callback's throw
  StreamRecord record_;
  Issues early_issues_;
};

}  // namespace accord::detail
