// `accord-bench lowering`: how long importing and lowering a JSON Schema file takes for each
// provider, and how large each wire is, side by side in one run, so a provider whose lowering
// grows faster than the schema stands out against the others.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <vector>

#include "accord/json_schema_file.hpp"
#include "accord/providers/lowering_bound.hpp"
#include "bench.hpp"

namespace accord::bench {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int run_lowering(const LoweringOptions& options) {
  std::ifstream in(options.schema);
  if (!in) {
    std::cerr << "cannot read " << options.schema << "\n";
    return 2;
  }
  const auto document = nlohmann::ordered_json::parse(in);
  const auto start = std::chrono::steady_clock::now();
  const auto imported = import_json_schema(document);
  const double import_seconds = seconds_since(start);
  fmt::print("schema: {} ({} bytes, import {:.1f} ms, imported {} bytes)\n", options.schema,
             document.dump().size(), import_seconds * 1e3, imported.json.dump().size());
  fmt::print("{:<14} {:>10} {:>12}  {}\n", "provider", "lower ms", "wire bytes", "note");
  for (const auto& name : provider_names()) {
    const auto provider = make_provider(name);
    std::vector<double> times;
    std::size_t bytes = 0;
    std::string note;
    for (int i = 0; i < options.repeat && note.empty(); ++i) {
      const auto begin = std::chrono::steady_clock::now();
      try {
        const auto wire = lower_within(*provider, imported.json, imported.report, {});
        times.push_back(seconds_since(begin));
        bytes = wire.schema.dump().size();
      } catch (const SchemaError& e) {
        times.push_back(seconds_since(begin));
        note = std::string(e.what()).substr(0, 100);
      }
    }
    std::sort(times.begin(), times.end());
    fmt::print("{:<14} {:>10.2f} {:>12}  {}\n", name, times[times.size() / 2] * 1e3, bytes, note);
  }
  return 0;
}

}  // namespace accord::bench
