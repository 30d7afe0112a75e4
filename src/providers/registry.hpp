#pragma once
// The providers accord speaks. Each provider's folder declares its parts (the Provider, its stream
// assembler, its batch protocol); registry.cpp lists them, one line each (providers/README.md).

#include <memory>
#include <string_view>

#include "providers/batch_protocol.hpp"
#include "providers/stream_assembly.hpp"

namespace accord::detail {

struct ProviderParts {
  std::string_view name;  // what ClientOptions::provider and `--provider` say
  std::unique_ptr<Provider> (*make)() = nullptr;
  // Streaming: the assembler for its events, and the members a streamed request carries beyond
  // `"stream": true` (nullptr: none). Without an assembler the provider does not stream.
  std::unique_ptr<StreamAssembler> (*stream)(OutputMode) = nullptr;
  void (*ask_for_stream)(ojson& body) = nullptr;
  // Its batch API; nullptr when it has none.
  std::unique_ptr<BatchProtocol> (*batches)(const BatchSetup&) = nullptr;
  // A provider that asks for a stream another way than `"stream": true` (Bedrock: another URL)
  // sets this instead of ask_for_stream; and how its events are framed.
  void (*stream_request)(HttpRequest& request) = nullptr;
  StreamFraming framing = StreamFraming::server_sent_events;
};

// The parts of the provider named; nullptr for a name no provider has.
[[nodiscard]] const ProviderParts* provider_parts(std::string_view name);

}  // namespace accord::detail
