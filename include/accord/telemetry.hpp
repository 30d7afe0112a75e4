#pragma once
// OpenTelemetry spans for each call, after the GenAI semantic conventions, through a small tracer
// interface you connect to your own OpenTelemetry SDK: accord depends on none. genai_tracing()
// turns ClientOptions::hooks events into spans; examples/otlp_json_tracer.hpp is a Tracer that
// writes OTLP/JSON lines.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "accord/hooks.hpp"

namespace accord {

using AttributeValue =
    std::variant<std::string, std::int64_t, double, bool, std::vector<std::string>>;
using Attributes = std::vector<std::pair<std::string, AttributeValue>>;

// One span, ended once. Implementations must be safe to call from the thread that drives the
// call (extract_async's run on the transport's thread).
class Span {
 public:
  virtual ~Span() = default;
  virtual void set_attribute(std::string_view key, AttributeValue value) = 0;
  virtual void add_event(std::string_view name, Attributes attributes) = 0;
  // The span's status is an error of `type` (also its error.type attribute).
  virtual void set_error(std::string_view type, std::string_view description) = 0;
  virtual void end() = 0;
};

class Tracer {
 public:
  virtual ~Tracer() = default;
  // A CLIENT span named `name`, a child of `parent` (nullptr: a root, or the caller's current
  // context, as the implementation sees fit).
  [[nodiscard]] virtual std::unique_ptr<Span> start_span(std::string_view name,
                                                         Attributes attributes,
                                                         const Span* parent) = 0;
};

// Hooks that trace each call through `tracer`: a span "extract {schema}" for the call, with one
// child per request, "chat {model}", carrying the GenAI attributes (gen_ai.operation.name,
// gen_ai.provider.name, gen_ai.request.model, gen_ai.request.max_tokens, gen_ai.usage.*,
// gen_ai.response.finish_reasons, server.address, server.port, error.type) and accord's own under
// `accord.` (the attempt's number and role, its issues and repairs). `chained` hooks run after
// the tracing ones, so a program can trace and log with one ClientOptions::hooks.
[[nodiscard]] Hooks genai_tracing(std::shared_ptr<Tracer> tracer, Hooks chained = {});

}  // namespace accord
