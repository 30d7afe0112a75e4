#pragma once
// What a provider's structured-output decoder accepts of JSON Schema. Each provider declares its
// table in its own source file; the one lowering walk reads it (a keyword the table does not allow
// becomes words in the description, with a Report row), and docs/providers.md prints it.

#include <map>
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

// How a server that takes the whole schema (`full_schema`) treats a keyword, as its grammar
// converter's source or docs say. Every keyword not `enforced` is stated in words and validated
// locally; the Report row says which of these it is.
enum class KeywordHandling {
  enforced,  // compiled into the grammar: sent as written
  skipped,   // ignored without an error (llama.cpp): not sent, stated in words
  rejected,  // the request fails (vLLM's xgrammar): not sent, stated in words
  unknown,   // no profile says (generic): sent as written and also stated in words
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

  // For a `full_schema` server (the defaults send every keyword as written): keywords it does not
  // enforce, and three cases that depend on the node rather than the keyword.
  std::map<std::string, KeywordHandling, std::less<>> keyword_handling;
  KeywordHandling other_formats = KeywordHandling::enforced;  // formats not in `formats`
  // minimum/maximum/exclusive* on a node whose type is not "integer".
  KeywordHandling bounds_beside_numbers = KeywordHandling::enforced;
  // A pattern that does not start with ^ and end with $.
  KeywordHandling unanchored_patterns = KeywordHandling::enforced;
  // minLength/maxLength on a string that also has a pattern or format.
  KeywordHandling lengths_beside_pattern = KeywordHandling::enforced;
  // Whether the model is known to call the one named tool OutputMode::forced_tool asks for.
  // Ollama has no way to ask (its forced_tool calls go out as `format`); a generic server is sent
  // the tool choice but may not honour it.
  bool forces_tool = true;
  // Whether the API says when the model refuses (OpenAI's `refusal`, Anthropic's stop reason);
  // Ollama has no such signal, so a refusal there is only words in the content.
  bool signals_refusal = true;
  // `$defs` with local `$ref`s that do not recur (Anthropic, Gemini): a definition used in many
  // places is sent once and referred to. `recursion` implies it. Without either, each reference
  // is inlined, within LoweringBound (accord/providers/lowering_bound.hpp).
  bool references = false;
  // A `$ref` node may hold no keyword but `$`-prefixed ones (Gemini's responseJsonSchema): the
  // description beside a kept reference is left off, with a Report row.
  bool bare_references = false;
};

// The capabilities as (capability, value) rows in a fixed order, for tables.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> capability_rows(
    const SchemaCapabilities& capabilities);

}  // namespace accord
