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
  // Where each keyword came in (or left): a keyword read in every dialect is kAll. `dependencies`
  // and `additionalItems` beside an array `items` keep their earlier meaning in 2019-09 and
  // 2020-12, as ajv reads them there.
  constexpr std::uint8_t kAll = kAllDialects;
  constexpr std::uint8_t kDraft4Only = kDraft4;
  constexpr std::uint8_t kFrom6 = kAll & ~kDraft4;
  constexpr std::uint8_t kFrom7 = kFrom6 & ~kDraft6;
  constexpr std::uint8_t kFrom2019 = kDraft2019_09 | kDraft2020_12;
  constexpr std::uint8_t k2019 = kDraft2019_09;
  constexpr std::uint8_t k2020 = kDraft2020_12;
  // name, dialects, vocabulary, compile step, holds, reported by the import, a count, lowering
  static constexpr std::array kRows = {
      // core: identifiers, references, definitions
      KeywordRow{"$schema", kAll, core, nullptr, value, false, false, kept},
      KeywordRow{"id", kDraft4Only, core, nullptr, value, false, false, not_sent},
      KeywordRow{"$id", kFrom6, core, nullptr, value, false, false, not_sent},
      KeywordRow{"$anchor", kFrom2019, core, nullptr, value, false, false, not_sent},
      KeywordRow{"$recursiveAnchor", k2019, core, nullptr, value, false, false, not_sent},
      KeywordRow{"$dynamicAnchor", k2020, core, nullptr, value, false, false, not_sent},
      KeywordRow{"$ref", kAll, core, compile_ref, value, false, false, own_step},
      KeywordRow{"$recursiveRef", k2019, core, compile_dynamic_ref, value, false, false, rejected},
      KeywordRow{"$dynamicRef", k2020, core, compile_dynamic_ref, value, false, false, rejected},
      KeywordRow{"$defs", kAll, core, compile_definitions, schema_map, false, false, own_step},
      KeywordRow{"definitions", kAll, core, compile_definitions, schema_map, false, false,
                 not_sent},
      KeywordRow{"$comment", kFrom7, core, nullptr, value, false, false, kept},
      // applicators
      KeywordRow{"allOf", kAll, applicator, compile_combination, schemas, false, false, kept},
      KeywordRow{"anyOf", kAll, applicator, compile_combination, schemas, false, false, kept},
      KeywordRow{"oneOf", kAll, applicator, compile_combination, schemas, false, false, kept},
      KeywordRow{"not", kAll, applicator, compile_not, schema, true, false, rejected},
      KeywordRow{"if", kFrom7, applicator, compile_conditional, schema, true, false, rejected},
      KeywordRow{"then", kFrom7, applicator, compile_conditional, schema, true, false, rejected},
      KeywordRow{"else", kFrom7, applicator, compile_conditional, schema, true, false, rejected},
      KeywordRow{"dependentSchemas", kFrom2019, applicator, compile_dependent_schemas, schema_map,
                 false, false, rejected},
      KeywordRow{"dependencies", kAll, applicator, compile_dependencies, schema_map, true, false,
                 rejected},
      KeywordRow{"prefixItems", k2020, applicator, compile_prefix_items, schemas, false, false,
                 kept},
      KeywordRow{"items", kAll, applicator, compile_items, schema_or_schemas, false, false, kept},
      KeywordRow{"additionalItems", kAll, applicator, compile_additional_items, schema, false,
                 false, kept},
      KeywordRow{"contains", kFrom6, applicator, compile_contains, schema, true, false, rejected},
      KeywordRow{"properties", kAll, applicator, compile_properties, schema_map, false, false,
                 kept},
      KeywordRow{"patternProperties", kAll, applicator, compile_pattern_properties, schema_map,
                 false, false, rejected},
      KeywordRow{"additionalProperties", kAll, applicator, compile_additional_properties, schema,
                 false, false, kept},
      KeywordRow{"propertyNames", kFrom6, applicator, compile_property_names, schema, true, false,
                 rejected},
      // unevaluated
      KeywordRow{"unevaluatedItems", kFrom2019, unevaluated, compile_unevaluated, schema, false,
                 false, rejected},
      KeywordRow{"unevaluatedProperties", kFrom2019, unevaluated, compile_unevaluated, schema,
                 false, false, rejected},
      // validation
      KeywordRow{"type", kAll, validation, compile_type, value, false, false, kept},
      KeywordRow{"enum", kAll, validation, compile_enum, value, true, false, kept},
      KeywordRow{"const", kFrom6, validation, compile_const, value, true, false, kept},
      KeywordRow{"multipleOf", kAll, validation, compile_multiple_of, value, true, false, kept},
      KeywordRow{"maximum", kAll, validation, compile_bound, value, true, false, kept},
      KeywordRow{"exclusiveMaximum", kAll, validation, compile_bound, value, true, false, kept},
      KeywordRow{"minimum", kAll, validation, compile_bound, value, true, false, kept},
      KeywordRow{"exclusiveMinimum", kAll, validation, compile_bound, value, true, false, kept},
      KeywordRow{"maxLength", kAll, validation, compile_length, value, true, true, kept},
      KeywordRow{"minLength", kAll, validation, compile_length, value, true, true, kept},
      KeywordRow{"pattern", kAll, validation, compile_pattern, value, false, false, kept},
      KeywordRow{"maxItems", kAll, validation, compile_item_count, value, true, true, kept},
      KeywordRow{"minItems", kAll, validation, compile_item_count, value, true, true, kept},
      KeywordRow{"uniqueItems", kAll, validation, compile_unique_items, value, true, false,
                 rejected},
      KeywordRow{"maxContains", kFrom2019, validation, compile_contains_count, value, false, false,
                 rejected},
      KeywordRow{"minContains", kFrom2019, validation, compile_contains_count, value, false, false,
                 rejected},
      KeywordRow{"maxProperties", kAll, validation, compile_property_count, value, true, true,
                 rejected},
      KeywordRow{"minProperties", kAll, validation, compile_property_count, value, true, true,
                 rejected},
      KeywordRow{"required", kAll, validation, compile_required, value, false, false, kept},
      KeywordRow{"dependentRequired", kFrom2019, validation, compile_dependencies, value, true,
                 false, rejected},
      // format (an assertion unless the engine is told to treat formats as annotations)
      KeywordRow{"format", kAll, format, compile_format, value, true, false, kept},
      // content: annotations the engine does not check (2020-12 asserts nothing by them), which
      // no strict provider takes; left off the wire, as no rule goes with them
      KeywordRow{"contentEncoding", kFrom7, content, nullptr, value, false, false, not_sent},
      KeywordRow{"contentMediaType", kFrom7, content, nullptr, value, false, false, not_sent},
      KeywordRow{"contentSchema", kFrom2019, content, nullptr, value, false, false, not_sent},
      // meta-data: annotations
      KeywordRow{"title", kAll, meta_data, nullptr, value, false, false, kept},
      KeywordRow{"description", kAll, meta_data, nullptr, value, false, false, kept},
      KeywordRow{"default", kAll, meta_data, nullptr, value, true, false, kept},
      KeywordRow{"examples", kFrom6, meta_data, nullptr, value, true, false, kept},
      // accord's declarative cross-field rules
      KeywordRow{kRulesKeyword, kAll, extension, compile_accord_rules, value, false, false,
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
