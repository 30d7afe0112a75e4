#include "accord/json_schema_file.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <variant>

#include "core/ordered_object.hpp"
#include "schema/report_writer.hpp"
#include "schema/rule_wording.hpp"
#include "schema/schema_text.hpp"
#include "schema/schema_uri.hpp"
#include "text/string_formats.hpp"
#include "validate/compiler.hpp"
#include "validate/engine.hpp"
#include "validate/keyword_table.hpp"

namespace accord {
namespace {

using detail::ObjectWriter;
using detail::ojson;

// What the keyword table (validate/keyword_table.hpp) says of `key`: what its value holds, and
// whether it is a Report row "keyword value", a count.
detail::Holds keyword_holds(std::string_view key) {
  const auto* row = detail::keyword_row(key);
  return row == nullptr ? detail::Holds::value : row->holds;
}
bool holds_schema(std::string_view key) {
  const auto kind = keyword_holds(key);
  return kind == detail::Holds::schema || kind == detail::Holds::schema_or_schemas;
}
bool holds_schemas(std::string_view key) {
  const auto kind = keyword_holds(key);
  return kind == detail::Holds::schemas || kind == detail::Holds::schema_or_schemas;
}
bool holds_schema_map(std::string_view key) {
  return keyword_holds(key) == detail::Holds::schema_map;
}
bool reported_as_value(std::string_view key) {
  const auto* row = detail::keyword_row(key);
  return row != nullptr && row->reported;
}
bool is_count_keyword(std::string_view key) {
  const auto* row = detail::keyword_row(key);
  return row != nullptr && row->count;
}

// A document being inlined: the root its local `$ref`s point into, and the URI its relative
// ones resolve against (the document's `$id`, or the URI it was read from).
struct Source {
  const ojson* root;
  std::string uri;
};

// Before draft-06 a schema's base URI and its plain-name anchors are written `id`.
const char* id_keyword(const ojson& document) {
  const auto schema = document.is_object() ? document.find("$schema") : document.end();
  const bool draft4 = schema != document.end() && schema->is_string() &&
                      schema->get_ref<const std::string&>().find("draft-04") != std::string::npos;
  return draft4 ? "id" : "$id";
}

// Every subschema of the loaded documents with the resource it is in (its nearest `$id`), and
// each resource and anchor by URI, so a `$ref` by anchor (`#foo`, `$anchor` or an old `$id`
// "#foo") or by an embedded `$id` finds its node, and relative references inside the target
// resolve against the target's own base.
struct Resources {
  std::map<const ojson*, Source> source_of;
  std::map<std::string, const ojson*> by_uri;  // resources ("http://x/a") and anchors ("...#foo")

  void add_document(const ojson& document, const std::string& uri) {
    // Found by the URI it was loaded by too, whatever its own `$id` says.
    by_uri.emplace(uri, &document);
    add(document, Source{&document, uri}, id_keyword(document));
  }

 private:
  void add(const ojson& node, Source source, const char* id) {
    if (!node.is_object()) return;
    if (auto written = node.find(id); written != node.end() && written->is_string()) {
      const auto resolved = detail::resolve_uri(source.uri, written->get<std::string>());
      auto [uri, fragment] = detail::split_fragment(resolved);
      if (fragment.empty()) {
        source = Source{&node, uri};
        by_uri.emplace(uri, &node);
      } else if (fragment[0] != '/') {
        by_uri.emplace(uri + "#" + fragment, &node);  // draft-06/07 `"$id": "#foo"`
      }
    }
    if (source.root == &node) by_uri.emplace(source.uri, &node);
    if (auto anchor = node.find("$anchor"); anchor != node.end() && anchor->is_string()) {
      by_uri.emplace(source.uri + "#" + anchor->get<std::string>(), &node);
    }
    source_of.emplace(&node, source);
    for (const auto& [key, value] : node.items()) {
      if (key == "$defs" || key == "definitions" || holds_schema_map(key)) {
        if (!value.is_object()) continue;
        for (const auto& [name, child] : value.items()) add(child, source, id);
      } else if (holds_schemas(key) && value.is_array()) {
        for (const auto& child : value) add(child, source, id);
      } else if (holds_schema(key)) {
        add(value, source, id);
      }
    }
  }
};

// Names given to the targets kept as references into the root's `$defs`: recursive ones
// (providers that take recursion get it; the others unroll it when lowering) and shared ones
// (used at more than one place: providers that take `$defs` get each once; the others inline each
// use, within a bound).
struct Definitions {
  struct Named {
    const ojson* target;
    Source source;  // the resource the target is in
    std::string name;
  };
  std::vector<Named> named;  // in the order found
  std::set<std::string> used;

  // "#/$defs/<name>" for `target`, naming it after the last segment of the `$ref` as written
  // when new.
  std::string reference(const ojson* target, const Source& source, const std::string& written) {
    for (const auto& entry : named) {
      if (entry.target == target) return "#/$defs/" + entry.name;
    }
    const auto slash = written.find_last_of("/#");
    std::string base =
        slash + 1 == written.size()
            ? "root"
            : detail::percent_decoded(written.substr(slash == std::string::npos ? 0 : slash + 1));
    if (base.find_first_of("/~") != std::string::npos) base = "definition";
    std::string name = base;
    for (int i = 2; !used.insert(name).second; ++i) name = base + std::to_string(i);
    named.push_back({target, source, name});
    return "#/$defs/" + name;
  }
};

// Keywords that assert nothing: a `$ref` with only these beside it can stay a reference.
bool annotations_only_beside_ref(const ojson& node) {
  return std::all_of(node.items().begin(), node.items().end(), [](const auto& entry) {
    const auto& key = entry.key();
    return key == "$ref" || key == "description" || key == "title" || key == "$comment";
  });
}

// What an inlining walk shares: the documents other documents are read from (the caller's
// registry, then the bundled meta-schemas), each read once, and how often each `$ref` target is
// used.
struct Inlining {
  const SchemaRegistry& registry;
  std::map<std::string, std::unique_ptr<ojson>> loaded;
  std::vector<const ojson*> active;
  Definitions definitions;
  Resources resources;
  std::map<const ojson*, std::size_t> uses;

  // The node `written` (a `$ref` in `source`) names, with the resource it is in; SchemaError at
  // `at` when there is none.
  std::pair<const ojson*, Source> target(const std::string& written, const Source& source,
                                         const Path& at) {
    const auto [uri, fragment] = detail::split_fragment(
        written.starts_with("#") ? source.uri + written : detail::resolve_uri(source.uri, written));
    auto resource = resources.by_uri.find(uri);
    if (resource == resources.by_uri.end()) {
      resources.add_document(document(uri, at), uri);
      resource = resources.by_uri.find(uri);
    }
    const ojson* node = resource->second;
    if (fragment.empty() || fragment[0] == '/') {
      node = &node->at(ojson::json_pointer(detail::percent_decoded(fragment)));
    } else if (const auto anchor = resources.by_uri.find(uri + "#" + fragment);
               anchor != resources.by_uri.end()) {
      node = anchor->second;
    } else {
      throw SchemaError({SchemaProblem{at, "$ref \"" + written + "\": no anchor \"" + fragment +
                                               "\" in " + (uri.empty() ? "the schema" : uri)}});
    }
    return {node, this->source(*node, Source{resource->second, uri})};
  }

  // Where `node` is: the resource of its nearest `$id`, else `fallback`.
  const Source& source(const ojson& node, const Source& fallback) const {
    const auto found = resources.source_of.find(&node);
    return found == resources.source_of.end() ? fallback : found->second;
  }

 private:
  const ojson& document(const std::string& uri, const Path& at) {
    auto& slot = loaded[uri];
    if (!slot) {
      auto found = detail::registered_document(registry, uri);
      if (!found.document) throw SchemaError({SchemaProblem{at, std::move(found.problem)}});
      slot = std::make_unique<ojson>(std::move(*found.document));
    }
    return *slot;
  }
};

// Calls `fn(child, path)` for each subschema `node` holds, `$defs` left out (they are reached
// through the references to them).
template <typename Fn>
void for_each_subschema(const ojson& node, const Path& path, Fn&& fn) {
  for (const auto& [key, value] : node.items()) {
    if (key == "$ref" || key == "$defs" || key == "definitions") continue;
    const Path at = path / key;
    if (holds_schema_map(key) && value.is_object()) {
      for (const auto& [name, child] : value.items()) fn(child, at / name);
    } else if (holds_schemas(key) && value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) fn(value[i], at / i);
    } else if (holds_schema(key)) {
      fn(value, at);
    }
  }
}

// Counts the places each `$ref` target is used from, walking each target once.
void count_uses(const ojson& node, const Source& outer, const Path& path, Inlining& state) {
  if (!node.is_object()) return;
  const Source& source = state.source(node, outer);
  if (auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
    const Path at = path / std::string("$ref");
    const auto [target, target_source] = state.target(ref->get<std::string>(), source, at);
    if (++state.uses[target] == 1) count_uses(*target, target_source, at, state);
  }
  for_each_subschema(node, path, [&](const ojson& child, const Path& at) {
    count_uses(child, source, at, state);
  });
}

// `$ref`s replaced by their targets so each provider's lowering sees every node: JSON pointers
// and anchors into this document or, through the registry, into another. A `$ref` stays a
// reference into the root's `$defs` when it leads back into a target being inlined (recursion),
// or to a target used at more than one place with nothing but annotations beside it (inlining
// each would multiply the schema: a chain of definitions each used twice doubles per link).
ojson inlined(const ojson& node, const Source& outer, const Path& path, Inlining& state) {
  if (!node.is_object()) return node;
  const Source& source = state.source(node, outer);
  ojson start = ojson::object();
  if (auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
    const Path at = path / std::string("$ref");
    const auto& written = ref->get_ref<const std::string&>();
    const auto [resolved, target_source] = state.target(written, source, at);
    const bool recursive =
        std::find(state.active.begin(), state.active.end(), resolved) != state.active.end();
    const bool shared = !path.empty() && state.uses[resolved] > 1 &&
                        annotations_only_beside_ref(node) && resolved->is_object();
    if (recursive || shared) {
      start["$ref"] = state.definitions.reference(resolved, target_source, written);
    } else {
      state.active.push_back(resolved);
      start = inlined(*resolved, target_source, at, state);
      state.active.pop_back();
    }
  }
  ObjectWriter out(std::move(start));
  for (const auto& [key, value] : node.items()) {
    if (key == "$ref" || key == "$defs" || key == "definitions") continue;
    const Path at = path / key;
    if (holds_schema_map(key) && value.is_object()) {
      ObjectWriter map(ojson::object());
      for (const auto& [name, child] : value.items())
        map.set(name, inlined(child, source, at / name, state));
      out.set(key, std::move(map).done());
    } else if (holds_schemas(key) && value.is_array()) {
      ojson list = ojson::array();
      for (std::size_t i = 0; i < value.size(); ++i) {
        list.push_back(inlined(value[i], source, at / i, state));
      }
      out.set(key, std::move(list));
    } else if (holds_schema(key)) {
      out.set(key, inlined(value, source, at, state));
    } else {
      out.set(key, value);
    }
  }
  return std::move(out).done();
}

// The document inlined, with a root `$defs` holding each recursive or shared target (itself
// inlined, its own recursion and shared targets kept as references).
ojson inlined_document(const ojson& document, const SchemaRegistry& registry) {
  Inlining state{registry, {}, {&document}, {}, {}, {}};
  state.resources.add_document(document, "");
  const Source root = state.source(document, Source{&document, ""});
  count_uses(document, root, Path{}, state);
  ojson json = inlined(document, root, Path{}, state);
  if (state.definitions.named.empty()) return json;
  ojson defs = ojson::object();
  for (std::size_t i = 0; i < state.definitions.named.size(); ++i) {  // grows while inlining
    const auto entry = state.definitions.named[i];
    state.active = {entry.target};
    defs[entry.name] = inlined(*entry.target, entry.source, Path{"$defs", entry.name}, state);
  }
  if (!json.is_object()) return json;
  json["$defs"] = std::move(defs);
  return json;
}

std::string shown(const ojson& value) {
  constexpr std::size_t kMax = 60;
  auto text = value.dump();
  if (text.size() > kMax) text = text.substr(0, kMax - 3) + "...";
  return text;
}

bool is_null_schema(const ojson& node) {
  return node.is_object() && node.size() == 1 && node.contains("type") && node["type"] == "null";
}

bool is_nullable_wrapper(const ojson& options) {
  return options.is_array() && options.size() == 2 &&
         (is_null_schema(options[0]) || is_null_schema(options[1]));
}

// Appends the sentence for each rule to the node's description, placed after "type" as emit()
// places it.
void describe_rules(ojson& node) {
  std::string words;
  for (const auto& entry : node[kRulesKeyword]) {
    const auto sentence = detail::rule_sentence(parse_rule(entry));
    words += (words.empty() ? "" : " ") + sentence;
  }
  if (auto it = node.find("description"); it != node.end() && it->is_string()) {
    *it = detail::joined_sentences(it->get<std::string>(), words);
    return;
  }
  ObjectWriter out(ojson::object());
  bool described = false;
  for (auto& [key, value] : node.items()) {
    out.set(key, std::move(value));
    if (key == "type") {
      out.set("description", words);
      described = true;
    }
  }
  if (!described) out.set("description", words);
  node = std::move(out).done();
}

// Counts above 2^53 are refused by one rule whatever their spelling: `1e30` and
// `10000000000000000000` are the same kind of number to a reader, and no string, array or object
// is that long. (The compiler alone refused the float as "not an integer" and took the other.)
constexpr double kMaxCount = 9007199254740992.0;  // 2^53, the largest exact double integer

// The limits a file must keep before any recursive pass reads it: counts, nesting depth, and no
// object that requires a key it forbids.
void check_file_limits(const ojson& node, const Path& path, std::size_t depth,
                       std::vector<SchemaProblem>& problems) {
  if (!node.is_object()) return;
  // Refused before any recursive pass (compiling, inlining, lowering) walks it: a hostile file
  // must not exhaust the stack.
  if (depth > detail::kMaxSchemaDepth) {
    problems.push_back({path, detail::schema_too_deep()});
    return;
  }
  // An object that must hold a key it may not hold accepts nothing: no wire can say that.
  const auto required = node.find("required");
  const auto extra = node.find("additionalProperties");
  if (required != node.end() && required->is_array() && extra != node.end() && *extra == false &&
      !node.contains("patternProperties")) {
    const auto properties = node.find("properties");
    for (std::size_t i = 0; i < required->size(); ++i) {
      const auto& name = (*required)[i];
      if (name.is_string() && (properties == node.end() || !properties->is_object() ||
                               !properties->contains(name.get<std::string>()))) {
        problems.push_back({path / "required" / i,
                            "requires " + name.dump() +
                                ", which properties does not declare and additionalProperties "
                                "false forbids: no value can satisfy this object"});
      }
    }
  }
  for (const auto& [key, value] : node.items()) {
    if (is_count_keyword(key) && value.is_number() && value.get<double>() > kMaxCount) {
      problems.push_back({path / key, key + " " + value.dump() +
                                          " is larger than any length accord can check (at "
                                          "most 2^53 = 9007199254740992)"});
    } else if (holds_schema_map(key) && value.is_object()) {
      for (const auto& [name, child] : value.items()) {
        check_file_limits(child, path / key / name, depth + 1, problems);
      }
    } else if (holds_schemas(key) && value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        check_file_limits(value[i], path / key / i, depth + 1, problems);
      }
    } else if (holds_schema(key)) {
      check_file_limits(value, path / key, depth + 1, problems);
    }
  }
}

// The value path (as the Report writes it) of the node a schema path leads into: `properties/a`
// is `a`, `items` is `[]`, `anyOf/1` is `|1`; keywords that keep the value where it is (allOf,
// if/then/else, not) add nothing.
Path value_path(const Path& schema_path) {
  Path out;
  const auto& segments = schema_path.segments();
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto* key = std::get_if<std::string>(&segments[i]);
    const bool named = key != nullptr && i + 1 < segments.size();
    if (named && (*key == "properties" || *key == "$defs" || *key == "definitions")) {
      if (*key != "properties") out = out / std::string("$defs");
      out = out / std::get<std::string>(segments[++i]);
    } else if (named && (*key == "anyOf" || *key == "oneOf")) {
      out = out / ("|" + std::to_string(std::get<std::size_t>(segments[++i])));
    } else if (named && (*key == "prefixItems" || *key == "items") &&
               std::holds_alternative<std::size_t>(segments[i + 1])) {
      out = out / std::get<std::size_t>(segments[++i]);
    } else if (key != nullptr && *key == "items") {
      out = out / std::string("[]");
    } else if (key != nullptr && *key == "additionalProperties") {
      out = out / std::string("{}");
    } else if (named && *key == "allOf") {
      ++i;
    }
  }
  return out;
}

class Importer {
 public:
  Report report;

  // A keyword beside a draft-04/06/07 `$ref` (at `schema_path`): the specification ignores it and
  // so does accord validate by default, but the import applies it (as ajv does), so the wire
  // holds the model to it and a reply is checked against it.
  void keyword_beside_ref(const Path& schema_path) {
    const auto& segments = schema_path.segments();
    if (segments.empty()) return;
    const auto* keyword = std::get_if<std::string>(&segments.back());
    if (keyword == nullptr) return;
    const Path node(std::vector<PathSegment>(segments.begin(), segments.end() - 1));
    add(value_path(node), *keyword + " beside $ref", *keyword, Fate::keyword,
        "written beside a $ref, which draft-04/06/07 ignore (accord validate ignores it unless "
        "--apply-ref-siblings); applied here, as ajv does, on the wire and in the checks of "
        "replies");
  }

  void walk(ojson& node, const Path& path) {
    if (!node.is_object()) return;
    record(node, path);
    if (auto properties = node.find("properties");
        properties != node.end() && properties->is_object()) {
      for (auto& [name, child] : properties->items()) walk(child, path / name);
    }
    const bool tuple =
        node.contains("prefixItems") || (node.contains("items") && node["items"].is_array());
    if (auto positions = node.find(node.contains("prefixItems") ? "prefixItems" : "items");
        tuple && positions != node.end() && positions->is_array()) {
      for (std::size_t i = 0; i < positions->size(); ++i) walk((*positions)[i], path / i);
    } else if (auto items = node.find("items"); items != node.end() && items->is_object()) {
      walk(*items, path / std::string("[]"));
    }
    for (const char* key : {"anyOf", "oneOf"}) {
      auto options = node.find(key);
      if (options == node.end() || !options->is_array()) continue;
      const bool nullable = std::string_view(key) == "anyOf" && is_nullable_wrapper(*options);
      for (std::size_t i = 0; i < options->size(); ++i) {
        if (nullable && is_null_schema((*options)[i])) continue;
        walk((*options)[i], nullable ? path : path / ("|" + std::to_string(i)));
      }
    }
    if (auto all = node.find("allOf"); all != node.end() && all->is_array()) {
      for (auto& branch : *all) walk(branch, path);
    }
    // A typed map's values: each value's rules get their own rows, at `{}` (any key).
    if (auto values = node.find("additionalProperties");
        values != node.end() && values->is_object() && !values->empty()) {
      walk(*values, path / std::string("{}"));
    }
    if (node.contains(kRulesKeyword)) describe_rules(node);
  }

 private:
  void add(const Path& path, std::string rule, std::string keyword, Fate fate = Fate::keyword,
           std::string why = {}) {
    detail::ReportWriter{report}.add(
        {path, std::move(rule), std::move(keyword), fate, std::move(why), "file"});
  }

  void record(const ojson& node, const Path& path) {
    for (const auto& [key, value] : node.items()) {
      if (key == "description" && value.is_string()) {
        add(path, "description " + shown(value), "description");
      } else if (key == "type" && (value == "integer" || value.is_array())) {
        add(path, "type " + value.dump(), "type");
      } else if (key == "pattern" && value.is_string()) {
        add(path, "pattern /" + value.get<std::string>() + "/", "pattern");
      } else if (key == "format" && value.is_string() &&
                 !detail::check_format(value.get<std::string>(), "").has_value()) {
        // Never "enforced locally": accord has no check for it (strict lowering fails on it).
        add(path, "format " + value.dump(), "format", Fate::dropped,
            "accord does not know format " + value.dump() + "; it is not checked locally");
      } else if (key == "additionalProperties" && value == false) {
        add(path, "no unknown keys", "additionalProperties");
      } else if (key == "additionalProperties" && value.is_object() && !value.empty()) {
        add(path, "other keys hold " + shown(value), "additionalProperties");
      } else if (key == "anyOf" && value.is_array()) {
        if (is_nullable_wrapper(value)) {
          add(path, "nullable", "anyOf");
        } else {
          add(path, "anyOf of " + std::to_string(value.size()), "anyOf");
        }
      } else if ((key == "oneOf" || key == "allOf") && value.is_array()) {
        add(path, key + " of " + std::to_string(value.size()), key);
      } else if (key == "prefixItems" && value.is_array()) {
        add(path, "tuple of " + std::to_string(value.size()), "prefixItems");
      } else if (key == "items" && value.is_array()) {
        add(path, "tuple of " + std::to_string(value.size()), "items");
      } else if (key == kRulesKeyword && value.is_array()) {
        for (const auto& entry : value) {
          const Rule rule = parse_rule(entry);
          add(path, detail::rule_report_text(rule), kRulesKeyword, Fate::description,
              detail::rule_why(rule));
        }
      } else if (reported_as_value(key)) {
        add(path, key + " " + shown(value), key);
      }
    }
    // A property left out of `required` may be absent: emit() records that as "optional".
    const auto properties = node.find("properties");
    if (properties == node.end() || !properties->is_object()) return;
    std::set<std::string> required;
    if (auto list = node.find("required"); list != node.end() && list->is_array()) {
      for (const auto& name : *list) {
        if (name.is_string()) required.insert(name.get<std::string>());
      }
    }
    for (const auto& [name, child] : properties->items()) {
      if (required.count(name) == 0) add(path / name, "optional", "required");
    }
  }
};

}  // namespace

EmittedSchema import_json_schema(const nlohmann::ordered_json& document,
                                 const SchemaRegistry& registry) {
  std::vector<SchemaProblem> problems;
  check_file_limits(document, Path{}, 0, problems);
  if (!problems.empty()) throw SchemaError(std::move(problems));
  // The engine throws SchemaError naming each problem (x-accord-rules entries included).
  const detail::Engine engine(document, nullptr, detail::EngineOptions{.registry = registry});
  ojson json = inlined_document(document, registry);
  Importer importer;
  for (const auto& path : engine.keywords_beside_ref()) importer.keyword_beside_ref(path);
  importer.walk(json, Path{});
  if (auto defs = json.is_object() ? json.find("$defs") : json.end();
      json.is_object() && defs != json.end()) {
    for (auto& [name, definition] : defs->items()) importer.walk(definition, Path{"$defs", name});
  }
  return {std::move(json), std::move(importer.report)};
}

}  // namespace accord
