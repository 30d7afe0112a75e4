#pragma once
// The engine's compiled form: one Node per schema object, each holding its keywords' compiled
// values and the units that check them, in a flat vector addressed by NodeId. Built by the
// compiler (validate/compiler.hpp), read by an evaluation (validate/evaluation.hpp).

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/json_access.hpp"
#include "core/json_types.hpp"
#include "schema/rule_evaluation.hpp"
#include "schema/schema_definitions.hpp"
#include "text/ecma_regex.hpp"
#include "text/simple_pattern.hpp"
#include "text/string_formats.hpp"
#include "validate/engine.hpp"
#include "validate/field_defaults.hpp"
#include "validate/known_text.hpp"

namespace accord::detail {

using json = nlohmann::json;
using NodeId = std::uint32_t;

// A compiled `pattern`: the byte-loop matcher when the pattern is in its subset (the common
// anchored ones), RE2 or PCRE2 (ecma_regex.hpp) for everything else. All give the same verdict.
struct Regex {
  std::shared_ptr<const EcmaRegex> full;
  std::optional<SimplePattern> simple;

  explicit operator bool() const { return full != nullptr; }
  [[nodiscard]] bool search(std::string_view text, BacktrackingBudget& budget) const {
    return simple ? simple->search(text) : full->search(text, budget);
  }
  [[nodiscard]] bool backtracks() const { return !simple && full->backtracks(); }
};

constexpr NodeId kNone = 0xFFFFFFFFu;

// The keyword units a node runs after its type, in the order its keywords are written (the
// order Zod reports issues in).
enum class Unit : std::uint8_t {
  items,
  min_items,
  max_items,
  unique_items,
  contains,
  min_length,
  max_length,
  format,
  pattern,
  minimum,
  maximum,
  exclusive_minimum,
  exclusive_maximum,
  multiple_of,
  object,
  min_properties,
  max_properties,
  property_names,
  dependent_required,
  dependent_schemas,
  all_of,
  not_,
  conditional,
};

// A leaf whose every unit is a bound of one kind of value, checked at once where the leaf is
// visited (Run::visit): a string's lengths, checked format and a pattern of SimplePattern's subset;
// a number's minimum, maximum and exclusive forms, each exact as a double. A value inside them
// all (most values) is judged without the unit loop; any other goes through the units, which
// word the issues (validate/quick_bounds.hpp).
enum class QuickBounds : std::uint8_t { none, string, number };

struct Node {
  const ojson* source = nullptr;
  std::uint32_t resource = 0;
  bool boolean = false;
  bool allows = true;
  bool ref_only = false;  // before 2019-09: keywords beside `$ref` are ignored
  bool tracks = false;    // has unevaluated*: its in-place applicators say what they evaluated
  // Any step beyond the kind check, the units and the refinements: boolean, ref_only, nullable,
  // $ref, $dynamicRef, unevaluated*, anyOf/oneOf, a tuple. Set once everything is compiled
  // (Compiler::finish), so a plain node (most of them) skips those steps on one test.
  bool wrapped = false;
  // Checks the value's own text or number alone: not wrapped, no unevaluated*, no x-accord-rules
  // and no unit that reaches a sub-node (items, properties, applicators). A present value is then
  // judged by Run::leaf, without the steps a node with sub-nodes needs (set by Compiler::finish).
  bool leaf = false;
  QuickBounds quick_bounds = QuickBounds::none;  // set by Compiler::finish for a leaf

  std::vector<Unit> units;
  const ojson* enum_source = nullptr;
  std::vector<json> enum_values;
  // The enum's options as text when every one is a string (Zod's enums): compared in place.
  std::optional<KnownTexts> enum_strings;
  const ojson* const_source = nullptr;
  json const_value;
  // The issues of a failed enum and const, worded when compiled: they do not depend on the value.
  std::string enum_message;
  std::string const_message;
  unsigned types = 0;
  std::string type_expected;  // the name a type issue says was expected (the first not "null")

  NodeId ref = kNone;
  NodeId dynamic_ref = kNone;
  std::string dynamic_anchor;  // set when the $dynamicRef is dynamic
  NodeId nullable_inner = kNone;
  // Which of the nullable wrapper's two anyOf options nullable_inner is (0 or 1); where the
  // wrapper is a DSL union of an option and null, the union's option at the same place.
  std::uint8_t nullable_option = 0;
  // Set by bind_dsl: this nullable wrapper is a DSL union of an option and null (not a
  // .nullable()), so the option's DSL node judges nullable_inner and the union's own refinements
  // run at the wrapper.
  bool union_with_null = false;
  std::vector<NodeId> any_of;
  std::vector<NodeId> one_of;
  std::vector<NodeId> all_of;
  std::optional<std::string> discriminator;  // oneOf's tag
  std::vector<json> tag_values;              // the tag's const in each oneOf option

  std::optional<std::uint64_t> min_length;
  std::optional<std::uint64_t> max_length;
  Regex pattern;
  std::string pattern_source;
  std::string pattern_issue;  // the words of a failed `pattern`, made when compiled
  std::string format;
  FormatCheck format_check = nullptr;  // null for a format accord does not check
  std::string_view format_issue;  // the words of a failed `format` (a literal), found when compiled
  // emit()'s date pattern beside an asserted `date` format: a date the format check passed
  // matches it, so it is searched only when that check failed.
  bool pattern_follows_format = false;

  json minimum;
  json maximum;
  json exclusive_minimum;
  json exclusive_maximum;
  // The four bounds read as numbers once (null above leaves them unread).
  NumberValue minimum_number;
  NumberValue maximum_number;
  NumberValue exclusive_minimum_number;
  NumberValue exclusive_maximum_number;
  // The four bounds as doubles when quick_bounds is number (an absent one infinite).
  double quick_minimum = -std::numeric_limits<double>::infinity();
  double quick_maximum = std::numeric_limits<double>::infinity();
  double quick_exclusive_minimum = -std::numeric_limits<double>::infinity();
  double quick_exclusive_maximum = std::numeric_limits<double>::infinity();
  json multiple_of;

  bool tuple = false;
  std::vector<NodeId> prefix;
  NodeId rest = kNone;
  std::optional<std::uint64_t> min_items;
  std::optional<std::uint64_t> max_items;
  bool unique = false;
  NodeId contains = kNone;
  std::optional<std::uint64_t> min_contains;
  std::optional<std::uint64_t> max_contains;
  NodeId unevaluated_items = kNone;

  std::vector<std::pair<std::string, NodeId>> properties;
  // `properties` by name (each name with its index in `properties`), in std::map's key order, the
  // order a value's members come in: one pass over both finds every declared property's value.
  struct PropertyByName {
    KnownText name;
    std::uint32_t index;
  };
  std::vector<PropertyByName> properties_by_name;
  std::vector<std::string> required;
  // The DSL node a value usually reaches this node with (bound when the engine is built): a walk
  // that comes with it takes each property's DSL node from its PropertyStep instead of looking it
  // up by name.
  const SchemaNode* usual_dsl = nullptr;
  // Some field at or below usual_dsl (refs followed) declares a default: only then (or under
  // another DSL node) do its refinements need the value with defaults filled in.
  bool usual_dsl_has_defaults = false;
  // What the object keywords' loop reads of each entry of `properties`, in one record per entry,
  // in order (set by Compiler::finish, the DSL half by the engine's bind_dsl): the loop reads one
  // record after another instead of the entry, the node table, a bit vector and the DSL list.
  struct PropertyStep {
    std::string_view name;  // points into `properties`
    NodeId id;
    const Node* node;  // the node of `id`: nodes are not moved once compiled
    bool required;
    // The DSL node of the property under usual_dsl (field_node of it), and whether it carries
    // refinements.
    bool refined = false;
    const SchemaNode* dsl = nullptr;
  };
  std::vector<PropertyStep> property_steps;
  std::vector<std::string> required_undeclared;  // required names `properties` leaves out
  std::vector<std::pair<Regex, NodeId>> pattern_properties;
  NodeId additional = kNone;
  NodeId property_names = kNone;
  std::optional<std::uint64_t> min_properties;
  std::optional<std::uint64_t> max_properties;
  std::vector<std::pair<std::string, std::vector<std::string>>> dependent_required;
  std::vector<std::pair<std::string, NodeId>> dependent_schemas;
  NodeId unevaluated_properties = kNone;

  NodeId not_ = kNone;
  NodeId if_ = kNone;
  NodeId then_ = kNone;
  NodeId else_ = kNone;
  // The `if` in words, as a missing property's issue under `then` ("when ...") or `else`
  // ("unless ...") says it.
  std::string when_then;
  std::string when_else;
  std::vector<CompiledRule> rules;
};

struct Resource {
  std::string uri;
  const ojson* root = nullptr;
  Draft draft = Draft::draft2020_12;
  std::map<std::string, const ojson*> anchors;
  std::map<std::string, const ojson*> dynamic_anchors;
  std::map<std::string, NodeId> dynamic_nodes;  // filled once everything is compiled
};

struct Engine::Data {
  std::vector<std::unique_ptr<ojson>> documents;  // the root first, then remote documents
  std::vector<Node> nodes;
  std::vector<Resource> resources;
  NodeId root = 0;
  const SchemaNode* dsl = nullptr;
  // The DSL schema's named definitions: at a `$ref` emit() wrote for a ref, its definition's node
  // goes on beside the JSON one, so refinements run at every depth of a recursive schema.
  SchemaDefinitions definitions;
  // Where the DSL schema's field defaults lie, and the unions whose choice a refinement's filling
  // needs (validate/field_defaults.hpp).
  FieldDefaults defaults;
  // A DSL schema's formats mean what Zod's do; a JSON Schema file's what the specification says.
  FormatRules format_rules = FormatRules::json_schema;
  // Some $dynamicRef resolves through the dynamic scope: only then does an evaluation keep the
  // list of resources it entered (otherwise the fast pass allocates nothing).
  bool dynamic_scope = false;
  // The keywords beside a draft-04/06/07 `$ref` that would check something, by schema path:
  // ignored as the specification says, applied when EngineOptions::apply_ref_siblings.
  std::vector<Path> keywords_beside_ref;
};

}  // namespace accord::detail
