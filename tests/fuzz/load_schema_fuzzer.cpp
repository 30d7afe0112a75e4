// A schema file as `accord schema` and `accord extract` read it: the text parsed (key order
// kept), checked and imported (import_json_schema: limits, compile, $ref inlining, rule
// sentences, the Report), then lowered for every provider, with the wire schema and Report
// rendered as the CLI prints them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "accord/json_schema_file.hpp"
#include "accord/json_text.hpp"
#include "accord/providers/provider.hpp"
#include "accord/schema.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace accord;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto document = parse_ordered_json(text, /*allow_exceptions=*/false);
  if (document.is_discarded()) return 0;
  EmittedSchema imported;
  try {
    imported = import_json_schema(document);
  } catch (const SchemaError& error) {
    for (const auto& problem : error.problems()) (void)problem.path.to_pointer();
    return 0;
  }
  for (const auto& name : provider_names()) {
    const auto provider = make_provider(name);
    const auto wire = provider->lower(imported.json, imported.report);
    (void)wire.schema.dump();
    (void)wire.report.to_json().dump();
    (void)wire.report.to_table();
  }
  return 0;
}
