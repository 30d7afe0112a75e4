#pragma once
// A JSON Schema document someone already has (an MCP tool's inputSchema, an OpenAPI component, a
// file) made ready for the providers, the way emit() makes a DSL Schema ready:
//
//   auto imported = import_json_schema(document);          // throws SchemaError
//   auto wire = provider->lower(imported.json, imported.report);
//   auto validator = Validator::from_json_schema(imported.json);
//
// The Report lists every rule keyword found (stage "file"), so lowering can record what each
// provider does with it. Declarative rules are written as `x-accord-rules` (see rules.hpp).

#include <nlohmann/json.hpp>

#include "accord/json_schema.hpp"
#include "accord/validate.hpp"

namespace accord {

// Checks the document as Validator::from_json_schema does (SchemaError with the keyword path of
// each problem, `x-accord-rules` entries included), then returns it with:
// - `$ref`s inlined and `$defs`/`definitions` removed, so each provider's lowering sees every
//   node: JSON pointers into the document or, through `registry` (and the bundled meta-schemas),
//   into other documents; keywords beside a `$ref` win over the target's (applied, as ajv does,
//   in every dialect); a recursive `$ref` stays a reference into a root `$defs` that holds each
//   recursive target (inlined the same way);
// - each object's `x-accord-rules` stated in its description ("Rule: a >= b.");
// - a Report entry per rule keyword: path (value path, as emit() writes it), the keyword and its
//   value as the rule (`pattern /^a/`, `maximum 500`), fate keyword, stage "file". Plain types,
//   titles and containers (properties, items) are structure, not rules, and get no entry;
//   `integer` and type lists do, as emit() records them.
[[nodiscard]] EmittedSchema import_json_schema(const nlohmann::ordered_json& document,
                                               const SchemaRegistry& registry = {});

}  // namespace accord
