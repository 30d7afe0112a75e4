#pragma once
// Compiling a JSON Schema into the engine's nodes (validate/node.hpp): resources, `$id`s and
// anchors, references resolved once everything is compiled. Each keyword of a schema object is
// compiled by its row's step in the keyword table (validate/keyword_table.hpp), which the
// keyword's family file (validate/keywords/) defines; KeywordCompiler is what such a step gets.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "validate/keyword_table.hpp"
#include "validate/node.hpp"

namespace accord::detail {

// The keyword table's bit for `draft` (DialectBit follows Draft's order).
[[nodiscard]] constexpr std::uint8_t dialect_bit(Draft draft) {
  return static_cast<std::uint8_t>(1U << static_cast<unsigned>(draft));
}

// What a reference keyword resolves through: `$ref` statically, `$dynamicRef` (2020-12) and
// `$recursiveRef` (2019-09) through the dynamic scope when their first target says so.
enum class RefKind : std::uint8_t { plain, dynamic, recursive };

// The name a 2019-09 `"$recursiveAnchor": true` is kept under among a resource's dynamic anchors
// (no `$dynamicAnchor` can be spelled with '#').
inline constexpr std::string_view kRecursiveAnchor = "#";

// A document another one refers to, read from `registry` (its documents, then the longest
// directory prefix) or the bundled meta-schemas; without one, a problem naming the URI.
struct RegisteredDocument {
  std::optional<ojson> document;
  std::string problem;
};
[[nodiscard]] RegisteredDocument registered_document(const SchemaRegistry& registry,
                                                     const std::string& uri);

class Compiler {
 public:
  Compiler(Engine::Data& data, const EngineOptions& options) : d_(data), options_(options) {}

  // Compiles `root` and everything it references; throws SchemaError naming every problem.
  void run(const ojson& root);

 private:
  friend struct KeywordCompiler;

  struct PendingRef {
    NodeId node;
    std::string uri;  // absolute, with fragment
    RefKind kind;
    Path path;
    Draft draft;
  };

  Draft dialect_of(const ojson& schema, Draft fallback, const Path& path);
  const ojson* load_quietly(const std::string& uri);
  bool uses_validation_vocabulary(const ojson& root);
  void problem(const Path& path, std::string message);
  NodeId compile_document(const ojson& document, const std::string& uri, Draft draft,
                          const Path& path);
  NodeId compile(const ojson& schema, std::string base, Draft draft, std::uint32_t resource,
                 const Path& path, std::size_t depth);
  std::optional<NodeId> target(const std::string& uri, Draft draft, const Path& path);
  const ojson* load(const std::string& uri, const Path& path);
  void resolve_refs();
  void finish();
  const Node& through_refs(NodeId id) const;
  void find_discriminator(Node& node);

  Engine::Data& d_;
  const EngineOptions& options_;
  std::vector<SchemaProblem> problems_;
  std::unordered_map<const ojson*, NodeId> memo_;
  std::map<std::string, std::uint32_t> by_uri_;
  std::vector<PendingRef> pending_;
  std::unordered_map<std::string, Regex> regexes_;
  bool validation_vocabulary_ = true;
};

// One schema object being compiled, as a keyword's compile step sees it: the node its keywords
// fill in, and the helpers every family shares (subschemas, counts, numbers, patterns, problems).
struct KeywordCompiler {
  Compiler& c;
  NodeId id;
  std::string base;
  Draft draft;
  std::uint32_t resource;
  const Path& path;
  std::size_t depth;
  const ojson& schema;

  Node& node() { return c.d_.nodes[id]; }
  [[nodiscard]] bool modern() const { return draft == Draft::draft2020_12; }
  void problem(const Path& at, std::string message) { c.problem(at, std::move(message)); }
  // Compiles a subschema one level down.
  NodeId sub(const ojson& schema, const Path& at);
  // Adds a unit to the node's list once, where its keyword is written.
  void add_unit(Unit unit);
  // `key`'s array of schemas, each compiled; a problem when it is not one.
  std::vector<NodeId> list(const ojson& value, const std::string& key, const Path& at,
                           bool non_empty);
  // `key`'s object of schemas, each compiled, by name; a problem when it is not an object.
  std::vector<std::pair<std::string, NodeId>> map(const ojson& value, const std::string& key,
                                                  const Path& at);
  // A non-negative integer (a float with no fraction counts), or a problem.
  std::optional<std::uint64_t> count(const ojson& value, const Path& at, const std::string& key);
  // A number, as the engine compares it, or a problem and null.
  json number(const ojson& value, const Path& at, const std::string& key);
  // A compiled pattern (compiled once per source), or a problem and an empty Regex.
  Regex regex(const ojson& value, const Path& at);
  // A `$ref`-like keyword, resolved once everything is compiled.
  void reference(const ojson& value, const Path& at, const std::string& key, RefKind kind);
  // Whether `keyword` is one of this schema object's dialect (its row's dialect bits).
  [[nodiscard]] bool reads(std::string_view keyword) const;
  // Every compiled node, to look at the ones compiled before.
  [[nodiscard]] const Engine::Data& data() const { return c.d_; }
  [[nodiscard]] const EngineOptions& options() const { return c.options_; }
  // The whole document the schema object is in (the root one).
  [[nodiscard]] const ojson& root_document() const { return *c.d_.documents.front(); }
  [[nodiscard]] std::vector<SchemaProblem>& problems() { return c.problems_; }
  // The keywords beside a `$ref` before 2019-09 (Engine::keywords_beside_ref()).
  [[nodiscard]] std::vector<Path>& beside_ref() { return c.d_.keywords_beside_ref; }
};

}  // namespace accord::detail
