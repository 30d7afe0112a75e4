#pragma once
// Repairing a reply that is right but loosely written, before a correction is paid for: the JSON
// found inside fences or prose, JSON5-like slips read as the author meant, and scalars coerced
// where the schema leaves one reading. Every repair is recorded; none is silent.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/json_text.hpp"
#include "accord/path.hpp"
#include "accord/validate.hpp"

namespace accord {

// What a reply may have repaired before it is judged.
enum class RepairPolicy {
  off,       // the text is parsed and judged as sent
  lossless,  // only repairs that lose nothing and have one reading (the default)
  lenient,   // also key letter case, numbers sent for strings, blanks around a number or boolean
};

enum class RepairKind {
  text_around_json,      // prose or a ``` fence around the one JSON value of the reply
  trailing_comma,        // `[1, 2,]`, `{"a": 1,}`
  comment,               // `// ...` or `/* ... */`
  single_quoted_string,  // 'text'
  unquoted_key,          // {key: 1}
  number_from_string,    // "42.50" where a number is asked
  boolean_from_string,   // "true" where a boolean is asked
  wrapped_in_array,      // x where an array is asked: [x]
  enum_letter_case,      // "Damaged" where the one option is "damaged"
  key_letter_case,       // lenient: "orderId" where the property is "order_id"
  string_from_number,    // lenient: 42 where a string is asked: "42"
};

[[nodiscard]] std::string_view to_string(RepairPolicy policy);
// The policy to_string names ("off", "lossless", "lenient"), or nullopt.
[[nodiscard]] std::optional<RepairPolicy> repair_policy_named(std::string_view name);
[[nodiscard]] std::string_view to_string(RepairKind kind);
// True for the kinds `lossless` allows; `lenient` allows every kind.
[[nodiscard]] bool lossless(RepairKind kind);

struct Repair {
  RepairKind kind;
  Path path;           // where in the value (the root for text around it)
  std::string before;  // what the reply had there (JSON or text, shortened past 120 bytes)
  std::string after;   // what it became ("" for text dropped)

  friend bool operator==(const Repair&, const Repair&) = default;
};

using Repairs = std::vector<Repair>;

// One line for a person, printable: `number_from_string at amount: "42.50" -> 42.5`.
[[nodiscard]] std::string describe(const Repair& repair);

// One repair a policy allows at one place of a schema: what to expect of a reply before any
// arrives (`accord schema --repair`). Paths are the Report's: `items[]` for every element.
struct RepairAllowance {
  Path path;  // the root for the text repairs, which may apply anywhere in the reply
  RepairKind kind;

  friend bool operator==(const RepairAllowance&, const RepairAllowance&) = default;
};

// Every repair `policy` allows for replies to `json_schema`: the text repairs (at the root), then
// each place where the schema's types or options leave a loosely written value one reading
// (`amount: number_from_string`), in schema order. Empty for `off`.
[[nodiscard]] std::vector<RepairAllowance> repairs_allowed(
    const nlohmann::ordered_json& json_schema, RepairPolicy policy);

// Strict JSON text for `text` when reading it took text repairs: the one JSON value in it found
// (past fences and prose; `root_is_array` says which of `{`/`[` the schema's root is, so a
// bracketed aside in prose is no second reading), JSON5-like slips written out. nullopt when the
// text needs none, or when there is no single reading (two values, NaN, an unclosed comment...):
// the reply then goes to the correction loop as sent.
struct RepairedText {
  std::string json;
  Repairs repairs;
};
[[nodiscard]] std::optional<RepairedText> repair_json_text(std::string_view text,
                                                           RepairPolicy policy,
                                                           std::optional<bool> root_is_array = {});

// Coerces, in place, the scalars of `value` that fail the type or enum `json_schema` gives them
// where the schema leaves exactly one reading (a union with a string option keeps "42" a
// string); returns what it changed, in document order.
[[nodiscard]] Repairs repair_value(nlohmann::json& value, const nlohmann::ordered_json& json_schema,
                                   RepairPolicy policy);

// The two steps as the loop takes them. Text parsed as JSON (a key repeated in one object is an
// issue), read through repair_json_text when it does not parse as sent.
struct RepairedParse {
  ParsedJson parsed;
  Repairs repairs;  // the text repairs it took
};
[[nodiscard]] RepairedParse parse_with_repairs(std::string_view text, RepairPolicy policy,
                                               std::optional<bool> root_is_array = {});

// `value`'s scalars coerced (repair_value) when that makes it valid for `validator`, and the
// repairs that did; otherwise `value` is left as it was and no repair is returned, so what is
// corrected is always what the model sent.
[[nodiscard]] Repairs repair_to_valid(nlohmann::json& value,
                                      const nlohmann::ordered_json& json_schema,
                                      const Validator& validator, RepairPolicy policy);

// Text judged as the extraction loop judges a reply, where no provider's lowering stands between
// the text and the schema (`accord validate --repair`, a file of replies): parsed through its
// text repairs, validated, its scalars repaired when that makes it valid. `value` is set when the
// text parsed; `issues` are those of the value as it parsed when repairs do not make it valid.
struct RepairedVerdict {
  std::optional<nlohmann::json> value;
  Issues issues;
  Repairs repairs;
};
[[nodiscard]] RepairedVerdict judge_with_repairs(std::string_view text, const Validator& validator,
                                                 const nlohmann::ordered_json& json_schema,
                                                 RepairPolicy policy,
                                                 std::optional<bool> root_is_array = {});

}  // namespace accord
