#pragma once
// The validation engine: a JSON Schema (draft-04, -06, -07, 2019-09 or 2020-12) compiled once into
// a graph of nodes, one per schema object, each holding its keywords as units. `$ref` and
// `$dynamicRef` point at shared nodes (cycles allowed, never expanded). Every keyword decides its
// verdict and words its Zod 4 issue in one place; the same units run without a sink on the fast
// path, which builds no messages and stops at the first failure. DSL refinements and declarative
// rules (`x-accord-rules`) run in the same pass, where Zod runs them.

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "accord/issue.hpp"
#include "accord/json_view.hpp"
#include "accord/schema.hpp"
#include "accord/validate.hpp"

namespace accord::detail {

using ojson = nlohmann::ordered_json;

// The dialects, oldest first (a comparison says which came before).
enum class Draft { draft4, draft6, draft7, draft2019_09, draft2020_12 };

// Before 2019-09: `$ref` stands alone (its siblings are ignored) and `definitions`-era rules.
[[nodiscard]] constexpr bool before_2019(Draft draft) {
  return draft < Draft::draft2019_09;
}

struct EngineOptions {
  Draft default_draft = Draft::draft2020_12;  // for a document without `$schema`
  FormatMode formats = FormatMode::assertion;
  SchemaRegistry registry;
  // Apply the keywords beside a `$ref` of draft-04/06/07, as ajv does (the specification ignores
  // them).
  bool apply_ref_siblings = false;
};

// Issues for one value stop here; one more issue says how many were left out.
inline constexpr std::size_t kMaxIssues = 100;
// A value nested deeper than this is refused with one issue before anything walks it.
inline constexpr std::size_t kMaxValueDepth = 1000;
// Schema objects nested deeper than this are a SchemaError, from the engine and from the import
// alike. 256: the import's and lowering's passes recurse once per level (frames of a few KB under
// AddressSanitizer), and no provider takes a wire schema nested a tenth as deep.
inline constexpr std::size_t kMaxSchemaDepth = 256;
// The one wording of that SchemaError.
[[nodiscard]] inline std::string schema_too_deep() {
  return "the schema nests deeper than " + std::to_string(kMaxSchemaDepth) + " levels";
}

class Engine {
 public:
  // Throws SchemaError naming the path of each problem. `dsl`, when given, must outlive the
  // engine; its refinements run where the emitted schema's nodes correspond.
  Engine(const ojson& schema, const SchemaNode* dsl, const EngineOptions& options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // The engine reads a document's tape (accord/json_view.hpp); a tree is read as one
  // (JsonDocument::from_json) by the overloads that take it.
  //
  // The units without a sink (no messages, the first failure ends it), the mode union branches
  // are probed in; the tests hold it against issues(). Assumes the value is no deeper than
  // kMaxValueDepth.
  [[nodiscard]] bool accepts(JsonView value) const;
  [[nodiscard]] bool accepts(const nlohmann::json& value) const;
  // Every issue, in Zod's words and order (at most kMaxIssues, then "and N more"). A valid value
  // of a schema without unevaluated* keywords costs no allocation, so validation calls this
  // alone: a first pass without a sink would only walk an invalid value twice.
  [[nodiscard]] Issues issues(JsonView value) const;
  [[nodiscard]] Issues issues(const nlohmann::json& value) const;
  // The issues of `value` as the part at `path` of a larger value, judged by the one node that
  // judges that part whatever else the value holds; nullopt when no single node does (unions,
  // conditionals and the like on the way) or `path` is the root. What it finds, a validation of
  // the whole value finds too.
  [[nodiscard]] std::optional<Issues> issues_at(const Path& path, JsonView value) const;

  // Where a draft-04/06/07 schema writes keywords beside a `$ref` that would check something:
  // ignored as the specification says, or applied (EngineOptions::apply_ref_siblings).
  [[nodiscard]] const std::vector<Path>& keywords_beside_ref() const;

  struct Data;

 private:
  std::unique_ptr<Data> data_;
};

// True when some array or object of `value` is nested deeper than kMaxValueDepth.
[[nodiscard]] bool too_deep(const nlohmann::json& value);
[[nodiscard]] bool too_deep(JsonView value);

}  // namespace accord::detail
