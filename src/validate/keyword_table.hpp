#pragma once
// Every JSON Schema keyword accord knows, one row each: the dialects it belongs to, its
// vocabulary, how the engine compiles it, and how the import and the provider lowering class it.
// The engine dispatches through this table, and the import's and lowering's keyword lists are
// queries on it, so one row is the one place a keyword's facts are written (docs/validation.md,
// "Adding a keyword").

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "accord/path.hpp"

namespace accord::detail {

struct KeywordCompiler;  // validate/compiler.hpp: one schema object being compiled

// The dialects, as bits, in the order of validate/engine.hpp's Draft (dialect_bit() maps one to
// the other).
enum DialectBit : std::uint8_t {
  kDraft4 = 1,
  kDraft6 = 2,
  kDraft7 = 4,
  kDraft2019_09 = 8,
  kDraft2020_12 = 16,
};
inline constexpr std::uint8_t kAllDialects =
    kDraft4 | kDraft6 | kDraft7 | kDraft2019_09 | kDraft2020_12;

// 2019-09's and 2020-12's vocabularies (the drafts before have none; their keywords sit in the
// one they moved to), and accord's own extension keywords.
enum class Vocabulary : std::uint8_t {
  core,
  applicator,
  unevaluated,
  validation,  // off when a custom meta-schema leaves the validation vocabulary out
  format,
  content,
  meta_data,
  extension,  // accord's own: x-accord-rules
};

// What the keyword's value holds, as the import walks it (inlining `$ref`s, counting depth).
enum class Holds : std::uint8_t {
  value,              // no schema inside
  schema,             // one schema
  schemas,            // a list of schemas
  schema_or_schemas,  // `items`: one schema, or draft-07's list of them
  schema_map,         // an object whose values are schemas
};

// How provider lowering treats the keyword in a node it walks.
enum class LoweringClass : std::uint8_t {
  kept,      // sent as is, rewritten for the provider, or stated in words where it cannot go
  rejected,  // no strict provider accepts it: stated in the description, enforced locally
  own_step,  // resolved or compiled by a step of its own before the walk reaches it
  not_sent,  // left off the wire with a Report row: the local rules check nothing by it alone
};

using CompileKeyword = void (*)(KeywordCompiler& node, const std::string& key,
                                const nlohmann::ordered_json& value, const Path& at);

struct KeywordRow {
  std::string_view name;
  std::uint8_t dialects;
  Vocabulary vocabulary;
  // Null for a keyword the engine reads elsewhere (identifiers, `$schema`) or not at all
  // (annotations).
  CompileKeyword compile;
  Holds holds;
  bool reported;  // the import records it as a Report row "keyword value"
  bool count;     // a non-negative integer length the import bounds (at most 2^53)
  LoweringClass lowering;
};

// Every row, in the order of the 2020-12 vocabularies.
[[nodiscard]] std::span<const KeywordRow> keyword_rows();
// The row named `name`, or null for a keyword accord does not know.
[[nodiscard]] const KeywordRow* keyword_row(std::string_view name);

}  // namespace accord::detail
