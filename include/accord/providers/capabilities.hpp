#pragma once
// What a provider's structured-output decoder accepts of JSON Schema. Each provider declares its
// table in its own source file; the one lowering walk reads it (a keyword the table does not allow
// becomes words in the description, with a Report row), and docs/providers.md prints it.

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace accord {

// How minLength/maxLength reach the model.
enum class LengthSupport {
  enforced,        // kept as keywords, enforced by the decoder
  not_guaranteed,  // kept as keywords and also stated in words: the docs do not promise them
  words,           // rejected by the provider: stated in words only
};

struct SchemaCapabilities {
  // How Report rows name the provider's schema dialect ("OpenAI strict schemas").
  std::string family;
  // The whole schema is sent as written (local servers); nothing below applies.
  bool full_schema = false;
  // String formats kept as keywords; others are stated in words.
  std::set<std::string, std::less<>> formats;
  bool numeric_bounds = false;  // minimum, maximum, exclusive bounds, multipleOf
  LengthSupport lengths = LengthSupport::words;
  long max_min_items = -1;        // the largest minItems kept (-1: any)
  bool max_items = false;         // maxItems
  bool all_of = false;            // allOf of non-object schemas (object branches are merged anyway)
  bool recursion = false;         // `$ref` cycles through `$defs` (else unrolled a few levels)
  bool defaults = false;          // `default`
  bool complex_patterns = false;  // lookaround, backreferences, \b, repeats over 100
  bool patterns = true;           // `pattern` at all (false: every pattern in words)
  bool structured_enums = false;  // objects and arrays inside enum/const
  // Every property must be listed in `required` (optional ones become nullable, null = absent).
  bool all_required = false;
  // Declarative rules become anyOf branches the decoder enforces (else words only).
  bool rule_branches = false;
  // Documented limits on a schema's size, as the provider's docs state them.
  std::string size_limits;
};

// The capabilities as (capability, value) rows in a fixed order, for tables.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> capability_rows(
    const SchemaCapabilities& capabilities);

}  // namespace accord
