#pragma once
// A Validator compiled once from a Schema (or a JSON Schema document) and reused.
//
// One engine judges and words every issue (JSON Schema draft-04 to 2020-12; pattern through the
// ECMA-262 front end, formats through accord's own checks), in Zod 4's messages and order. A
// field's refinements run when the field has the right type; an object's refinements and
// declarative rules (rules.hpp, `x-accord-rules`) run unless some issue inside it is a type
// mismatch or a missing field.

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "accord/issue.hpp"
#include "accord/json_schema.hpp"
#include "accord/json_text.hpp"
#include "accord/json_view.hpp"
#include "accord/schema.hpp"

namespace accord {

// A verdict costs no tree: the result keeps the parsed text as a document (a flat tape,
// accord/json_view.hpp), and a nlohmann::json is built only when value() is called.
struct ValidationResult {
  std::optional<JsonDocument> document;  // the parsed text (set even when it has issues)
  Issues issues;

  [[nodiscard]] bool ok() const { return document.has_value() && issues.empty(); }
  // The text parsed (it may still have issues).
  [[nodiscard]] bool parsed() const { return document.has_value(); }
  // The parsed value read in place; valid while this result lives and is not moved.
  [[nodiscard]] std::optional<JsonView> view() const {
    if (!document) return std::nullopt;
    return document->root();
  }
  // The parsed value as a tree, built anew on each call; nullopt when the text did not parse.
  [[nodiscard]] std::optional<nlohmann::json> value() const {
    if (!document) return std::nullopt;
    return document->root().to_json();
  }
};

// `format` as an assertion (the default: what users of Zod and ajv-formats expect) or, as the
// 2020-12 specification has it by default, an annotation only.
enum class FormatMode { assertion, annotation };

// Where `$ref`s to other documents come from; the network is never used. A URI is looked up in
// `documents` first (exact, without fragment), then under the longest `directories` prefix
// (`http://localhost:1234/` -> a directory: `http://localhost:1234/a/b.json` reads `DIR/a/b.json`).
// Such a file is read only when it is a regular file within kMaxSchemaFileBytes
// (accord/bounded_file.hpp); a FIFO, a device or a larger file is a schema problem naming it.
struct SchemaRegistry {
  std::map<std::string, std::string> directories;
  std::map<std::string, nlohmann::ordered_json> documents;
};

struct ValidatorOptions {
  // How a document without `$schema` is read (one with it is read as it says; a `$schema` that
  // names no dialect, directly or through a meta-schema in the registry, is a SchemaError).
  Dialect dialect = Dialect::draft2020_12;
  FormatMode formats = FormatMode::assertion;
  SchemaRegistry registry;
  // Draft-04/06/07 ignore the keywords beside a `$ref`, and so does accord by default; true
  // applies them, as ajv does (Validator::keywords_beside_ref() lists them either way).
  bool apply_ref_siblings = false;
};

class Validator {
 public:
  // Throws SchemaError for a schema with mistakes.
  explicit Validator(const Schema& schema);
  // A plain JSON Schema: draft-04, draft-06, draft-07, 2019-09 or 2020-12 as its `$schema` says
  // (options.dialect without one); throws SchemaError with the path of each problem for a
  // document that is not a usable schema.
  [[nodiscard]] static Validator from_json_schema(const nlohmann::ordered_json& json_schema,
                                                  const ValidatorOptions& options = {});

  // Safe to call from several threads at once.
  [[nodiscard]] Issues validate(const nlohmann::json& value) const;
  // `value` judged as the part at `path` of a larger value not yet complete (a streamed reply's
  // field that has just closed): the issues the whole value will have there, whatever the rest
  // turns out to be. nullopt when that cannot be known from the part alone (a union, allOf or
  // conditional on the way to it, a tuple, pattern properties, the root itself). A union with null
  // (`union_({X, null_()})`) on the way is a union too for a part that fails (the whole may word
  // its issues as the union's invalid_union); a part that fits there gives no issues.
  [[nodiscard]] std::optional<Issues> validate_part(const Path& path,
                                                    const nlohmann::json& value) const;
  [[nodiscard]] ValidationResult parse_and_validate(std::string_view text,
                                                    ParseLimits limits = {}) const;
  // The same for many texts judged one after another: each is read into `reuse`, whose tape and
  // strings keep their capacity, so a verdict allocates nothing once the document is large
  // enough. `reuse` holds the value when the text parsed, else null.
  [[nodiscard]] Issues parse_and_validate(std::string_view text, JsonDocument& reuse,
                                          ParseLimits limits = {}) const;
  // The schema paths of keywords written beside a draft-04/06/07 `$ref` that would check
  // something: ignored, as the specification says, unless ValidatorOptions::apply_ref_siblings.
  [[nodiscard]] const std::vector<Path>& keywords_beside_ref() const;

  // What a Validator holds, the compiled schema (src/validate/validator_impl.hpp): declared here
  // for the library, complete only there; no part of the API.
  struct Impl;

 private:
  explicit Validator(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

// Judges which option of a union in `json_schema` a value is, for lower_value(): `site` is where
// the union sits, as the Report writes paths (`[]` array items, `{}` record values, `|i`
// options); the answer is the first option the value is valid for, or nullopt when none is or
// no union sits there. Each union's options are compiled once, on first use.
[[nodiscard]] std::function<std::optional<std::size_t>(const nlohmann::json& value,
                                                       const Path& site)>
matching_union_option(const nlohmann::ordered_json& json_schema,
                      const ValidatorOptions& options = {});

}  // namespace accord
