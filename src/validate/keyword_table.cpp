#include "validate/keyword_table.hpp"

#include <array>
#include <unordered_map>

#include "accord/rules.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {

std::span<const KeywordRow> keyword_rows() {
  using enum Vocabulary;
  using enum Holds;
  using enum LoweringClass;
  constexpr std::uint8_t kBoth = kBothDialects;
  constexpr std::uint8_t k2020 = kDraft2020_12;
  // name, dialects, vocabulary, compile step, holds, reported by the import, a count, lowering
  static constexpr std::array kRows = {
      // core: identifiers, references, definitions
      KeywordRow{"$schema", kBoth, core, nullptr, value, false, false, kept},
      KeywordRow{"$id", kBoth, core, nullptr, value, false, false, not_sent},
      KeywordRow{"$anchor", kBoth, core, nullptr, value, false, false, not_sent},
      KeywordRow{"$dynamicAnchor", k2020, core, nullptr, value, false, false, not_sent},
      KeywordRow{"$ref", kBoth, core, compile_ref, value, false, false, own_step},
      KeywordRow{"$dynamicRef", k2020, core, compile_dynamic_ref, value, false, false, rejected},
      KeywordRow{"$defs", kBoth, core, compile_definitions, schema_map, false, false, own_step},
      KeywordRow{"definitions", kBoth, core, compile_definitions, schema_map, false, false,
                 not_sent},
      KeywordRow{"$comment", kBoth, core, nullptr, value, false, false, kept},
      // applicators
      KeywordRow{"allOf", kBoth, applicator, compile_combination, schemas, false, false, kept},
      KeywordRow{"anyOf", kBoth, applicator, compile_combination, schemas, false, false, kept},
      KeywordRow{"oneOf", kBoth, applicator, compile_combination, schemas, false, false, kept},
      KeywordRow{"not", kBoth, applicator, compile_not, schema, true, false, rejected},
      KeywordRow{"if", kBoth, applicator, compile_conditional, schema, true, false, rejected},
      KeywordRow{"then", kBoth, applicator, compile_conditional, schema, true, false, rejected},
      KeywordRow{"else", kBoth, applicator, compile_conditional, schema, true, false, rejected},
      KeywordRow{"dependentSchemas", k2020, applicator, compile_dependent_schemas, schema_map,
                 false, false, rejected},
      KeywordRow{"dependencies", kBoth, applicator, compile_dependencies, schema_map, true, false,
                 rejected},
      KeywordRow{"prefixItems", k2020, applicator, compile_prefix_items, schemas, false, false,
                 kept},
      KeywordRow{"items", kBoth, applicator, compile_items, schema_or_schemas, false, false, kept},
      KeywordRow{"additionalItems", kBoth, applicator, compile_additional_items, schema, false,
                 false, kept},
      KeywordRow{"contains", kBoth, applicator, compile_contains, schema, true, false, rejected},
      KeywordRow{"properties", kBoth, applicator, compile_properties, schema_map, false, false,
                 kept},
      KeywordRow{"patternProperties", kBoth, applicator, compile_pattern_properties, schema_map,
                 false, false, rejected},
      KeywordRow{"additionalProperties", kBoth, applicator, compile_additional_properties, schema,
                 false, false, kept},
      KeywordRow{"propertyNames", kBoth, applicator, compile_property_names, schema, true, false,
                 rejected},
      // unevaluated
      KeywordRow{"unevaluatedItems", k2020, unevaluated, compile_unevaluated, schema, false, false,
                 rejected},
      KeywordRow{"unevaluatedProperties", k2020, unevaluated, compile_unevaluated, schema, false,
                 false, rejected},
      // validation
      KeywordRow{"type", kBoth, validation, compile_type, value, false, false, kept},
      KeywordRow{"enum", kBoth, validation, compile_enum, value, true, false, kept},
      KeywordRow{"const", kBoth, validation, compile_const, value, true, false, kept},
      KeywordRow{"multipleOf", kBoth, validation, compile_multiple_of, value, true, false, kept},
      KeywordRow{"maximum", kBoth, validation, compile_bound, value, true, false, kept},
      KeywordRow{"exclusiveMaximum", kBoth, validation, compile_bound, value, true, false, kept},
      KeywordRow{"minimum", kBoth, validation, compile_bound, value, true, false, kept},
      KeywordRow{"exclusiveMinimum", kBoth, validation, compile_bound, value, true, false, kept},
      KeywordRow{"maxLength", kBoth, validation, compile_length, value, true, true, kept},
      KeywordRow{"minLength", kBoth, validation, compile_length, value, true, true, kept},
      KeywordRow{"pattern", kBoth, validation, compile_pattern, value, false, false, kept},
      KeywordRow{"maxItems", kBoth, validation, compile_item_count, value, true, true, kept},
      KeywordRow{"minItems", kBoth, validation, compile_item_count, value, true, true, kept},
      KeywordRow{"uniqueItems", kBoth, validation, compile_unique_items, value, true, false,
                 rejected},
      KeywordRow{"maxContains", k2020, validation, compile_contains_count, value, false, false,
                 rejected},
      KeywordRow{"minContains", k2020, validation, compile_contains_count, value, false, false,
                 rejected},
      KeywordRow{"maxProperties", kBoth, validation, compile_property_count, value, true, true,
                 rejected},
      KeywordRow{"minProperties", kBoth, validation, compile_property_count, value, true, true,
                 rejected},
      KeywordRow{"required", kBoth, validation, compile_required, value, false, false, kept},
      KeywordRow{"dependentRequired", k2020, validation, compile_dependencies, value, true, false,
                 rejected},
      // format (an assertion unless the engine is told to treat formats as annotations)
      KeywordRow{"format", kBoth, format, compile_format, value, true, false, kept},
      // content: annotations the engine does not check (2020-12 asserts nothing by them), which
      // no strict provider takes; left off the wire, as no rule goes with them
      KeywordRow{"contentEncoding", kBoth, content, nullptr, value, false, false, not_sent},
      KeywordRow{"contentMediaType", kBoth, content, nullptr, value, false, false, not_sent},
      KeywordRow{"contentSchema", k2020, content, nullptr, value, false, false, not_sent},
      // meta-data: annotations
      KeywordRow{"title", kBoth, meta_data, nullptr, value, false, false, kept},
      KeywordRow{"description", kBoth, meta_data, nullptr, value, false, false, kept},
      KeywordRow{"default", kBoth, meta_data, nullptr, value, true, false, kept},
      KeywordRow{"examples", kBoth, meta_data, nullptr, value, true, false, kept},
      // accord's declarative cross-field rules
      KeywordRow{kRulesKeyword, kBoth, extension, compile_accord_rules, value, false, false,
                 own_step},
  };
  return kRows;
}

const KeywordRow* keyword_row(std::string_view name) {
  static const auto* const kByName = [] {
    auto* rows = new std::unordered_map<std::string_view, const KeywordRow*>();
    for (const auto& row : keyword_rows()) rows->emplace(row.name, &row);
    return rows;
  }();
  const auto it = kByName->find(name);
  return it == kByName->end() ? nullptr : it->second;
}

}  // namespace accord::detail
