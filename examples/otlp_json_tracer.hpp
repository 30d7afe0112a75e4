#pragma once
// An accord::Tracer that writes each span, when it ends, as one line of OTLP/JSON (the
// OpenTelemetry protocol's JSON encoding of an ExportTraceServiceRequest): what a collector's
// file receiver reads, and what a program without an OpenTelemetry SDK can still keep. A service
// with the SDK implements Tracer on top of its own tracer instead.

#include <accord/telemetry.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <tuple>
#include <utility>

namespace accord::examples {

class OtlpJsonTracer final : public Tracer {
 public:
  OtlpJsonTracer(const std::string& path, std::string service)
      : out_(path, std::ios::app), service_(std::move(service)) {
    if (!out_) throw std::runtime_error("cannot write " + path);
  }

  std::unique_ptr<Span> start_span(std::string_view name, Attributes attributes,
                                   const Span* parent) override {
    const auto* parent_span = dynamic_cast<const OtlpSpan*>(parent);
    const std::string trace_id = parent_span != nullptr ? parent_span->trace_id : hex_id(16);
    const std::string parent_id = parent_span != nullptr ? parent_span->span_id : "";
    return std::make_unique<OtlpSpan>(*this, std::string(name), std::move(attributes), trace_id,
                                      hex_id(8), parent_id);
  }

 private:
  static nlohmann::json any_value(const AttributeValue& value) {
    return std::visit(
        [](const auto& v) -> nlohmann::json {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, std::string>) return {{"stringValue", v}};
          if constexpr (std::is_same_v<V, std::int64_t>)
            return {{"intValue", std::to_string(v)}};  // OTLP/JSON writes 64-bit ints as text
          if constexpr (std::is_same_v<V, double>) return {{"doubleValue", v}};
          if constexpr (std::is_same_v<V, bool>) return {{"boolValue", v}};
          if constexpr (std::is_same_v<V, std::vector<std::string>>) {
            nlohmann::json values = nlohmann::json::array();
            for (const auto& item : v) values.push_back({{"stringValue", item}});
            return {{"arrayValue", {{"values", values}}}};
          }
        },
        value);
  }

  static nlohmann::json key_values(const Attributes& attributes) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [key, value] : attributes)
      out.push_back({{"key", key}, {"value", any_value(value)}});
    return out;
  }

  static std::string now_nanos() {
    return std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count());
  }

  std::string hex_id(int bytes) {
    std::lock_guard lock(mutex_);
    std::string out;
    for (int i = 0; i < bytes; ++i) {
      char pair[3];
      std::snprintf(pair, sizeof pair, "%02x", static_cast<unsigned>(random_() & 0xff));
      out += pair;
    }
    return out;
  }

  struct OtlpSpan final : Span {
    OtlpSpan(OtlpJsonTracer& tracer, std::string name, Attributes attributes, std::string trace_id,
             std::string span_id, std::string parent_id)
        : tracer(tracer),
          name(std::move(name)),
          attributes(std::move(attributes)),
          trace_id(std::move(trace_id)),
          span_id(std::move(span_id)),
          parent_id(std::move(parent_id)),
          start(now_nanos()) {}

    void set_attribute(std::string_view key, AttributeValue value) override {
      attributes.emplace_back(std::string(key), std::move(value));
    }
    void add_event(std::string_view event, Attributes event_attributes) override {
      events.push_back({{"timeUnixNano", now_nanos()},
                        {"name", event},
                        {"attributes", key_values(event_attributes)}});
    }
    void set_error(std::string_view type, std::string_view description) override {
      // Built in place: g++ 12 at -O2 wrongly calls a moved std::variant maybe-uninitialized.
      attributes.emplace_back(std::piecewise_construct, std::forward_as_tuple("error.type"),
                              std::forward_as_tuple(std::in_place_type<std::string>, type));
      status = {{"code", 2}, {"message", description}};  // STATUS_CODE_ERROR
    }
    void end() override {
      nlohmann::json span = {{"traceId", trace_id},
                             {"spanId", span_id},
                             {"name", name},
                             {"kind", 3},  // SPAN_KIND_CLIENT
                             {"startTimeUnixNano", start},
                             {"endTimeUnixNano", now_nanos()},
                             {"attributes", key_values(attributes)},
                             {"events", events},
                             {"status", status}};
      if (!parent_id.empty()) span["parentSpanId"] = parent_id;
      const nlohmann::json line = {
          {"resourceSpans",
           {{{"resource", {{"attributes", key_values({{"service.name", tracer.service_}})}}},
             {"scopeSpans", {{{"scope", {{"name", "accord"}}}, {"spans", {span}}}}}}}}};
      std::lock_guard lock(tracer.mutex_);
      tracer.out_ << line.dump() << "\n" << std::flush;
    }

    OtlpJsonTracer& tracer;
    std::string name;
    Attributes attributes;
    std::string trace_id, span_id, parent_id, start;
    nlohmann::json events = nlohmann::json::array();
    nlohmann::json status = nlohmann::json::object();
  };

  std::ofstream out_;
  std::string service_;
  std::mutex mutex_;
  std::mt19937_64 random_{std::random_device{}()};
};

}  // namespace accord::examples
