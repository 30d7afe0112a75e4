#pragma once
// Declarative rules (`x-accord-rules`) on their way to a provider: compiled into keywords where
// the provider's schema subset can say them, otherwise left in the description emit() or
// import_json_schema() wrote. Either way the extension itself never goes on the wire, and every
// rule's Report entry gets the provider's fate.

#include <nlohmann/json.hpp>
#include <string>

#include "schema/report_writer.hpp"

namespace accord::detail {

// A schema sent whole (SchemaCapabilities::full_schema): walks the whole document; conditionals
// with literal comparisons become `if`/`then`, plain field-to-literal comparisons a `properties`
// constraint.
void lower_rules_as_conditionals(nlohmann::ordered_json& schema, ReportWriter report,
                                 const std::string& stage);

// Where rules become branches the decoder enforces (SchemaCapabilities::rule_branches, as in
// OpenAI strict mode), for one already-lowered object node `out` whose original carried `rules`:
// conditionals become `anyOf` branches over the object (the decoder then enforces them) when each
// side can be narrowed with the subset's keywords (enum/const, boolean const, numeric bounds).
// Returns the new node: `out` itself, or {"anyOf": [...branches], "description": ...}.
[[nodiscard]] nlohmann::ordered_json lower_rules_as_branches(const nlohmann::ordered_json& rules,
                                                             nlohmann::ordered_json out,
                                                             const Path& path, ReportWriter report,
                                                             const std::string& stage);

// Neither: no if/then, no field comparisons (as for Anthropic); the rules stay in the description.
void lower_rules_described(const nlohmann::ordered_json& rules, const Path& path,
                           ReportWriter report, const std::string& stage,
                           const std::string& family);

}  // namespace accord::detail
