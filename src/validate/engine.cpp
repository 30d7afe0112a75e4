#include "validate/engine.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "accord/bounded_file.hpp"
#include "text/condition_words.hpp"
#include "text/ecma_regex.hpp"
#include "core/json_number.hpp"
#include "schema/meta_schemas.hpp"
#include "schema/rule_checks.hpp"
#include "schema/rule_evaluation.hpp"
#include "schema/schema_definitions.hpp"
#include "schema/schema_uri.hpp"
#include "text/simple_pattern.hpp"
#include "text/string_formats.hpp"

namespace accord::detail {
namespace {

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
// Schema hops (applicators and $refs) for one value; past it a recursive schema is cut off with
// an issue instead of exhausting the stack. Each hop is a few frames: under AddressSanitizer
// about 10 KB, so 1,000 hops overflowed an 8 MiB stack; 400 leaves half of it free.
constexpr std::size_t kMaxEvalDepth = 400;

// Zod 4.x marks unrecognized_keys `continue: true`: extra keys do not stop refinements.
constexpr bool kUnrecognizedKeysAbort = false;
// The pattern emit() adds beside format "date"; not reported again when the date check fails.
constexpr std::string_view kDatePattern = R"(^\d{4}-\d{2}-\d{2}$)";

enum TypeBit : unsigned {
  kNull = 1,
  kBoolean = 2,
  kObject = 4,
  kArray = 8,
  kNumber = 16,
  kString = 32,
  kInteger = 64,
};

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

struct Node {
  const ojson* source = nullptr;
  std::uint32_t resource = 0;
  bool boolean = false;
  bool allows = true;
  bool ref_only = false;  // draft-07: keywords beside `$ref` are ignored
  bool tracks = false;    // has unevaluated*: its in-place applicators say what they evaluated

  std::vector<Unit> units;
  const ojson* enum_source = nullptr;
  std::vector<json> enum_values;
  const ojson* const_source = nullptr;
  json const_value;
  unsigned types = 0;
  std::vector<std::string> type_names;

  NodeId ref = kNone;
  NodeId dynamic_ref = kNone;
  std::string dynamic_anchor;  // set when the $dynamicRef is dynamic
  NodeId nullable_inner = kNone;
  std::vector<NodeId> any_of;
  std::vector<NodeId> one_of;
  std::vector<NodeId> all_of;
  std::optional<std::string> discriminator;  // oneOf's tag
  std::vector<json> tag_values;              // the tag's const in each oneOf option

  std::optional<std::uint64_t> min_length;
  std::optional<std::uint64_t> max_length;
  Regex pattern;
  std::string pattern_source;
  std::string format;
  FormatCheck format_check = nullptr;  // null for a format accord does not check

  json minimum;
  json maximum;
  json exclusive_minimum;
  json exclusive_maximum;
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
  std::vector<std::string> required;
  std::vector<bool> property_required;           // per entry of `properties`
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
  std::vector<Rule> rules;
};

struct Resource {
  std::string uri;
  const ojson* root = nullptr;
  Draft draft = Draft::draft2020_12;
  std::map<std::string, const ojson*> anchors;
  std::map<std::string, const ojson*> dynamic_anchors;
  std::map<std::string, NodeId> dynamic_nodes;  // filled once everything is compiled
};

}  // namespace

struct Engine::Data {
  std::vector<std::unique_ptr<ojson>> documents;  // the root first, then remote documents
  std::vector<Node> nodes;
  std::vector<Resource> resources;
  NodeId root = 0;
  const SchemaNode* dsl = nullptr;
  // The DSL schema's named definitions: at a `$ref` emit() wrote for a ref, its definition's node
  // goes on beside the JSON one, so refinements run at every depth of a recursive schema.
  SchemaDefinitions definitions;
  // A DSL schema's formats mean what Zod's do; a JSON Schema file's what the specification says.
  FormatRules format_rules = FormatRules::json_schema;
  // Some $dynamicRef resolves through the dynamic scope: only then does an evaluation keep the
  // list of resources it entered (otherwise the fast pass allocates nothing).
  bool dynamic_scope = false;
};

namespace {

// ---- compiling ----

Draft draft_of(const ojson& schema, Draft fallback) {
  if (!schema.is_object()) return fallback;
  auto it = schema.find("$schema");
  if (it == schema.end() || !it->is_string()) return fallback;
  const auto& uri = it->get_ref<const std::string&>();
  for (const char* old : {"draft-07", "draft-06", "draft-04", "draft-03"}) {
    if (uri.find(old) != std::string::npos) return Draft::draft7;
  }
  return Draft::draft2020_12;
}

class Compiler {
 public:
  Compiler(Engine::Data& data, const EngineOptions& options) : d_(data), options_(options) {}

  void run(const ojson& root) {
    const Draft draft = draft_of(root, options_.default_draft);
    validation_vocabulary_ = draft == Draft::draft7 || uses_validation_vocabulary(root);
    d_.root = compile_document(root, "", draft, Path{});
    resolve_refs();
    if (problems_.empty()) finish();
    if (!problems_.empty()) throw SchemaError(problems_);
  }

 private:
  struct PendingRef {
    NodeId node;
    std::string uri;  // absolute, with fragment
    bool dynamic;
    Path path;
    Draft draft;
  };

  // A custom 2020-12 meta-schema (from the registry) may leave out the validation vocabulary;
  // its keywords are then annotations. An unknown meta-schema changes nothing.
  bool uses_validation_vocabulary(const ojson& root) {
    auto schema = root.is_object() ? root.find("$schema") : root.end();
    if (!root.is_object() || schema == root.end() || !schema->is_string()) return true;
    const auto uri = strip_fragment(schema->get<std::string>());
    if (!meta_schema(uri).empty()) return true;
    const std::size_t problems = problems_.size();
    const ojson* meta = load(uri, Path{});
    problems_.resize(problems);
    if (meta == nullptr || !meta->is_object()) return true;
    auto vocabulary = meta->find("$vocabulary");
    if (vocabulary == meta->end() || !vocabulary->is_object()) return true;
    return vocabulary->contains("https://json-schema.org/draft/2020-12/vocab/validation");
  }

  static bool validation_keyword(std::string_view key) {
    static const std::set<std::string_view> kKeywords = {"type",          "enum",
                                                         "const",         "multipleOf",
                                                         "maximum",       "exclusiveMaximum",
                                                         "minimum",       "exclusiveMinimum",
                                                         "maxLength",     "minLength",
                                                         "pattern",       "maxItems",
                                                         "minItems",      "uniqueItems",
                                                         "maxContains",   "minContains",
                                                         "maxProperties", "minProperties",
                                                         "required",      "dependentRequired"};
    return kKeywords.count(key) != 0;
  }

  void problem(const Path& path, std::string message) {
    problems_.push_back(SchemaProblem{path, std::move(message)});
  }

  NodeId compile_document(const ojson& document, const std::string& uri, Draft draft,
                          const Path& path) {
    const auto resource = static_cast<std::uint32_t>(d_.resources.size());
    d_.resources.push_back(Resource{uri, &document, draft, {}, {}, {}});
    by_uri_[uri] = resource;
    return compile(document, uri, draft, resource, path, 0);
  }

  NodeId compile(const ojson& schema, std::string base, Draft draft, std::uint32_t resource,
                 const Path& path, std::size_t depth) {
    if (auto it = memo_.find(&schema); it != memo_.end()) return it->second;
    if (depth > kMaxSchemaDepth) {
      problem(path,
              "the schema is nested deeper than " + std::to_string(kMaxSchemaDepth) + " levels");
      return kNone;
    }
    const auto id = static_cast<NodeId>(d_.nodes.size());
    memo_[&schema] = id;
    d_.nodes.emplace_back();
    d_.nodes[id].source = &schema;
    if (schema.is_boolean()) {
      d_.nodes[id].boolean = true;
      d_.nodes[id].allows = schema.get<bool>();
      d_.nodes[id].resource = resource;
      return id;
    }
    if (!schema.is_object()) {
      problem(path, "a schema must be an object or a boolean");
      d_.nodes[id].boolean = true;
      return id;
    }
    if (depth > 0) draft = draft_of(schema, draft);
    const bool has_ref = schema.contains("$ref");
    // A new base URI (and resource) where `$id` says; draft-07 ignores `$id` beside `$ref`.
    if (auto it = schema.find("$id"); it != schema.end() && !(draft == Draft::draft7 && has_ref)) {
      if (!it->is_string()) {
        problem(path / std::string("$id"), "$id must be a string");
      } else {
        const auto target = resolve_uri(base, it->get<std::string>());
        const auto [uri, fragment] = split_fragment(target);
        if (uri != strip_fragment(base) || fragment.empty()) {
          base = uri;
          resource = static_cast<std::uint32_t>(d_.resources.size());
          d_.resources.push_back(Resource{uri, &schema, draft, {}, {}, {}});
          by_uri_[uri] = resource;
        }
        // draft-07's location-independent identifiers: "$id": "#name" (or "uri#name").
        if (draft == Draft::draft7 && !fragment.empty() && fragment[0] != '/') {
          d_.resources[resource].anchors[fragment] = &schema;
        }
      }
    }
    d_.nodes[id].resource = resource;
    if (auto it = schema.find("$anchor"); it != schema.end() && it->is_string()) {
      d_.resources[resource].anchors[it->get<std::string>()] = &schema;
    }
    if (auto it = schema.find("$dynamicAnchor");
        it != schema.end() && it->is_string() && draft == Draft::draft2020_12) {
      d_.resources[resource].anchors[it->get<std::string>()] = &schema;
      d_.resources[resource].dynamic_anchors[it->get<std::string>()] = &schema;
    }
    Keywords k{*this, id, base, draft, resource, path, depth};
    k.compile(schema);
    return id;
  }

  // One schema object's keywords.
  struct Keywords {
    Compiler& c;
    NodeId id;
    std::string base;
    Draft draft;
    std::uint32_t resource;
    const Path& path;
    std::size_t depth;

    Node& node() { return c.d_.nodes[id]; }
    NodeId sub(const ojson& schema, const Path& at) {
      return c.compile(schema, base, draft, resource, at, depth + 1);
    }
    void add_unit(Unit unit) {
      auto& units = node().units;
      if (std::find(units.begin(), units.end(), unit) == units.end()) units.push_back(unit);
    }
    std::vector<NodeId> list(const ojson& value, const std::string& key, const Path& at,
                             bool non_empty) {
      std::vector<NodeId> out;
      if (!value.is_array() || (non_empty && value.empty())) {
        c.problem(at, key + (non_empty ? " must be a non-empty array" : " must be an array") +
                          " of schemas");
        return out;
      }
      for (std::size_t i = 0; i < value.size(); ++i) out.push_back(sub(value[i], at / i));
      return out;
    }
    std::optional<std::uint64_t> count(const ojson& value, const Path& at, const std::string& key) {
      if (value.is_number_unsigned()) return value.get<std::uint64_t>();
      if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
        return static_cast<std::uint64_t>(value.get<std::int64_t>());
      }
      if (value.is_number_float()) {
        const double number = value.get<double>();
        if (number >= 0 && std::trunc(number) == number) {
          return number < 1.8e19 ? static_cast<std::uint64_t>(number)
                                 : std::numeric_limits<std::uint64_t>::max();
        }
      }
      c.problem(at, key + " must be a non-negative integer");
      return std::nullopt;
    }
    json number(const ojson& value, const Path& at, const std::string& key) {
      if (!value.is_number()) {
        c.problem(at, key + " must be a number");
        return nullptr;
      }
      return json::parse(value.dump());
    }
    Regex regex(const ojson& value, const Path& at) {
      if (!value.is_string()) {
        c.problem(at, "pattern must be a string");
        return {};
      }
      const auto source = value.get<std::string>();
      if (auto it = c.regexes_.find(source); it != c.regexes_.end()) return it->second;
      auto compiled = compile_ecma_regex(source);
      if (!compiled.regex) {
        c.problem(at, "pattern /" + source + "/ cannot be used: " + compiled.error);
        return {};
      }
      Regex out{compiled.regex, SimplePattern::compile(source)};
      c.regexes_.emplace(source, out);
      return out;
    }

    void compile(const ojson& schema) {
      const bool modern = draft == Draft::draft2020_12;
      const bool has_prefix = modern && schema.contains("prefixItems");
      for (const auto& [key, value] : schema.items()) {
        const Path at = path / key;
        if (!c.validation_vocabulary_ && validation_keyword(key)) continue;
        if (key == "$ref") {
          if (!value.is_string()) {
            c.problem(at, "$ref must be a string");
          } else {
            c.pending_.push_back(
                {id, resolve_uri(base, value.get<std::string>()), false, at, draft});
            node().ref_only = draft == Draft::draft7;
          }
        } else if (key == "$dynamicRef" && modern) {
          if (!value.is_string()) {
            c.problem(at, "$dynamicRef must be a string");
          } else {
            c.pending_.push_back(
                {id, resolve_uri(base, value.get<std::string>()), true, at, draft});
          }
        } else if (key == "type") {
          type(value, at);
        } else if (key == "enum") {
          if (!value.is_array()) {
            c.problem(at, "enum must be an array");
            continue;
          }
          node().enum_source = &value;
          for (const auto& option : value) node().enum_values.push_back(json::parse(option.dump()));
        } else if (key == "const") {
          node().const_source = &value;
          node().const_value = json::parse(value.dump());
        } else if (key == "anyOf" || key == "oneOf" || key == "allOf") {
          auto options = list(value, key, at, true);
          if (key == "allOf") {
            node().all_of = std::move(options);
            add_unit(Unit::all_of);
          } else if (key == "oneOf") {
            node().one_of = std::move(options);
          } else if (nullable_pair(value)) {
            const bool first_is_null = value[0] == ojson{{"type", "null"}};
            node().nullable_inner = options.empty() ? kNone : options[first_is_null ? 1 : 0];
          } else {
            node().any_of = std::move(options);
          }
        } else if (key == "not") {
          node().not_ = sub(value, at);
          add_unit(Unit::not_);
        } else if (key == "if" || key == "then" || key == "else") {
          const NodeId target = sub(value, at);
          (key == "if" ? node().if_ : key == "then" ? node().then_ : node().else_) = target;
          if (key == "if") {
            const auto words = branch_words(value, Mood::condition);
            node().when_then = "when " + words;
            node().when_else = "unless " + words;
          }
          add_unit(Unit::conditional);
        } else if (key == "minLength" || key == "maxLength") {
          (key == "minLength" ? node().min_length : node().max_length) = count(value, at, key);
          add_unit(key == "minLength" ? Unit::min_length : Unit::max_length);
        } else if (key == "pattern") {
          node().pattern = regex(value, at);
          if (value.is_string()) node().pattern_source = value.get<std::string>();
          add_unit(Unit::pattern);
        } else if (key == "format") {
          if (!value.is_string()) {
            c.problem(at, "format must be a string");
            continue;
          }
          if (c.options_.formats == FormatMode::assertion) {
            node().format = value.get<std::string>();
            node().format_check = format_check(node().format, c.d_.format_rules);
            add_unit(Unit::format);
          }
        } else if (key == "minimum" || key == "maximum" || key == "exclusiveMinimum" ||
                   key == "exclusiveMaximum") {
          json bound = number(value, at, key);
          if (key == "minimum") {
            node().minimum = std::move(bound);
            add_unit(Unit::minimum);
          } else if (key == "maximum") {
            node().maximum = std::move(bound);
            add_unit(Unit::maximum);
          } else if (key == "exclusiveMinimum") {
            node().exclusive_minimum = std::move(bound);
            add_unit(Unit::exclusive_minimum);
          } else {
            node().exclusive_maximum = std::move(bound);
            add_unit(Unit::exclusive_maximum);
          }
        } else if (key == "multipleOf") {
          if (!value.is_number() || value.get<double>() <= 0) {
            c.problem(at, "multipleOf must be a number above 0");
            continue;
          }
          node().multiple_of = json::parse(value.dump());
          add_unit(Unit::multiple_of);
        } else if (key == "prefixItems" && modern) {
          node().prefix = list(value, key, at, false);
          node().tuple = true;
          add_unit(Unit::items);
        } else if (key == "items") {
          if (value.is_array()) {
            node().prefix = list(value, key, at, false);
            node().tuple = true;
          } else {
            node().rest = sub(value, at);
            node().tuple = node().tuple || has_prefix;
          }
          add_unit(Unit::items);
        } else if (key == "additionalItems") {
          // draft-07's tuple form; a 2020-12 document that writes it gets draft-07's meaning.
          if (schema.contains("items") && schema["items"].is_array()) {
            node().rest = sub(value, at);
            add_unit(Unit::items);
          } else {
            (void)sub(value, at);
          }
        } else if (key == "minItems" || key == "maxItems") {
          (key == "minItems" ? node().min_items : node().max_items) = count(value, at, key);
          add_unit(key == "minItems" ? Unit::min_items : Unit::max_items);
        } else if (key == "uniqueItems") {
          node().unique = value.is_boolean() && value.get<bool>();
          if (node().unique) add_unit(Unit::unique_items);
        } else if (key == "contains") {
          node().contains = sub(value, at);
          add_unit(Unit::contains);
        } else if ((key == "minContains" || key == "maxContains") && modern) {
          (key == "minContains" ? node().min_contains : node().max_contains) =
              count(value, at, key);
        } else if (key == "unevaluatedItems" && modern) {
          node().unevaluated_items = sub(value, at);
          node().tracks = true;
        } else if (key == "unevaluatedProperties" && modern) {
          node().unevaluated_properties = sub(value, at);
          node().tracks = true;
        } else if (key == "properties") {
          if (!value.is_object()) {
            c.problem(at, "properties must be an object");
            continue;
          }
          for (const auto& [name, property] : value.items()) {
            const NodeId target = sub(property, at / name);
            node().properties.emplace_back(name, target);
          }
          add_unit(Unit::object);
        } else if (key == "patternProperties") {
          if (!value.is_object()) {
            c.problem(at, "patternProperties must be an object");
            continue;
          }
          for (const auto& [source, property] : value.items()) {
            Regex compiled = regex(ojson(source), at / source);
            const NodeId target = sub(property, at / source);
            if (compiled) node().pattern_properties.emplace_back(std::move(compiled), target);
          }
          add_unit(Unit::object);
        } else if (key == "additionalProperties") {
          node().additional = sub(value, at);
          add_unit(Unit::object);
        } else if (key == "required") {
          if (!value.is_array() || std::any_of(value.begin(), value.end(),
                                               [](const ojson& v) { return !v.is_string(); })) {
            c.problem(at, "required must be an array of property names");
            continue;
          }
          for (const auto& name : value) node().required.push_back(name.get<std::string>());
          add_unit(Unit::object);
        } else if (key == "propertyNames") {
          node().property_names = sub(value, at);
          add_unit(Unit::property_names);
        } else if (key == "minProperties" || key == "maxProperties") {
          (key == "minProperties" ? node().min_properties : node().max_properties) =
              count(value, at, key);
          add_unit(key == "minProperties" ? Unit::min_properties : Unit::max_properties);
        } else if ((key == "dependentRequired" && modern) || key == "dependencies") {
          dependencies(value, at, key);
        } else if (key == "dependentSchemas" && modern) {
          if (!value.is_object()) {
            c.problem(at, "dependentSchemas must be an object");
            continue;
          }
          for (const auto& [name, dependent] : value.items()) {
            const NodeId target = sub(dependent, at / name);
            node().dependent_schemas.emplace_back(name, target);
          }
          add_unit(Unit::dependent_schemas);
        } else if (key == "definitions" || key == "$defs") {
          if (!value.is_object()) {
            c.problem(at, key + " must be an object");
            continue;
          }
          for (const auto& [name, definition] : value.items()) (void)sub(definition, at / name);
        } else if (key == kRulesKeyword) {
          node().rules = parse_rules(value, schema, *c.d_.documents.front(), at, c.problems_);
        }
      }
    }

    void type(const ojson& value, const Path& at) {
      static const std::map<std::string, unsigned> kTypes = {
          {"string", kString}, {"number", kNumber}, {"integer", kInteger}, {"boolean", kBoolean},
          {"null", kNull},     {"array", kArray},   {"object", kObject}};
      bool ok = value.is_string() || value.is_array();
      auto add = [&](const ojson& name) {
        auto it = name.is_string() ? kTypes.find(name.get<std::string>()) : kTypes.end();
        if (it == kTypes.end()) {
          ok = false;
          return;
        }
        node().types |= it->second;
        node().type_names.push_back(it->first);
      };
      if (value.is_array()) {
        for (const auto& name : value) add(name);
      } else if (value.is_string()) {
        add(value);
      }
      if (!ok) {
        c.problem(at,
                  "type must be one of string, number, integer, boolean, null, array, object (or "
                  "a list of them), not " +
                      value.dump());
      }
    }

    void dependencies(const ojson& value, const Path& at, const std::string& key) {
      if (!value.is_object()) {
        c.problem(at, key + " must be an object");
        return;
      }
      for (const auto& [name, dependent] : value.items()) {
        if (dependent.is_array()) {
          std::vector<std::string> names;
          for (const auto& entry : dependent) {
            if (entry.is_string()) names.push_back(entry.get<std::string>());
          }
          node().dependent_required.emplace_back(name, std::move(names));
          add_unit(Unit::dependent_required);
        } else if (key == "dependencies") {
          const NodeId target = sub(dependent, at / name);
          node().dependent_schemas.emplace_back(name, target);
          add_unit(Unit::dependent_schemas);
        } else {
          c.problem(at / name, key + " values must be arrays of property names");
        }
      }
    }

    // emit()'s nullable wrapper: anyOf [X, {"type":"null"}] (either order).
    static bool nullable_pair(const ojson& options) {
      if (!options.is_array() || options.size() != 2) return false;
      const ojson null_only = {{"type", "null"}};
      return options[0] == null_only || options[1] == null_only;
    }
  };

  // The schema at `uri` (absolute, with fragment), loading a remote document when needed.
  std::optional<NodeId> target(const std::string& uri, Draft draft, const Path& path) {
    const auto [document, fragment] = split_fragment(uri);
    auto found = by_uri_.find(document);
    if (found == by_uri_.end()) {
      const ojson* loaded = load(document, path);
      if (loaded == nullptr) return std::nullopt;
      (void)compile_document(*loaded, document, draft_of(*loaded, draft), path);
      found = by_uri_.find(document);
    }
    const Resource& resource = d_.resources[found->second];
    const ojson* at = resource.root;
    if (!fragment.empty() && fragment[0] == '/') {
      at = follow_pointer(*resource.root, percent_decoded(fragment));
    } else if (!fragment.empty()) {
      auto anchor = resource.anchors.find(fragment);
      at = anchor == resource.anchors.end() ? nullptr : anchor->second;
    }
    if (at == nullptr) return std::nullopt;
    if (auto it = memo_.find(at); it != memo_.end()) return it->second;
    const NodeId id = compile(*at, resource.uri, resource.draft, found->second, path, 0);
    return id;
  }

  static const ojson* follow_pointer(const ojson& root, const std::string& pointer) {
    const ojson* at = &root;
    std::size_t pos = 1;
    while (pos <= pointer.size()) {
      const auto slash = pointer.find('/', pos);
      const auto end = slash == std::string::npos ? pointer.size() : slash;
      std::string token;
      for (std::size_t i = pos; i < end; ++i) {
        if (pointer[i] == '~' && i + 1 < end && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
          token += pointer[i + 1] == '0' ? '~' : '/';
          ++i;
        } else {
          token += pointer[i];
        }
      }
      if (at->is_object()) {
        auto it = at->find(token);
        if (it == at->end()) return nullptr;
        at = &*it;
      } else if (at->is_array()) {
        if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos)
          return nullptr;
        const auto index = std::stoull(token);
        if (index >= at->size()) return nullptr;
        at = &(*at)[index];
      } else {
        return nullptr;
      }
      pos = end + 1;
    }
    return at;
  }

  const ojson* load(const std::string& uri, const Path& path) {
    const auto& registry = options_.registry;
    const ojson* out = nullptr;
    if (auto it = registry.documents.find(uri); it != registry.documents.end()) {
      d_.documents.push_back(std::make_unique<ojson>(it->second));
      return d_.documents.back().get();
    }
    const std::pair<const std::string, std::string>* best = nullptr;
    for (const auto& entry : registry.directories) {
      if (uri.compare(0, entry.first.size(), entry.first) == 0 &&
          (best == nullptr || entry.first.size() > best->first.size())) {
        best = &entry;
      }
    }
    if (best == nullptr) {
      if (const auto known = meta_schema(uri); !known.empty()) {
        d_.documents.push_back(std::make_unique<ojson>(ojson::parse(known)));
        return d_.documents.back().get();
      }
      problem(path, "$ref \"" + uri + "\" is not in this document or the schema registry");
      return out;
    }
    const std::string rest = uri.substr(best->first.size());
    if (rest.find("..") != std::string::npos) {
      problem(path, "$ref \"" + uri + "\" leaves the registry's directory");
      return out;
    }
    const std::string file =
        best->second + (best->second.empty() || best->second.back() == '/' ? "" : "/") + rest;
    std::string text;
    try {
      // A regular file within the schema-file cap: a FIFO, a device or a huge file under the
      // registry's directory cannot hang or exhaust the validator being built.
      text = read_bounded_file(file, FileBounds{.max_bytes = kMaxSchemaFileBytes});
    } catch (const std::runtime_error& e) {
      problem(path, "$ref \"" + uri + "\": " + e.what());
      return out;
    }
    try {
      d_.documents.push_back(std::make_unique<ojson>(ojson::parse(text)));
    } catch (const std::exception& e) {
      problem(path, "$ref \"" + uri + "\": " + file + " is not JSON: " + e.what());
      return out;
    }
    return d_.documents.back().get();
  }

  void resolve_refs() {
    // Resolving may load documents with more references; the list grows as it is walked.
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      const PendingRef ref = pending_[i];
      const auto id = target(ref.uri, ref.draft, ref.path);
      if (!id || *id == kNone) {
        if (problems_.empty() || !(problems_.back().path == ref.path)) {
          problem(ref.path, "$ref \"" + ref.uri + "\" does not point at a schema");
        }
        continue;
      }
      Node& node = d_.nodes[ref.node];
      if (!ref.dynamic) {
        node.ref = *id;
        continue;
      }
      node.dynamic_ref = *id;
      // Dynamic only when the first target carries the same $dynamicAnchor.
      const auto fragment = split_fragment(ref.uri).second;
      const ojson& source = *d_.nodes[*id].source;
      if (!fragment.empty() && fragment[0] != '/' && source.is_object()) {
        auto anchor = source.find("$dynamicAnchor");
        if (anchor != source.end() && anchor->is_string() &&
            anchor->get<std::string>() == fragment) {
          node.dynamic_anchor = fragment;
          d_.dynamic_scope = true;
        }
      }
    }
  }

  void finish() {
    for (auto& resource : d_.resources) {
      for (const auto& [name, schema] : resource.dynamic_anchors) {
        if (auto it = memo_.find(schema); it != memo_.end())
          resource.dynamic_nodes[name] = it->second;
      }
    }
    for (auto& node : d_.nodes) {
      if (!node.one_of.empty()) find_discriminator(node);
      // Whether each property is required, decided once rather than per value.
      for (const auto& [name, id] : node.properties) {
        node.property_required.push_back(
            std::find(node.required.begin(), node.required.end(), name) != node.required.end());
      }
      for (const auto& name : node.required) {
        const bool declared =
            std::any_of(node.properties.begin(), node.properties.end(),
                        [&name = name](const auto& entry) { return entry.first == name; });
        if (!declared) node.required_undeclared.push_back(name);
      }
    }
  }

  const Node& through_refs(NodeId id) const {
    const Node* node = &d_.nodes[id];
    for (int hops = 0; hops < 64 && node->ref_only && node->ref != kNone; ++hops) {
      node = &d_.nodes[node->ref];
    }
    return *node;
  }

  // A property every oneOf option requires and fixes with a distinct const, in objects only: the
  // tag of a discriminated union. Then the tag alone picks the option (Zod's z.discriminatedUnion).
  void find_discriminator(Node& node) {
    const Node& first = through_refs(node.one_of.front());
    for (const auto& [name, property] : first.properties) {
      std::vector<json> values;
      for (NodeId option_id : node.one_of) {
        const Node& option = through_refs(option_id);
        if (option.types != kObject || std::find(option.required.begin(), option.required.end(),
                                                 name) == option.required.end()) {
          break;
        }
        auto it = std::find_if(option.properties.begin(), option.properties.end(),
                               [&name = name](const auto& entry) { return entry.first == name; });
        if (it == option.properties.end()) break;
        const Node& tag = through_refs(it->second);
        if (tag.const_source == nullptr) break;
        const bool repeated = std::any_of(values.begin(), values.end(), [&](const json& v) {
          return json_equal(v, tag.const_value);
        });
        if (repeated) break;
        values.push_back(tag.const_value);
      }
      if (values.size() == node.one_of.size()) {
        node.discriminator = name;
        node.tag_values = std::move(values);
        return;
      }
    }
  }

  Engine::Data& d_;
  const EngineOptions& options_;
  std::vector<SchemaProblem> problems_;
  std::unordered_map<const ojson*, NodeId> memo_;
  std::map<std::string, std::uint32_t> by_uri_;
  std::vector<PendingRef> pending_;
  std::unordered_map<std::string, Regex> regexes_;
  bool validation_vocabulary_ = true;
};

// ---- evaluating ----

// Where in the value a check is, as a chain up to the root built on the stack; a Path is made
// only when an issue is reported.
struct Link {
  const Link* up;
  const std::string* key;  // null: an array index
  std::size_t index;
};

Path to_path(const Link* at) {
  std::vector<const Link*> chain;
  for (; at != nullptr; at = at->up) chain.push_back(at);
  std::vector<PathSegment> segments;
  segments.reserve(chain.size());
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if ((*it)->key != nullptr) {
      segments.emplace_back(*(*it)->key);
    } else {
      segments.emplace_back((*it)->index);
    }
  }
  return Path(std::move(segments));
}

struct FoundIssue {
  Issue issue;
  bool aborting = false;  // Zod's `continue: false`: stops the refinements of enclosing nodes
};

struct Sink {
  std::vector<FoundIssue> found;
  std::size_t count = 0;     // every issue, the ones past the cap included
  std::size_t aborting = 0;  // aborting issues among them

  void absorb(Sink&& other) {
    count += other.count;
    aborting += other.aborting;
    for (auto& entry : other.found) {
      if (found.size() < kMaxIssues) found.push_back(std::move(entry));
    }
  }
};

// What in-place applicators evaluated of the value (for unevaluatedProperties/Items).
struct Seen {
  bool all_properties = false;
  std::vector<const json*> properties;
  std::size_t items = 0;
  bool all_items = false;
  std::vector<std::size_t> item_indices;

  void merge(const Seen& other) {
    all_properties = all_properties || other.all_properties;
    properties.insert(properties.end(), other.properties.begin(), other.properties.end());
    items = std::max(items, other.items);
    all_items = all_items || other.all_items;
    item_indices.insert(item_indices.end(), other.item_indices.begin(), other.item_indices.end());
  }
  [[nodiscard]] bool has_property(const json* value) const {
    return all_properties ||
           std::find(properties.begin(), properties.end(), value) != properties.end();
  }
  [[nodiscard]] bool has_item(std::size_t index) const {
    return all_items || index < items ||
           std::find(item_indices.begin(), item_indices.end(), index) != item_indices.end();
  }
};

std::string received(const json* value) {
  if (value == nullptr) return "undefined";
  switch (value->type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::string:
      return "string";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    default:
      return "number";
  }
}

std::string stringify_primitive(const ojson& value) {
  if (value.is_string()) return "\"" + value.get<std::string>() + "\"";
  if (value.is_number()) return js_number(json::parse(value.dump()));
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_null()) return "null";
  return value.dump();
}

bool type_matches(unsigned types, const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return (types & kNull) != 0;
    case json::value_t::boolean:
      return (types & kBoolean) != 0;
    case json::value_t::string:
      return (types & kString) != 0;
    case json::value_t::array:
      return (types & kArray) != 0;
    case json::value_t::object:
      return (types & kObject) != 0;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return (types & (kNumber | kInteger)) != 0;
    case json::value_t::number_float:
      return (types & kNumber) != 0 || ((types & kInteger) != 0 && is_integral(value));
    default:
      return false;
  }
}

// Unescaped '/' becomes "\/", as JavaScript's RegExp#toString shows the source.
std::string regex_display(const std::string& source) {
  std::string out = "/";
  bool in_class = false;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\' && i + 1 < source.size()) {
      out += c;
      out += source[++i];
      continue;
    }
    if (c == '[') in_class = true;
    if (c == ']') in_class = false;
    if (c == '/' && !in_class) out += '\\';
    out += c;
  }
  return out + "/";
}

// The text of a pattern made only of literal characters and escaped metacharacters (what
// starts_with/ends_with/includes emit); nullopt for a real regular expression.
std::optional<std::string> literal_of(std::string_view source) {
  constexpr std::string_view meta = "^$\\.*+?()[]{}|/";
  std::string out;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\') {
      if (i + 1 >= source.size() || meta.find(source[i + 1]) == std::string_view::npos) {
        return std::nullopt;
      }
      out += source[++i];
    } else if (meta.find(c) != std::string_view::npos) {
      return std::nullopt;
    } else {
      out += c;
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

bool ends_with_anchor(std::string_view source) {
  if (source.empty() || source.back() != '$') return false;
  std::size_t backslashes = 0;
  for (std::size_t i = source.size() - 1; i > 0 && source[i - 1] == '\\'; --i) ++backslashes;
  return backslashes % 2 == 0;
}

std::string pattern_message(const std::string& source) {
  const bool start = !source.empty() && source.front() == '^';
  const bool end = ends_with_anchor(source);
  if (start && !end) {
    if (auto text = literal_of(std::string_view(source).substr(1))) {
      return "Invalid string: must start with \"" + *text + "\"";
    }
  } else if (end && !start) {
    if (auto text = literal_of(std::string_view(source).substr(0, source.size() - 1))) {
      return "Invalid string: must end with \"" + *text + "\"";
    }
  } else if (!start && !end) {
    if (auto text = literal_of(source)) return "Invalid string: must include \"" + *text + "\"";
  }
  return "Invalid string: must match pattern " + regex_display(source);
}

std::size_t code_points(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  }
  return count;
}

// `hint`: where the field usually is (emit() writes properties in the order of the fields).
const SchemaNode* field_node(const SchemaNode* node, const std::string& name,
                             std::size_t hint = std::string::npos) {
  if (node == nullptr || node->kind != Kind::object) return nullptr;
  if (hint < node->fields.size() && node->fields[hint].name == name) {
    return &node->fields[hint].schema.node();
  }
  for (const auto& field : node->fields) {
    if (field.name == name) return &field.schema.node();
  }
  return nullptr;
}

const SchemaNode* element_node(const SchemaNode* node, Kind kind, std::size_t index) {
  if (node == nullptr || node->kind != kind || index >= node->elements.size()) return nullptr;
  return &node->elements[index].node();
}

// What a node's refinements are called with: the value itself, or for an object whose fields
// have defaults and are absent, a copy with those defaults filled in (as Zod's predicates see
// them).
const json& refinement_subject(const SchemaNode& node, const json& value, json& storage) {
  const json* subject = &value;
  if (node.kind == Kind::object && value.is_object()) {
    for (const auto& field : node.fields) {
      const auto& fallback = field.schema.node().default_value;
      if (!fallback || value.contains(field.name)) continue;
      if (subject == &value) storage = value;
      storage[field.name] = *fallback;
      subject = &storage;
    }
  }
  return *subject;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// One evaluation: a value against the node graph. With a sink, every issue is worded and
// collected with Zod's abort rules; without one (the fast path) the first failure ends it.
class Run {
 public:
  Run(const Engine::Data& data, Sink* sink) : d_(data), sink_(sink) {}

  bool node(NodeId id, const json* v, const Link* at, const SchemaNode* dsl, Seen* seen) {
    const Node& n = d_.nodes[id];
    if (depth_ >= kMaxEvalDepth) {
      fail(IssueCode::custom, at, true, [] {
        return "Invalid input: the schema recurses deeper than " + std::to_string(kMaxEvalDepth) +
               " levels for this value";
      });
      return false;
    }
    ++depth_;
    const bool entered = d_.dynamic_scope && (scope_.empty() || scope_.back() != n.resource);
    if (entered) scope_.push_back(n.resource);
    const bool ok = body(n, v, at, dsl, seen);
    if (entered) scope_.pop_back();
    --depth_;
    return ok;
  }

 private:
  [[nodiscard]] std::size_t aborts() const { return sink_ != nullptr ? sink_->aborting : 0; }
  [[nodiscard]] std::size_t issued() const { return sink_ != nullptr ? sink_->count : 0; }

  // Records an issue (the message is only built when there is a sink); always "not ok".
  template <class Words>
  bool fail(IssueCode code, const Link* at, bool aborting, Words&& words,
            const Path* tail = nullptr) {
    if (sink_ == nullptr) return false;
    ++sink_->count;
    if (aborting) ++sink_->aborting;
    if (sink_->found.size() < kMaxIssues) {
      Path path = to_path(at);
      if (tail != nullptr) path = path + *tail;
      sink_->found.push_back(FoundIssue{Issue{code, std::move(path), words()}, aborting});
    }
    return false;
  }

  // A required property that is absent. Asked for by a condition (a `then`, an `else`, a
  // dependentRequired), the message names it and the condition; asked for plainly, it is Zod's.
  bool missing(const Link* at) {
    if (condition_ != nullptr && at != nullptr && at->key != nullptr) {
      return missing_when(at, [this] { return *condition_; });
    }
    return fail(IssueCode::invalid_type, at, true, [] {
      return std::string("Invalid input: expected nonoptional, received undefined");
    });
  }

  // Whether `text` matches, within this run's backtracking budget; nullopt when the budget was
  // spent before a backtracking pattern could answer (the value is then not passed unchecked).
  std::optional<bool> matches(const Regex& regex, std::string_view text) {
    if (regex.search(text, budget_)) return true;
    if (regex.backtracks() && budget_.spent()) return std::nullopt;
    return false;
  }

  bool budget_spent(const Link* at, const std::string& what) {
    return fail(IssueCode::invalid_format, at, false, [&] {
      return "Invalid string: not checked against " + what +
             ": this document spent its budget of " +
             std::to_string(BacktrackingBudget::kPerDocument) +
             " backtracking steps for lookaround and backreference patterns";
    });
  }

  template <class When>
  bool missing_when(const Link* at, const When& when) {
    return fail(IssueCode::invalid_type, at, true,
                [&] { return json(*at->key).dump() + " is required " + when(); });
  }

  // Evaluates a `then` or `else` with `condition` (its reason in words) in force.
  bool under_condition(NodeId id, const json& v, const Link* at, Seen* seen,
                       const std::string& condition) {
    const std::string* saved = condition_;
    condition_ = &condition;
    const bool ok = node(id, &v, at, nullptr, seen);
    condition_ = saved;
    return ok;
  }

  // Evaluates without recording issues (for not, if, contains, propertyNames).
  bool quietly(NodeId id, const json* v, const Link* at, Seen* seen) {
    Sink* saved = sink_;
    sink_ = nullptr;
    const bool ok = node(id, v, at, nullptr, seen);
    sink_ = saved;
    return ok;
  }

  bool body(const Node& n, const json* v, const Link* at, const SchemaNode* dsl, Seen* seen) {
    if (n.boolean) {
      if (v == nullptr) return missing(at);
      if (n.allows) return true;
      return fail(IssueCode::invalid_type, at, true,
                  [&] { return "Invalid input: expected never, received " + received(v); });
    }
    if (n.ref_only) {
      // draft-07 ignores a $ref's siblings; a ref's own refinements (its use) still run.
      if (dsl == nullptr || dsl->kind != Kind::ref) {
        return n.ref == kNone || node(n.ref, v, at, dsl, seen);
      }
      const std::size_t before = aborts();
      bool ok = n.ref == kNone || node(n.ref, v, at, d_.definitions.resolve(dsl), seen);
      if (!ok && sink_ == nullptr) return false;
      if (v != nullptr && !dsl->refinements.empty() && !(dsl->nullable && v->is_null()) &&
          aborts() == before) {
        ok = refine(*dsl, *v, at) && ok;
      }
      return ok;
    }

    bool ok = true;
    const std::size_t start = aborts();
    const std::size_t entry = issued();
    if (n.nullable_inner != kNone) {
      // emit()'s nullable wrapper: null passes, anything else is the inner schema's, with the
      // same DSL node (whose refinements run there).
      if (v == nullptr || !v->is_null()) {
        ok = node(n.nullable_inner, v, at, dsl, seen);
        if (!ok && sink_ == nullptr) return false;
      }
      dsl = nullptr;
    }
    Seen local;
    Seen* track = n.tracks ? &local : seen;
    if (n.ref != kNone) {
      const SchemaNode* target =
          dsl != nullptr && dsl->kind == Kind::ref ? d_.definitions.resolve(dsl) : nullptr;
      ok = node(n.ref, v, at, target, track) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
    if (n.dynamic_ref != kNone) {
      ok = node(dynamic_target(n), v, at, nullptr, track) && ok;
      if (!ok && sink_ == nullptr) return false;
    }

    if (n.enum_source != nullptr) {
      const bool found =
          v != nullptr && std::any_of(n.enum_values.begin(), n.enum_values.end(),
                                      [&](const json& e) { return json_equal(e, *v); });
      if (!found) {
        return fail(IssueCode::invalid_value, at, true, [&] {
          const ojson& options = *n.enum_source;
          if (options.size() == 1)
            return "Invalid input: expected " + stringify_primitive(options[0]);
          std::string message = "Invalid option: expected one of ";
          for (std::size_t i = 0; i < options.size(); ++i) {
            message += (i == 0 ? "" : "|") + stringify_primitive(options[i]);
          }
          return message;
        });
      }
    }
    if (n.const_source != nullptr && (v == nullptr || !json_equal(n.const_value, *v))) {
      return fail(IssueCode::invalid_value, at, true, [&] {
        return "Invalid input: expected " + stringify_primitive(*n.const_source);
      });
    }
    if (n.types != 0 && (v == nullptr || !type_matches(n.types, *v))) {
      return fail(IssueCode::invalid_type, at, true, [&] { return type_message(n, v); });
    }
    if (v == nullptr) {
      // Absent (a required property): the unions may word it, else it is "nonoptional".
      (void)unions(n, v, at, dsl, nullptr);
      if (issued() == entry) missing(at);
      return false;
    }
    ok = unions(n, v, at, dsl, track) && ok;
    if (!ok && sink_ == nullptr) return false;
    if (v->is_array() && n.tuple && !tuple_length_ok(n, *v, at)) return false;

    const bool format_failed = v->is_string() && n.format_check != nullptr &&
                               !n.format_check(v->get_ref<const std::string&>());
    for (const Unit unit : n.units) {
      ok = run_unit(unit, n, *v, at, dsl, track, format_failed) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
    if (n.tracks) {
      ok = unevaluated(n, *v, at, local) && ok;
      if (!ok && sink_ == nullptr) return false;
      if (seen != nullptr) seen->merge(local);
    }
    if (!n.rules.empty() && v->is_object() && aborts() == start) {
      for (const auto& rule : n.rules) {
        if (rule_holds(rule, *v, n.source, *d_.documents.front())) continue;
        const Path tail = issue_path(rule);
        ok = fail(
            IssueCode::custom, at, false, [&] { return rule.message; }, &tail);
        if (sink_ == nullptr) return false;
      }
    }
    if (dsl != nullptr && !dsl->refinements.empty() && !(dsl->nullable && v->is_null()) &&
        aborts() == start) {
      ok = refine(*dsl, *v, at) && ok;
    }
    return ok;
  }

  NodeId dynamic_target(const Node& n) const {
    if (n.dynamic_anchor.empty()) return n.dynamic_ref;
    for (const std::uint32_t resource : scope_) {
      const auto& anchors = d_.resources[resource].dynamic_nodes;
      if (auto it = anchors.find(n.dynamic_anchor); it != anchors.end()) return it->second;
    }
    return n.dynamic_ref;
  }

  static std::string type_message(const Node& n, const json* v) {
    std::string expected = n.type_names.front();
    for (const auto& name : n.type_names) {
      if (name != "null") {
        expected = name;
        break;
      }
    }
    // Zod's name for what was expected; a fraction given to an integer is "int" (z.int()).
    if (expected == "integer") expected = v != nullptr && v->is_number() ? "int" : "number";
    return "Invalid input: expected " + expected + ", received " + received(v);
  }

  // anyOf (other than the nullable wrapper) and oneOf, as z.union and z.discriminatedUnion.
  bool unions(const Node& n, const json* v, const Link* at, const SchemaNode* dsl, Seen* seen) {
    bool ok = true;
    if (!n.any_of.empty()) ok = union_of(n.any_of, v, at, dsl, seen, false);
    if (!ok && sink_ == nullptr) return false;
    if (!n.one_of.empty()) {
      ok = (n.discriminator ? discriminated(n, v, at, dsl, seen)
                            : union_of(n.one_of, v, at, dsl, seen, true)) &&
           ok;
    }
    return ok;
  }

  bool union_of(const std::vector<NodeId>& options, const json* v, const Link* at,
                const SchemaNode* dsl, Seen* seen, bool exclusive) {
    if (sink_ == nullptr) {
      std::size_t matches = 0;
      for (std::size_t i = 0; i < options.size(); ++i) {
        Seen branch;
        if (!node(options[i], v, at, element_node(dsl, Kind::union_, i),
                  seen != nullptr ? &branch : nullptr)) {
          continue;
        }
        ++matches;
        if (seen != nullptr) seen->merge(branch);
        if (!exclusive && seen == nullptr) return true;
        if (exclusive && matches > 1) return false;
      }
      return exclusive ? matches == 1 : matches > 0;
    }
    std::vector<Sink> results(options.size());
    std::size_t matches = 0;
    Sink* saved = sink_;
    for (std::size_t i = 0; i < options.size(); ++i) {
      Seen branch;
      sink_ = &results[i];
      const bool matched = node(options[i], v, at, element_node(dsl, Kind::union_, i),
                                seen != nullptr ? &branch : nullptr);
      sink_ = saved;
      if (!matched) continue;
      ++matches;
      if (seen != nullptr) seen->merge(branch);
      if (!exclusive && seen == nullptr) return true;
    }
    if (exclusive ? matches == 1 : matches > 0) return true;
    if (matches == 0) {
      Sink* only = nullptr;
      std::size_t not_aborted = 0;
      for (auto& result : results) {
        if (result.aborting == 0) {
          ++not_aborted;
          only = &result;
        }
      }
      if (not_aborted == 1) {
        sink_->absorb(std::move(*only));
        return false;
      }
    }
    return fail(IssueCode::invalid_union, at, true, [] { return std::string("Invalid input"); });
  }

  bool discriminated(const Node& n, const json* v, const Link* at, const SchemaNode* dsl,
                     Seen* seen) {
    if (v == nullptr || !v->is_object()) {
      return fail(IssueCode::invalid_type, at, true,
                  [&] { return "Invalid input: expected object, received " + received(v); });
    }
    auto it = v->find(*n.discriminator);
    if (it != v->end()) {
      for (std::size_t i = 0; i < n.one_of.size(); ++i) {
        if (json_equal(n.tag_values[i], *it)) {
          return node(n.one_of[i], v, at, element_node(dsl, Kind::union_, i), seen);
        }
      }
    }
    // Zod points a tag that matches no option at the tag itself.
    const Link tag{at, &*n.discriminator, 0};
    return fail(IssueCode::invalid_union, &tag, true, [] { return std::string("Invalid input"); });
  }

  // z.tuple checks the length first and stops there.
  bool tuple_length_ok(const Node& n, const json& v, const Link* at) {
    const bool closed = n.rest != kNone && d_.nodes[n.rest].boolean && !d_.nodes[n.rest].allows;
    if (closed && v.size() > n.prefix.size()) {
      return fail(IssueCode::too_big, at, true, [&] {
        return "Too big: expected array to have <=" + std::to_string(n.prefix.size()) + " items";
      });
    }
    if (n.min_items && v.size() < *n.min_items) {
      return fail(IssueCode::too_small, at, true, [&] {
        return "Too small: expected array to have >=" + std::to_string(*n.min_items) + " items";
      });
    }
    return true;
  }

  bool run_unit(Unit unit, const Node& n, const json& v, const Link* at, const SchemaNode* dsl,
                Seen* seen, bool format_failed) {
    switch (unit) {
      case Unit::all_of: {
        bool ok = true;
        for (const NodeId branch : n.all_of) {
          ok = node(branch, &v, at, nullptr, seen) && ok;
          if (!ok && sink_ == nullptr) return false;
        }
        return ok;
      }
      case Unit::not_:
        if (!quietly(n.not_, &v, at, nullptr)) return true;
        return fail(IssueCode::custom, at, false, [] {
          return std::string("Invalid input: must not match the schema in \"not\"");
        });
      case Unit::conditional:
        return conditional(n, v, at, seen);
      default:
        break;
    }
    if (v.is_string())
      return string_unit(unit, n, v.get_ref<const std::string&>(), at, format_failed);
    if (v.is_number()) return number_unit(unit, n, v, at);
    if (v.is_array()) return array_unit(unit, n, v, at, dsl, seen);
    if (v.is_object()) return object_unit(unit, n, v, at, dsl, seen);
    return true;
  }

  bool conditional(const Node& n, const json& v, const Link* at, Seen* seen) {
    if (n.if_ == kNone) return true;
    Seen condition;
    if (quietly(n.if_, &v, at, seen != nullptr ? &condition : nullptr)) {
      if (seen != nullptr) seen->merge(condition);
      return n.then_ == kNone || under_condition(n.then_, v, at, seen, n.when_then);
    }
    return n.else_ == kNone || under_condition(n.else_, v, at, seen, n.when_else);
  }

  bool string_unit(Unit unit, const Node& n, const std::string& text, const Link* at,
                   bool format_failed) {
    switch (unit) {
      case Unit::min_length:
        if (!n.min_length || code_points(text) >= *n.min_length) return true;
        return fail(IssueCode::too_small, at, false, [&] {
          return "Too small: expected string to have >=" + std::to_string(*n.min_length) +
                 " characters";
        });
      case Unit::max_length:
        if (!n.max_length || code_points(text) <= *n.max_length) return true;
        return fail(IssueCode::too_big, at, false, [&] {
          return "Too big: expected string to have <=" + std::to_string(*n.max_length) +
                 " characters";
        });
      case Unit::format:
        if (!format_failed) return true;
        return fail(IssueCode::invalid_format, at, false,
                    [&] { return std::string(format_message(n.format)); });
      case Unit::pattern:
        if (!n.pattern) return true;
        if (const auto matched = matches(n.pattern, text)) {
          if (*matched) return true;
        } else {
          return budget_spent(at, "pattern " + regex_display(n.pattern_source));
        }
        // The date check already said it; the issue is not repeated (the verdict stands).
        if (format_failed && n.pattern_source == kDatePattern) return false;
        return fail(IssueCode::invalid_format, at, false,
                    [&] { return pattern_message(n.pattern_source); });
      default:
        return true;
    }
  }

  bool number_unit(Unit unit, const Node& n, const json& v, const Link* at) {
    switch (unit) {
      case Unit::exclusive_minimum:
        if (n.exclusive_minimum.is_null() || compare_numbers(v, n.exclusive_minimum) > 0)
          return true;
        return fail(IssueCode::too_small, at, false, [&] {
          return "Too small: expected number to be >" + js_number(n.exclusive_minimum);
        });
      case Unit::minimum:
        if (n.minimum.is_null() || compare_numbers(v, n.minimum) >= 0) return true;
        return fail(IssueCode::too_small, at, false,
                    [&] { return "Too small: expected number to be >=" + js_number(n.minimum); });
      case Unit::exclusive_maximum:
        if (n.exclusive_maximum.is_null() || compare_numbers(v, n.exclusive_maximum) < 0)
          return true;
        return fail(IssueCode::too_big, at, false, [&] {
          return "Too big: expected number to be <" + js_number(n.exclusive_maximum);
        });
      case Unit::maximum:
        if (n.maximum.is_null() || compare_numbers(v, n.maximum) <= 0) return true;
        return fail(IssueCode::too_big, at, false,
                    [&] { return "Too big: expected number to be <=" + js_number(n.maximum); });
      case Unit::multiple_of:
        if (n.multiple_of.is_null() || is_multiple_of(v, n.multiple_of)) return true;
        return fail(IssueCode::not_multiple_of, at, false, [&] {
          return "Invalid number: must be a multiple of " + js_number(n.multiple_of);
        });
      default:
        return true;
    }
  }

  bool array_unit(Unit unit, const Node& n, const json& v, const Link* at, const SchemaNode* dsl,
                  Seen* seen) {
    switch (unit) {
      case Unit::items: {
        bool ok = true;
        const std::size_t size = v.size();
        for (std::size_t i = 0; i < size; ++i) {
          const Link item{at, nullptr, i};
          if (i < n.prefix.size()) {
            ok = node(n.prefix[i], &v[i], &item, element_node(dsl, Kind::tuple, i), nullptr) && ok;
          } else if (n.rest != kNone) {
            ok = node(n.rest, &v[i], &item, n.tuple ? nullptr : element_node(dsl, Kind::array, 0),
                      nullptr) &&
                 ok;
          } else {
            break;
          }
          if (!ok && sink_ == nullptr) return false;
        }
        if (seen != nullptr) {
          seen->items = std::max(seen->items, std::min(size, n.prefix.size()));
          if (n.rest != kNone) seen->all_items = true;
        }
        return ok;
      }
      case Unit::min_items:
        if (!n.min_items || v.size() >= *n.min_items) return true;
        return fail(IssueCode::too_small, at, false, [&] {
          return "Too small: expected array to have >=" + std::to_string(*n.min_items) + " items";
        });
      case Unit::max_items:
        if (!n.max_items || v.size() <= *n.max_items) return true;
        return fail(IssueCode::too_big, at, false, [&] {
          return "Too big: expected array to have <=" + std::to_string(*n.max_items) + " items";
        });
      case Unit::unique_items:
        if (all_unique(v)) return true;
        return fail(IssueCode::custom, at, false,
                    [] { return std::string("Invalid input: expected unique items"); });
      case Unit::contains:
        return contains(n, v, at, seen);
      default:
        return true;
    }
  }

  static bool all_unique(const json& v) {
    if (v.size() < 2) return true;
    if (v.size() <= 16) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        for (std::size_t j = i + 1; j < v.size(); ++j) {
          if (json_equal(v[i], v[j])) return false;
        }
      }
      return true;
    }
    std::unordered_multimap<std::size_t, std::size_t> seen;
    seen.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::size_t hash = json_hash(v[i]);
      auto [first, last] = seen.equal_range(hash);
      for (auto it = first; it != last; ++it) {
        if (json_equal(v[it->second], v[i])) return false;
      }
      seen.emplace(hash, i);
    }
    return true;
  }

  bool contains(const Node& n, const json& v, const Link* at, Seen* seen) {
    std::uint64_t matches = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const Link item{at, nullptr, i};
      if (!quietly(n.contains, &v[i], &item, nullptr)) continue;
      ++matches;
      if (seen != nullptr) seen->item_indices.push_back(i);
    }
    const std::uint64_t least = n.min_contains.value_or(1);
    if (matches < least) {
      return fail(IssueCode::too_small, at, false, [&] {
        return "Too small: expected array to contain at least " +
               plural(least, "matching item", "matching items");
      });
    }
    if (n.max_contains && matches > *n.max_contains) {
      return fail(IssueCode::too_big, at, false, [&] {
        return "Too big: expected array to contain at most " +
               plural(*n.max_contains, "matching item", "matching items");
      });
    }
    return true;
  }

  bool declared(const Node& n, const std::string& name) const {
    for (const auto& entry : n.properties) {
      if (entry.first == name) return true;
    }
    return false;
  }

  bool object_unit(Unit unit, const Node& n, const json& v, const Link* at, const SchemaNode* dsl,
                   Seen* seen) {
    const auto& object = v.get_ref<const json::object_t&>();
    switch (unit) {
      case Unit::object:
        return object_keywords(n, object, at, dsl, seen);
      case Unit::min_properties:
        if (!n.min_properties || object.size() >= *n.min_properties) return true;
        return fail(IssueCode::too_small, at, false, [&] {
          return "Too small: expected object to have >=" +
                 plural(*n.min_properties, "property", "properties");
        });
      case Unit::max_properties:
        if (!n.max_properties || object.size() <= *n.max_properties) return true;
        return fail(IssueCode::too_big, at, false, [&] {
          return "Too big: expected object to have <=" +
                 plural(*n.max_properties, "property", "properties");
        });
      case Unit::property_names: {
        bool ok = true;
        for (const auto& [name, item] : object) {
          const json key(name);
          if (quietly(n.property_names, &key, at, nullptr)) continue;
          // clang 14 (the fuzz build) cannot capture a structured binding: name it first.
          const std::string& key_name = name;
          ok = fail(IssueCode::custom, at, false,
                    [&] { return "Invalid key: \"" + key_name + "\""; });
          if (sink_ == nullptr) return false;
        }
        return ok;
      }
      case Unit::dependent_required: {
        bool ok = true;
        for (const auto& [name, needed] : n.dependent_required) {
          if (object.find(name) == object.end()) continue;
          for (const auto& other : needed) {
            if (object.find(other) != object.end()) continue;
            const Link field{at, &other, 0};
            const std::string& trigger = name;  // clang 14 cannot capture a structured binding
            ok = missing_when(&field,
                              [&] { return "when " + json(trigger).dump() + " is present"; });
            if (sink_ == nullptr) return false;
          }
        }
        return ok;
      }
      case Unit::dependent_schemas: {
        bool ok = true;
        for (const auto& [name, dependent] : n.dependent_schemas) {
          if (object.find(name) == object.end()) continue;
          ok = node(dependent, &v, at, nullptr, seen) && ok;
          if (!ok && sink_ == nullptr) return false;
        }
        return ok;
      }
      default:
        return true;
    }
  }

  bool object_keywords(const Node& n, const json::object_t& object, const Link* at,
                       const SchemaNode* dsl, Seen* seen) {
    bool ok = true;
    std::size_t present = 0;  // declared properties the value has
    for (std::size_t i = 0; i < n.properties.size(); ++i) {
      const auto& [name, id] = n.properties[i];
      const Link field{at, &name, 0};
      auto it = object.find(name);
      if (it != object.end()) {
        ++present;
        ok = node(id, &it->second, &field, field_node(dsl, name, i), nullptr) && ok;
        if (seen != nullptr) seen->properties.push_back(&it->second);
      } else if (n.property_required[i]) {
        ok = node(id, nullptr, &field, field_node(dsl, name, i), nullptr) && ok;
      }
      if (!ok && sink_ == nullptr) return false;
    }
    for (const auto& name : n.required_undeclared) {
      if (object.find(name) != object.end()) continue;
      const Link field{at, &name, 0};
      ok = missing(&field);
      if (sink_ == nullptr) return false;
    }
    // Every key declared (the common valid case): no key left for the other two keywords.
    if (n.pattern_properties.empty() && (n.additional == kNone || present == object.size())) {
      return ok;
    }
    std::vector<const std::string*> extra;
    for (const auto& [name, item] : object) {
      const Link field{at, &name, 0};
      bool matched = false;
      for (const auto& [regex, id] : n.pattern_properties) {
        const auto key_matches = matches(regex, name);
        if (!key_matches) {
          ok = budget_spent(&field, "the patternProperties for this key") && ok;
          if (sink_ == nullptr) return false;
        }
        if (!key_matches.value_or(false)) continue;
        matched = true;
        ok = node(id, &item, &field, nullptr, nullptr) && ok;
        if (!ok && sink_ == nullptr) return false;
      }
      if (matched || declared(n, name)) {
        if (matched && seen != nullptr) seen->properties.push_back(&item);
        continue;
      }
      if (n.additional == kNone) continue;
      if (seen != nullptr) seen->properties.push_back(&item);
      const Node& additional = d_.nodes[n.additional];
      if (additional.boolean && !additional.allows) {
        if (sink_ == nullptr) return false;
        extra.push_back(&name);
      } else {
        // A DSL record's values: their refinements run as a field's do.
        ok = node(n.additional, &item, &field, element_node(dsl, Kind::object, 0), nullptr) && ok;
        if (!ok && sink_ == nullptr) return false;
      }
    }
    if (!extra.empty()) ok = unrecognized(extra, at);
    return ok;
  }

  bool unrecognized(const std::vector<const std::string*>& extra, const Link* at) {
    return fail(IssueCode::unrecognized_keys, at, kUnrecognizedKeysAbort, [&] {
      std::string message = extra.size() == 1 ? "Unrecognized key: " : "Unrecognized keys: ";
      for (std::size_t i = 0; i < extra.size(); ++i) {
        message += (i == 0 ? "\"" : ", \"") + *extra[i] + "\"";
      }
      return message;
    });
  }

  bool unevaluated(const Node& n, const json& v, const Link* at, Seen& seen) {
    bool ok = true;
    if (n.unevaluated_items != kNone && v.is_array()) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (seen.has_item(i)) continue;
        const Link item{at, nullptr, i};
        ok = node(n.unevaluated_items, &v[i], &item, nullptr, nullptr) && ok;
        if (!ok && sink_ == nullptr) return false;
      }
      seen.all_items = true;
    }
    if (n.unevaluated_properties != kNone && v.is_object()) {
      const Node& rest = d_.nodes[n.unevaluated_properties];
      std::vector<const std::string*> extra;
      for (const auto& [name, item] : v.get_ref<const json::object_t&>()) {
        if (seen.has_property(&item)) continue;
        if (rest.boolean && !rest.allows) {
          if (sink_ == nullptr) return false;
          extra.push_back(&name);
          continue;
        }
        const Link field{at, &name, 0};
        ok = node(n.unevaluated_properties, &item, &field, nullptr, nullptr) && ok;
        if (!ok && sink_ == nullptr) return false;
      }
      if (!extra.empty()) ok = unrecognized(extra, at);
      seen.all_properties = true;
    }
    return ok;
  }

  // Zod runs refinements after the node's own checks; the predicate sees defaults filled in.
  bool refine(const SchemaNode& dsl, const json& v, const Link* at) {
    json with_defaults;
    const json& subject = refinement_subject(dsl, v, with_defaults);
    bool ok = true;
    for (const auto& refinement : dsl.refinements) {
      std::string message;
      try {
        if (!refinement.predicate || refinement.predicate(subject)) continue;
        message = refinement.message.empty() ? "Invalid input" : refinement.message;
      } catch (const std::exception& e) {
        message = std::string("Refinement failed: ") + e.what();
      } catch (...) {
        message = "Refinement failed: unknown exception";
      }
      ok = fail(
          IssueCode::custom, at, false, [&] { return message; }, &refinement.options.path);
      if (sink_ == nullptr) return false;
    }
    return ok;
  }

  const Engine::Data& d_;
  Sink* sink_;
  const std::string* condition_ = nullptr;  // set inside a then/else: why its properties are due
  std::vector<std::uint32_t> scope_;        // dynamic scope: the resources entered, outermost first
  std::size_t depth_ = 0;
  BacktrackingBudget budget_;  // shared by every PCRE2 search of this evaluation
};

bool deeper_than(const json& value, std::size_t limit) {
  if (!value.is_structured()) return false;
  if (limit == 0) return true;
  for (const auto& child : value) {
    if (deeper_than(child, limit - 1)) return true;
  }
  return false;
}

// Without recursion (copying, comparing or walking a document this deep would overflow the
// stack): true when arrays and objects nest deeper than `limit` in `document`.
bool nested_deeper_than(const ojson& document, std::size_t limit) {
  std::vector<std::pair<const ojson*, std::size_t>> stack{{&document, 0}};
  while (!stack.empty()) {
    const auto [at, depth] = stack.back();
    stack.pop_back();
    if (!at->is_structured()) continue;
    if (depth >= limit) return true;
    for (const auto& child : *at) stack.emplace_back(&child, depth + 1);
  }
  return false;
}

}  // namespace

namespace {

// The issues a run found, with one more saying how many past the cap were left out.
Issues collected(Sink sink, const Path& where) {
  Issues out;
  out.reserve(sink.found.size() + 1);
  for (auto& entry : sink.found) out.push_back(std::move(entry.issue));
  if (sink.count > sink.found.size()) {
    out.push_back(Issue{IssueCode::custom, where,
                        "and " + std::to_string(sink.count - sink.found.size()) + " more issues"});
  }
  return out;
}

// The one node (and DSL node) that judges the value at `path` when the way there is plain: only
// `properties`, `additionalProperties` and list `items`, through `$ref`-only and nullable
// wrappers of the containers on the way. Anything that could pick another subschema by what else
// the value holds (unions, allOf, conditionals, pattern properties, unevaluated*, dynamic
// references), or that stops before the children are judged (enum, const, tuple length), gives
// nullopt.
std::optional<std::pair<NodeId, const SchemaNode*>> plain_node_at(const Engine::Data& d,
                                                                  const Path& path) {
  NodeId id = d.root;
  const SchemaNode* dsl = d.dsl;
  const auto settle = [&]() -> const Node* {
    for (int hops = 0; hops < 64; ++hops) {
      const Node& n = d.nodes[id];
      if (n.ref_only && n.ref != kNone) {
        id = n.ref;
      } else if (n.nullable_inner != kNone && n.properties.empty() && n.rest == kNone &&
                 n.prefix.empty() && n.additional == kNone && n.pattern_properties.empty()) {
        id = n.nullable_inner;
      } else {
        return &n;
      }
    }
    return nullptr;
  };
  for (const auto& segment : path.segments()) {
    const Node* n = settle();
    if (n == nullptr || n->boolean || n->ref_only || n->ref != kNone || n->dynamic_ref != kNone ||
        !n->any_of.empty() || !n->one_of.empty() || !n->all_of.empty() || n->not_ != kNone ||
        n->if_ != kNone || !n->dependent_schemas.empty() || n->tracks ||
        n->enum_source != nullptr || n->const_source != nullptr) {
      return std::nullopt;
    }
    if (const auto* key = std::get_if<std::string>(&segment)) {
      if (!n->pattern_properties.empty()) return std::nullopt;
      const auto it = std::find_if(n->properties.begin(), n->properties.end(),
                                   [&](const auto& entry) { return entry.first == *key; });
      if (it != n->properties.end()) {
        id = it->second;
        dsl = field_node(dsl, *key);
      } else if (n->additional != kNone && !d.nodes[n->additional].boolean) {
        id = n->additional;
        dsl = element_node(dsl, Kind::object, 0);
      } else {
        return std::nullopt;
      }
    } else {
      if (n->tuple || !n->prefix.empty() || n->rest == kNone) return std::nullopt;
      id = n->rest;
      dsl = element_node(dsl, Kind::array, 0);
    }
  }
  // The part's own node is not unwrapped: a nullable wrapper must see a null part itself.
  return std::make_pair(id, dsl);
}

}  // namespace

Engine::Engine(const ojson& schema, const SchemaNode* dsl, const EngineOptions& options)
    : data_(std::make_unique<Data>()) {
  if (nested_deeper_than(schema, kMaxSchemaDepth)) {
    throw SchemaError({SchemaProblem{Path{}, "the schema is nested deeper than " +
                                                 std::to_string(kMaxSchemaDepth) + " levels"}});
  }
  data_->dsl = dsl;
  if (dsl != nullptr) {
    data_->format_rules = FormatRules::zod;
    data_->definitions = collect_definitions(*dsl);
  }
  data_->documents.push_back(std::make_unique<ojson>(schema));
  Compiler(*data_, options).run(*data_->documents.front());
}

Engine::~Engine() = default;

bool Engine::accepts(const json& value) const {
  Run run(*data_, nullptr);
  return run.node(data_->root, &value, nullptr, data_->dsl, nullptr);
}

Issues Engine::issues(const json& value) const {
  Sink sink;
  Run run(*data_, &sink);
  (void)run.node(data_->root, &value, nullptr, data_->dsl, nullptr);
  return collected(std::move(sink), Path{});
}

std::optional<Issues> Engine::issues_at(const Path& path, const json& value) const {
  if (path.empty() || data_->dynamic_scope) return std::nullopt;
  const auto found = plain_node_at(*data_, path);
  if (!found) return std::nullopt;
  // The issues carry the whole path, as a validation of the whole value would word them.
  std::vector<Link> links;
  links.reserve(path.size());
  for (const auto& segment : path.segments()) {
    const Link* up = links.empty() ? nullptr : &links.back();
    if (const auto* key = std::get_if<std::string>(&segment)) {
      links.push_back(Link{up, key, 0});
    } else {
      links.push_back(Link{up, nullptr, std::get<std::size_t>(segment)});
    }
  }
  Sink sink;
  Run run(*data_, &sink);
  if (run.node(found->first, &value, &links.back(), found->second, nullptr)) return Issues{};
  Issues out = collected(std::move(sink), path);
  if (out.empty()) out.push_back(Issue{IssueCode::custom, path, "Invalid input"});
  return out;
}

bool too_deep(const json& value) {
  return deeper_than(value, kMaxValueDepth);
}

}  // namespace accord::detail
