#include "accord/json_schema_file.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

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

Source source_of(const ojson& root, std::string uri) {
  if (auto id = root.is_object() ? root.find("$id") : root.end();
      root.is_object() && id != root.end() && id->is_string()) {
    uri = detail::strip_fragment(detail::resolve_uri(uri, id->get<std::string>()));
  }
  return {&root, std::move(uri)};
}

// Names given to the targets of recursive `$ref`s, which stay references into the root's
// `$defs` (providers that take recursion get it; the others unroll it when lowering).
struct Recursion {
  struct Named {
    const ojson* target;
    Source source;  // the document the target is in
    std::string name;
  };
  std::vector<Named> named;  // in the order found
  std::set<std::string> used;

  // "#/$defs/<name>" for `target`, naming it after the last segment of `pointer` when new.
  std::string reference(const ojson* target, const Source& source, const std::string& pointer) {
    for (const auto& entry : named) {
      if (entry.target == target) return "#/$defs/" + entry.name;
    }
    const auto slash = pointer.rfind('/');
    std::string base = slash == std::string::npos || slash + 1 == pointer.size()
                           ? "root"
                           : detail::percent_decoded(pointer.substr(slash + 1));
    if (base.find_first_of("/~") != std::string::npos) base = "definition";
    std::string name = base;
    for (int i = 2; !used.insert(name).second; ++i) name = base + std::to_string(i);
    named.push_back({target, source, name});
    return "#/$defs/" + name;
  }
};

// What an inlining walk shares: the documents other documents are read from (the caller's
// registry, then the bundled meta-schemas), each read once.
struct Inlining {
  const SchemaRegistry& registry;
  std::map<std::string, std::unique_ptr<ojson>> loaded;
  std::vector<const ojson*> active;
  Recursion recursion;

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

// `$ref`s replaced by their targets so each provider's lowering sees every node: JSON pointers
// into this document or, through the registry, into another; a `$ref` back into a target being
// inlined (recursion) stays a reference, into the root's `$defs`. The engine has checked the
// document; references by anchor or embedded `$id` are refused here with the path of the `$ref`.
ojson inlined(const ojson& node, const Source& source, const Path& path, Inlining& state) {
  if (!node.is_object()) return node;
  ojson start = ojson::object();
  if (auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
    const Path at = path / std::string("$ref");
    const auto& written = ref->get_ref<const std::string&>();
    auto [uri, fragment] = detail::split_fragment(
        written.starts_with("#") ? source.uri + written : detail::resolve_uri(source.uri, written));
    if (!fragment.empty() && fragment[0] != '/') {
      throw SchemaError({SchemaProblem{
          at, "$ref \"" + written +
                  "\": only JSON-pointer references (#/...) can be inlined for providers"}});
    }
    const Source target_source =
        uri == source.uri ? source : source_of(state.document(uri, at), uri);
    const ojson& resolved =
        target_source.root->at(ojson::json_pointer(detail::percent_decoded(fragment)));
    if (std::find(state.active.begin(), state.active.end(), &resolved) != state.active.end()) {
      start["$ref"] = state.recursion.reference(&resolved, target_source, "#" + fragment);
    } else {
      state.active.push_back(&resolved);
      start = inlined(resolved, target_source, at, state);
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

// The document inlined, with a root `$defs` holding each recursive target (itself inlined, its
// own recursion kept as references).
ojson inlined_document(const ojson& document, const SchemaRegistry& registry) {
  Inlining state{registry, {}, {&document}, {}};
  ojson json = inlined(document, source_of(document, ""), Path{}, state);
  if (state.recursion.named.empty()) return json;
  ojson defs = ojson::object();
  for (std::size_t i = 0; i < state.recursion.named.size(); ++i) {  // grows while inlining
    const auto entry = state.recursion.named[i];
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

class Importer {
 public:
  Report report;

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
  (void)detail::Engine(document, nullptr, detail::EngineOptions{.registry = registry});
  ojson json = inlined_document(document, registry);
  Importer importer;
  importer.walk(json, Path{});
  return {std::move(json), std::move(importer.report)};
}

}  // namespace accord
