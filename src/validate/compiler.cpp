#include "validate/compiler.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "accord/bounded_file.hpp"
#include "core/json_number.hpp"
#include "core/member_values.hpp"
#include "schema/meta_schemas.hpp"
#include "schema/schema_uri.hpp"
#include "validate/quick_bounds.hpp"

namespace accord::detail {
namespace {

const ojson* follow_pointer(const ojson& root, const std::string& pointer) {
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

// The draft a meta-schema URI of json-schema.org names (http or https, any document under the
// draft's folder: schema, hyper-schema, a vocabulary), or nullopt.
std::optional<Draft> draft_named(const std::string& uri) {
  std::string_view rest = uri;
  for (std::string_view scheme : {"https://", "http://"}) {
    if (rest.starts_with(scheme)) {
      rest.remove_prefix(scheme.size());
      break;
    }
  }
  static constexpr std::array<std::pair<std::string_view, Draft>, 5> kFolders = {{
      {"json-schema.org/draft-04/", Draft::draft4},
      {"json-schema.org/draft-06/", Draft::draft6},
      {"json-schema.org/draft-07/", Draft::draft7},
      {"json-schema.org/draft/2019-09/", Draft::draft2019_09},
      {"json-schema.org/draft/2020-12/", Draft::draft2020_12},
  }};
  for (const auto& [folder, draft] : kFolders) {
    if (rest.starts_with(folder)) return draft;
  }
  return std::nullopt;
}

}  // namespace

void Compiler::run(const ojson& root) {
  const Draft draft = dialect_of(root, options_.default_draft, Path{});
  validation_vocabulary_ = before_2019(draft) || uses_validation_vocabulary(root);
  d_.root = compile_document(root, "", draft, Path{});
  resolve_refs();
  if (problems_.empty()) finish();
  if (!problems_.empty()) throw SchemaError(problems_);
}

// The draft `schema` declares with `$schema`, or `fallback`. A custom meta-schema (from the
// registry) is written in the dialect its own `$schema` names; a URI that leads to no dialect
// is a problem naming it.
Draft Compiler::dialect_of(const ojson& schema, Draft fallback, const Path& path) {
  if (!schema.is_object()) return fallback;
  auto it = schema.find("$schema");
  if (it == schema.end()) return fallback;
  if (!it->is_string()) {
    problem(path / std::string("$schema"), "$schema must be a string");
    return fallback;
  }
  std::string uri = strip_fragment(it->get<std::string>());
  for (int hops = 0; hops < 8; ++hops) {
    if (const auto draft = draft_named(uri)) return *draft;
    const ojson* meta = load_quietly(uri);
    if (meta == nullptr || !meta->is_object()) break;
    auto declared = meta->find("$schema");
    if (declared == meta->end() || !declared->is_string()) break;
    uri = strip_fragment(declared->get<std::string>());
  }
  problem(path / std::string("$schema"),
          "$schema \"" + it->get<std::string>() +
              "\" is no dialect accord reads (draft-04, draft-06, draft-07, 2019-09, 2020-12) "
              "nor a meta-schema in the schema registry");
  return fallback;
}

// A document from the registry or the bundled meta-schemas, or null (no problem recorded).
const ojson* Compiler::load_quietly(const std::string& uri) {
  const std::size_t problems = problems_.size();
  const ojson* out = load(uri, Path{});
  problems_.resize(problems);
  return out;
}

// A custom 2019-09 or 2020-12 meta-schema (from the registry) may leave out the validation
// vocabulary; its keywords are then annotations. An unknown meta-schema changes nothing.
bool Compiler::uses_validation_vocabulary(const ojson& root) {
  auto schema = root.is_object() ? root.find("$schema") : root.end();
  if (!root.is_object() || schema == root.end() || !schema->is_string()) return true;
  const auto uri = strip_fragment(schema->get<std::string>());
  if (!meta_schema(uri).empty()) return true;
  const ojson* meta = load_quietly(uri);
  if (meta == nullptr || !meta->is_object()) return true;
  auto vocabulary = meta->find("$vocabulary");
  if (vocabulary == meta->end() || !vocabulary->is_object()) return true;
  return vocabulary->contains("https://json-schema.org/draft/2020-12/vocab/validation") ||
         vocabulary->contains("https://json-schema.org/draft/2019-09/vocab/validation");
}

void Compiler::problem(const Path& path, std::string message) {
  problems_.push_back(SchemaProblem{path, std::move(message)});
}

NodeId Compiler::compile_document(const ojson& document, const std::string& uri, Draft draft,
                                  const Path& path) {
  const auto resource = static_cast<std::uint32_t>(d_.resources.size());
  d_.resources.push_back(Resource{uri, &document, draft, {}, {}, {}});
  by_uri_[uri] = resource;
  return compile(document, uri, draft, resource, path, 0);
}

NodeId Compiler::compile(const ojson& schema, std::string base, Draft draft, std::uint32_t resource,
                         const Path& path, std::size_t depth) {
  if (auto it = memo_.find(&schema); it != memo_.end()) return it->second;
  if (depth > kMaxSchemaDepth) {
    problem(path, schema_too_deep());
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
  if (depth > 0) draft = dialect_of(schema, draft, path);
  const bool has_ref = schema.contains("$ref");
  // A new base URI (and resource) where `$id` (draft-04: `id`) says; before 2019-09 it is ignored
  // beside `$ref`.
  const std::string id_key = keyword_row("$id")->dialects & dialect_bit(draft) ? "$id" : "id";
  if (auto it = schema.find(id_key); it != schema.end() && !(before_2019(draft) && has_ref)) {
    if (!it->is_string()) {
      problem(path / id_key, id_key + " must be a string");
    } else {
      const auto target = resolve_uri(base, it->get<std::string>());
      const auto [uri, fragment] = split_fragment(target);
      if (uri != strip_fragment(base) || fragment.empty()) {
        base = uri;
        resource = static_cast<std::uint32_t>(d_.resources.size());
        d_.resources.push_back(Resource{uri, &schema, draft, {}, {}, {}});
        by_uri_[uri] = resource;
      }
      // Location-independent identifiers before 2019-09: "$id": "#name" (or "uri#name").
      if (before_2019(draft) && !fragment.empty() && fragment[0] != '/') {
        d_.resources[resource].anchors[fragment] = &schema;
      }
    }
  }
  d_.nodes[id].resource = resource;
  KeywordCompiler keywords{*this, id, base, draft, resource, path, depth, schema};
  Resource& home = d_.resources[resource];
  if (auto it = schema.find("$anchor");
      it != schema.end() && it->is_string() && keywords.reads("$anchor")) {
    home.anchors[it->get<std::string>()] = &schema;
  }
  if (auto it = schema.find("$dynamicAnchor");
      it != schema.end() && it->is_string() && keywords.reads("$dynamicAnchor")) {
    home.anchors[it->get<std::string>()] = &schema;
    home.dynamic_anchors[it->get<std::string>()] = &schema;
  }
  // 2019-09: a resource's root marked `"$recursiveAnchor": true` is where a `$recursiveRef` may
  // land through the dynamic scope.
  if (auto it = schema.find("$recursiveAnchor"); it != schema.end() && *it == true &&
                                                 home.root == &schema &&
                                                 keywords.reads("$recursiveAnchor")) {
    home.dynamic_anchors[std::string(kRecursiveAnchor)] = &schema;
  }
  const std::uint8_t dialect = dialect_bit(draft);
  for (const auto& [key, value] : schema.items()) {
    const KeywordRow* row = keyword_row(key);
    if (row == nullptr || row->compile == nullptr || (row->dialects & dialect) == 0) continue;
    if (!validation_vocabulary_ && row->vocabulary == Vocabulary::validation) continue;
    row->compile(keywords, key, value, path / key);
  }
  return id;
}

// The schema at `uri` (absolute, with fragment), loading a remote document when needed.
std::optional<NodeId> Compiler::target(const std::string& uri, Draft draft, const Path& path) {
  const auto [document, fragment] = split_fragment(uri);
  auto found = by_uri_.find(document);
  if (found == by_uri_.end()) {
    const ojson* loaded = load(document, path);
    if (loaded == nullptr) return std::nullopt;
    (void)compile_document(*loaded, document, dialect_of(*loaded, draft, path), path);
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

RegisteredDocument registered_document(const SchemaRegistry& registry, const std::string& uri) {
  if (auto it = registry.documents.find(uri); it != registry.documents.end()) {
    return {it->second, {}};
  }
  const std::pair<const std::string, std::string>* best = nullptr;
  for (const auto& entry : registry.directories) {
    if (uri.compare(0, entry.first.size(), entry.first) == 0 &&
        (best == nullptr || entry.first.size() > best->first.size())) {
      best = &entry;
    }
  }
  if (best == nullptr) {
    if (const auto known = meta_schema(uri); !known.empty()) return {ojson::parse(known), {}};
    return {std::nullopt, "$ref \"" + uri + "\" is not in this document or the schema registry"};
  }
  const std::string rest = uri.substr(best->first.size());
  if (rest.find("..") != std::string::npos) {
    return {std::nullopt, "$ref \"" + uri + "\" leaves the registry's directory"};
  }
  const std::string file =
      best->second + (best->second.empty() || best->second.back() == '/' ? "" : "/") + rest;
  std::string text;
  try {
    // A regular file within the schema-file cap: a FIFO, a device or a huge file under the
    // registry's directory cannot hang or exhaust the validator being built.
    text = read_bounded_file(file, FileBounds{.max_bytes = kMaxSchemaFileBytes});
  } catch (const std::runtime_error& e) {
    return {std::nullopt, "$ref \"" + uri + "\": " + e.what()};
  }
  try {
    return {ojson::parse(text), {}};
  } catch (const std::exception& e) {
    return {std::nullopt, "$ref \"" + uri + "\": " + file + " is not JSON: " + e.what()};
  }
}

const ojson* Compiler::load(const std::string& uri, const Path& path) {
  auto found = registered_document(options_.registry, uri);
  if (!found.document) {
    problem(path, std::move(found.problem));
    return nullptr;
  }
  d_.documents.push_back(std::make_unique<ojson>(std::move(*found.document)));
  return d_.documents.back().get();
}

void Compiler::resolve_refs() {
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
    if (ref.kind == RefKind::plain) {
      node.ref = *id;
      continue;
    }
    node.dynamic_ref = *id;
    // Dynamic only when the first target carries the same $dynamicAnchor (2020-12), or is a
    // resource marked `"$recursiveAnchor": true` (2019-09).
    const ojson& source = *d_.nodes[*id].source;
    if (!source.is_object()) continue;
    std::string anchor_name;
    if (ref.kind == RefKind::recursive) {
      auto anchor = source.find("$recursiveAnchor");
      if (anchor != source.end() && *anchor == true) anchor_name = kRecursiveAnchor;
    } else if (const auto fragment = split_fragment(ref.uri).second;
               !fragment.empty() && fragment[0] != '/') {
      auto anchor = source.find("$dynamicAnchor");
      if (anchor != source.end() && *anchor == fragment) anchor_name = fragment;
    }
    if (!anchor_name.empty()) {
      node.dynamic_anchor = std::move(anchor_name);
      d_.dynamic_scope = true;
    }
  }
}

namespace {

// A unit that reads only the value it is given (its length, its text, its number, its count of
// items or members), never a sub-node.
bool checks_own_value(Unit unit) {
  switch (unit) {
    case Unit::min_items:
    case Unit::max_items:
    case Unit::unique_items:
    case Unit::min_length:
    case Unit::max_length:
    case Unit::format:
    case Unit::pattern:
    case Unit::minimum:
    case Unit::maximum:
    case Unit::exclusive_minimum:
    case Unit::exclusive_maximum:
    case Unit::multiple_of:
    case Unit::min_properties:
    case Unit::max_properties:
      return true;
    default:
      return false;
  }
}

}  // namespace

void Compiler::finish() {
  for (auto& resource : d_.resources) {
    for (const auto& [name, schema] : resource.dynamic_anchors) {
      if (auto it = memo_.find(schema); it != memo_.end())
        resource.dynamic_nodes[name] = it->second;
    }
  }
  for (auto& node : d_.nodes) {
    if (!node.one_of.empty()) find_discriminator(node);
    // Each property's step: whether it is required is decided once rather than per value (its
    // DSL half is bound when the engine is built).
    for (const auto& [name, id] : node.properties) {
      const bool required =
          std::find(node.required.begin(), node.required.end(), name) != node.required.end();
      node.property_steps.push_back({name, id, &d_.nodes[id], required});
    }
    node.wrapped = node.boolean || node.ref_only || node.tracks || node.tuple ||
                   node.nullable_inner != kNone || node.ref != kNone || node.dynamic_ref != kNone ||
                   !node.any_of.empty() || !node.one_of.empty();
    node.pattern_follows_format = node.pattern_source == kDatePattern && node.format == "date" &&
                                  node.format_check != nullptr;
    node.leaf = !node.wrapped && node.rules.empty() &&
                std::all_of(node.units.begin(), node.units.end(), checks_own_value);
    if (node.leaf && !node.units.empty()) {
      if (has_only_string_bounds(node)) {
        node.quick_bounds = QuickBounds::string;
      } else {
        mark_quick_number_bounds(node);
      }
    }
    // The views point into the node's strings, which stay where they are from here on.
    for (std::uint32_t i = 0; i < node.properties.size(); ++i) {
      node.properties_by_name.push_back({KnownText{node.properties[i].first}, i});
    }
    std::sort(node.properties_by_name.begin(), node.properties_by_name.end(),
              [](const Node::PropertyByName& a, const Node::PropertyByName& b) {
                return a.name.text < b.name.text;
              });
    // The rules read the fields the object keywords found (only a node with few properties has
    // their values found in one pass).
    if (!node.rules.empty() && node.properties.size() <= MemberValues::kCapacity) {
      std::vector<std::string_view> declared;
      for (const auto& entry : node.properties) declared.emplace_back(entry.first);
      for (auto& rule : node.rules) rule.bind_places(declared);
    }
    for (const auto& name : node.required) {
      const bool declared =
          std::any_of(node.properties.begin(), node.properties.end(),
                      [&name = name](const auto& entry) { return entry.first == name; });
      if (!declared) node.required_undeclared.push_back(name);
    }
  }
}

const Node& Compiler::through_refs(NodeId id) const {
  const Node* node = &d_.nodes[id];
  for (int hops = 0; hops < 64 && node->ref_only && node->ref != kNone; ++hops) {
    node = &d_.nodes[node->ref];
  }
  return *node;
}

// A property every oneOf option requires and fixes with a distinct const, in objects only: the
// tag of a discriminated union. Then the tag alone picks the option (Zod's z.discriminatedUnion).
void Compiler::find_discriminator(Node& node) {
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

NodeId KeywordCompiler::sub(const ojson& schema, const Path& at) {
  return c.compile(schema, base, draft, resource, at, depth + 1);
}

void KeywordCompiler::add_unit(Unit unit) {
  auto& units = node().units;
  if (std::find(units.begin(), units.end(), unit) == units.end()) units.push_back(unit);
}
std::vector<NodeId> KeywordCompiler::list(const ojson& value, const std::string& key,
                                          const Path& at, bool non_empty) {
  std::vector<NodeId> out;
  if (!value.is_array() || (non_empty && value.empty())) {
    c.problem(
        at, key + (non_empty ? " must be a non-empty array" : " must be an array") + " of schemas");
    return out;
  }
  for (std::size_t i = 0; i < value.size(); ++i) out.push_back(sub(value[i], at / i));
  return out;
}
std::vector<std::pair<std::string, NodeId>> KeywordCompiler::map(const ojson& value,
                                                                 const std::string& key,
                                                                 const Path& at) {
  std::vector<std::pair<std::string, NodeId>> out;
  if (!value.is_object()) {
    c.problem(at, key + " must be an object");
    return out;
  }
  for (const auto& [name, schema] : value.items()) {
    const NodeId target = sub(schema, at / name);
    out.emplace_back(name, target);
  }
  return out;
}

std::optional<std::uint64_t> KeywordCompiler::count(const ojson& value, const Path& at,
                                                    const std::string& key) {
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

json KeywordCompiler::number(const ojson& value, const Path& at, const std::string& key) {
  if (!value.is_number()) {
    c.problem(at, key + " must be a number");
    return nullptr;
  }
  return json::parse(value.dump());
}

Regex KeywordCompiler::regex(const ojson& value, const Path& at) {
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

void KeywordCompiler::reference(const ojson& value, const Path& at, const std::string& key,
                                RefKind kind) {
  if (!value.is_string()) {
    problem(at, key + " must be a string");
    return;
  }
  c.pending_.push_back({id, resolve_uri(base, value.get<std::string>()), kind, at, draft});
}

bool KeywordCompiler::reads(std::string_view keyword) const {
  const KeywordRow* row = keyword_row(keyword);
  return row != nullptr && (row->dialects & dialect_bit(draft)) != 0;
}

}  // namespace accord::detail
