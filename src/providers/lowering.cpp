#include "providers/lowering.hpp"
#include "text/string_formats.hpp"

#include "accord/rules.hpp"
#include "core/ordered_object.hpp"
#include "providers/rule_lowering.hpp"
#include "schema/schema_text.hpp"
#include "text/condition_words.hpp"
#include "validate/keyword_table.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace accord {
namespace detail {
namespace {

using ojson = nlohmann::ordered_json;

// Quantifier bounds above this count as the "large {n,m} ranges" Anthropic rejects. The docs give
// no number; 100 keeps every everyday pattern (ids, dates, codes) on the wire.
constexpr long kMaxSimpleRepeat = 100;

// How many levels of a recursive definition go on the wire for a provider without recursion:
// trees, threads and sections seldom nest deeper in one answer, and each level multiplies size.
constexpr int kUnrollDepth = 3;

// The keywords lowering classes as `lowering` in the keyword table (validate/keyword_table.hpp).
std::set<std::string, std::less<>> keywords_lowered(LoweringClass lowering) {
  std::set<std::string, std::less<>> out;
  for (const auto& row : keyword_rows()) {
    if (row.lowering == lowering) out.emplace(row.name);
  }
  return out;
}

// Keywords neither OpenAI strict mode nor Anthropic accept; emit() writes none of them today, but a
// hand-written or future schema may, and each must still reach the model as words.
const std::set<std::string, std::less<>> kRejected = keywords_lowered(LoweringClass::rejected);

// The keywords the walk below keeps, rewrites or states in words (with kRejected). Anything else
// is no JSON Schema 2020-12 assertion accord checks (`nullable`, `typeof`, `meta:enum`, nested
// `$id`, annotations), so it is left off the wire with a Report row.
const std::set<std::string, std::less<>> kKnownKeywords = keywords_lowered(LoweringClass::kept);

// contentEncoding and its kin: JSON Schema keywords that assert nothing (2020-12's content
// vocabulary), which the engine does not check either.
bool is_content_annotation(std::string_view key) {
  const auto* row = keyword_row(key);
  return row != nullptr && row->vocabulary == Vocabulary::content;
}

bool accepts_null(const ojson& node) {
  if (node.is_boolean()) return node.get<bool>();
  if (!node.is_object()) return false;
  if (node.empty()) return true;
  if (nullable_inner(node)) return true;
  if (const auto type = node.find("type"); type != node.end()) {
    if (type->is_string()) return *type == "null";
    if (type->is_array()) {
      return std::any_of(type->begin(), type->end(), [](const ojson& t) { return t == "null"; });
    }
  }
  if (const auto any = node.find("anyOf"); any != node.end() && any->is_array()) {
    return std::any_of(any->begin(), any->end(), [](const ojson& b) { return accepts_null(b); });
  }
  return false;
}

bool is_object_schema(const ojson& node) {
  return node.is_object() && node.contains("type") && node["type"] == "object" &&
         !node.contains("anyOf") && !node.contains("oneOf");
}

// What a schema with no type of its own is sent as: every scalar. Objects and arrays need their
// members spelled out for the providers' decoders, so a free value cannot be one.
ojson any_scalar() {
  return ojson{{"anyOf", ojson::array({ojson{{"type", "string"}}, ojson{{"type", "number"}},
                                       ojson{{"type", "boolean"}}, ojson{{"type", "null"}}})}};
}

// The JSON type every value in `values` has ("number" for integers mixed with decimals), or ""
// when they differ or one is an object or array.
std::string common_type(const ojson& values) {
  std::string common;
  for (const auto& v : values) {
    const std::string t = v.is_string()                                     ? "string"
                          : v.is_boolean()                                  ? "boolean"
                          : v.is_null()                                     ? "null"
                          : v.is_number_integer() || v.is_number_unsigned() ? "integer"
                          : v.is_number()                                   ? "number"
                                                                            : "";
    if (t.empty()) return "";
    if (common.empty() || common == t) {
      common = t;
    } else if ((common == "integer" || common == "number") && (t == "integer" || t == "number")) {
      common = "number";
    } else {
      return "";
    }
  }
  return common;
}

bool holds_structure(const ojson& value) {
  if (value.is_object()) return true;
  if (!value.is_array()) return false;
  return std::any_of(value.begin(), value.end(),
                     [](const ojson& v) { return v.is_object() || v.is_array(); });
}

// A schema a provider without structured enums accepts for `value` and values of its shape:
// objects closed with every key required, arrays by the shapes of their items, scalars exactly.
ojson shape_of(const ojson& value) {
  if (value.is_object()) {
    ojson properties = ojson::object();
    ojson required = ojson::array();
    for (const auto& [key, item] : value.items()) {
      properties[key] = shape_of(item);
      required.push_back(key);
    }
    return ojson{{"type", "object"},
                 {"properties", std::move(properties)},
                 {"required", std::move(required)},
                 {"additionalProperties", false}};
  }
  if (value.is_array()) {
    ojson items = ojson::array();
    for (const auto& item : value) {
      ojson shape = shape_of(item);
      if (std::find(items.begin(), items.end(), shape) == items.end()) {
        items.push_back(std::move(shape));
      }
    }
    ojson out{{"type", "array"}};
    out["items"] = items.empty()       ? any_scalar()
                   : items.size() == 1 ? items[0]
                                       : ojson{{"anyOf", std::move(items)}};
    return out;
  }
  if (value.is_null()) return ojson{{"type", "null"}};
  return ojson{{"type", common_type(ojson::array({value}))}, {"enum", ojson::array({value})}};
}

bool pattern_only(const ojson& option) {
  return option.is_object() && option.size() == 1 && option.contains("pattern") &&
         option["pattern"].is_string();
}

// The parts of an allOf, its owner first (without the allOf), nested allOfs flattened.
void all_of_parts(const ojson& node, std::vector<ojson>& parts) {
  if (!node.is_object() || !node.contains("allOf") || !node["allOf"].is_array()) {
    parts.push_back(node);
    return;
  }
  ojson own = node;
  own.erase("allOf");
  parts.push_back(std::move(own));
  for (const auto& branch : node["allOf"]) all_of_parts(branch, parts);
}

// One schema accepting exactly what every part accepts, or nullopt with `why_not` naming what
// blocks that: different types, two different values of one keyword, or a closed part (no
// unknown keys) that does not declare a property another part does.
std::optional<ojson> merged_parts(const std::vector<ojson>& parts, std::string& why_not) {
  ojson out = ojson::object();
  std::vector<const ojson*> closed;
  for (const auto& part : parts) {
    if (part.is_boolean()) {
      if (part.get<bool>()) continue;
      why_not = "a false branch accepts nothing";
      return std::nullopt;
    }
    if (!part.is_object()) continue;
    for (const auto& [key, value] : part.items()) {
      if (key == "properties" && value.is_object()) {
        ojson& props = out["properties"];
        if (!props.is_object()) props = ojson::object();
        for (const auto& [name, child] : value.items()) {
          if (!props.contains(name) || props[name] == child) {
            props[name] = child;
            continue;
          }
          std::vector<ojson> both;
          all_of_parts(props[name], both);
          all_of_parts(child, both);
          auto merged = merged_parts(both, why_not);
          if (!merged) {
            why_not = "property \"" + name + "\": " + why_not;
            return std::nullopt;
          }
          props[name] = std::move(*merged);
        }
      } else if (key == "required" && value.is_array()) {
        ojson& req = out["required"];
        if (!req.is_array()) req = ojson::array();
        for (const auto& name : value) {
          if (std::find(req.begin(), req.end(), name) == req.end()) req.push_back(name);
        }
      } else if (key == "description" && value.is_string() && out.contains("description")) {
        out["description"] =
            joined_sentences(out["description"].get<std::string>(), value.get<std::string>());
      } else if (key == "title" && out.contains("title")) {
        continue;
      } else if (key == "additionalProperties" && (value == true || value == ojson::object())) {
        continue;
      } else if (key == "additionalProperties" && value == false) {
        closed.push_back(&part);
      } else if (!out.contains(key) || out[key] == value) {
        out[key] = value;
      } else {
        why_not = "two different " + key + " values";
        return std::nullopt;
      }
    }
  }
  for (const ojson* part : closed) {
    const auto own = part->find("properties");
    if (!out.contains("properties")) break;
    for (const auto& [name, child] : out["properties"].items()) {
      if (own == part->end() || !own->is_object() || !own->contains(name)) {
        why_not = "\"" + name + "\" is declared by one branch and forbidden by another that " +
                  "allows no unknown keys";
        return std::nullopt;
      }
    }
  }
  if (!closed.empty()) out["additionalProperties"] = false;
  return out;
}

// "a", "a and b", "a, b and c".
std::string join_words(const std::vector<std::string>& parts) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += (i + 1 == parts.size()) ? " and " : ", ";
    out += parts[i];
  }
  return out;
}

std::string counted(const ojson& n, std::string_view singular, std::string_view plural) {
  return n.dump() + " " + std::string(n == 1 ? singular : plural);
}

std::string ordinal(std::size_t i) {
  static const char* const kWords[] = {"first", "second",  "third",  "fourth", "fifth",
                                       "sixth", "seventh", "eighth", "ninth",  "tenth"};
  if (i < std::size(kWords)) return kWords[i];
  return "item " + std::to_string(i + 1);
}

// A few words for what a schema node accepts, for tuple positions.
std::string summary(const ojson& node) {
  if (!node.is_object()) return "any value";
  if (node.contains("const")) return node["const"].dump();
  if (const auto e = node.find("enum"); e != node.end() && e->is_array()) {
    std::vector<std::string> options;
    for (const auto& v : *e) options.push_back(v.dump());
    return "one of " + join_words(options);
  }
  if (const auto inner = nullable_inner(node)) return summary(node["anyOf"][*inner]) + " or null";
  if (const auto any = node.find("anyOf"); any != node.end() && any->is_array()) {
    std::vector<std::string> options;
    for (const auto& b : *any) options.push_back(summary(b));
    return join_words(options);
  }
  const auto type = node.find("type");
  if (type == node.end() || !type->is_string()) return "any value";
  const std::string t = *type;
  if (t == "integer" || t == "object" || t == "array") return "an " + t;
  if (t == "null") return "null";
  return "a " + t;
}

std::string format_words(const std::string& format) {
  if (format == "uri") return "Must be a valid URI.";
  if (format == "uri-reference") return "Must be a valid URI reference.";
  if (format == "email") return "Must be a valid email address.";
  if (format == "hostname") return "Must be a valid hostname.";
  if (format == "ipv4") return "Must be a valid IPv4 address.";
  if (format == "ipv6") return "Must be a valid IPv6 address.";
  if (format == "uuid") return "Must be a valid UUID.";
  if (format == "date") return "Must be a date (YYYY-MM-DD).";
  if (format == "date-time") return "Must be an RFC 3339 date-time.";
  if (format == "time") return "Must be an RFC 3339 time.";
  if (format == "duration") return "Must be an ISO 8601 duration.";
  return "Must use the " + format + " format.";
}

// A numeric bound as the words after "Must be".
std::string bound_words(const std::string& key, const ojson& value) {
  if (key == "exclusiveMinimum") return "greater than " + value.dump();
  if (key == "minimum") return "at least " + value.dump();
  if (key == "exclusiveMaximum") return "less than " + value.dump();
  if (key == "maximum") return "at most " + value.dump();
  return "a multiple of " + value.dump();
}

std::string rejected_words(const std::string& key, const ojson& value) {
  if (key == "uniqueItems") return "Items must be unique.";
  if (key == "minProperties")
    return "Must have at least " + counted(value, "property", "properties") + ".";
  if (key == "maxProperties")
    return "Must have at most " + counted(value, "property", "properties") + ".";
  // Rare keywords emit() never writes: name the rule rather than lose it.
  return "Must also satisfy the JSON Schema rule " + key + " " + value.dump() + ".";
}

// An `if` with neither `then` nor `else`, or a `then`/`else` without an `if`: JSON Schema
// ignores it, so there is nothing to send, state or check.
bool asserts_nothing(const ojson& node, const std::string& key) {
  if (key == "if") return !node.contains("then") && !node.contains("else");
  return (key == "then" || key == "else") && !node.contains("if");
}

// An if/then/else states one condition, worded once at its `if` ("If ..., then ..."); its
// `then` and `else` add no sentence of their own. nullopt for any other keyword.
std::optional<std::string> conditional_sentence(const ojson& node, const std::string& key) {
  if (key != "if" && key != "then" && key != "else") return std::nullopt;
  if (key != "if") return std::string();
  const auto branch = [&](const char* name) -> const ojson* {
    const auto found = node.find(name);
    return found == node.end() ? nullptr : &*found;
  };
  return detail::conditional_words(*branch("if"), branch("then"), branch("else"));
}

// Anchors, classes, * + ?, small {n,m}, groups: yes. Lookaround, backreferences, \b, big repeats:
// no.
bool simple_pattern(std::string_view p) {
  bool in_class = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\') {
      if (i + 1 >= p.size()) return false;
      const char n = p[++i];
      if (in_class) continue;
      if (n == 'b' || n == 'B' || n == 'k' || (n >= '1' && n <= '9')) return false;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      // A ']' right after '[' or '[^' is a literal.
      if (i + 1 < p.size() && p[i + 1] == '^') ++i;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;
      continue;
    }
    if (c == '(' && i + 2 < p.size() && p[i + 1] == '?') {
      const char k = p[i + 2];
      if (k == '=' || k == '!') return false;
      if (k == '<' && i + 3 < p.size() && (p[i + 3] == '=' || p[i + 3] == '!')) return false;
      continue;
    }
    if (c == '{') {
      std::size_t j = i + 1;
      long bounds[2] = {-1, -1};
      int which = 0;
      bool ok = true;
      for (; j < p.size() && p[j] != '}'; ++j) {
        if (p[j] >= '0' && p[j] <= '9') {
          long& b = bounds[which];
          b = (b < 0 ? 0 : b) * 10 + (p[j] - '0');
          if (b > kMaxSimpleRepeat) return false;
        } else if (p[j] == ',' && which == 0) {
          which = 1;
        } else {
          ok = false;
          break;
        }
      }
      if (ok && j < p.size() && bounds[0] >= 0) i = j;
    }
  }
  return true;
}

bool has_keyword(std::string_view list, std::string_view keyword) {
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    if (list.substr(start, end - start) == keyword) return true;
    start = end + 1;
  }
  return false;
}

// `key` placed right after `anchor` (first when `anchor` is empty or absent), every member moved,
// never copied: a copy here made each level of a deep (unrolled) wire copy all below it again.
void place_after(ojson& node, const std::string& anchor, const std::string& key, ojson value) {
  if (const auto it = node.find(key); it != node.end()) {
    *it = std::move(value);
    return;
  }
  ojson out = ojson::object();
  auto& entries = out.get_ref<ojson::object_t&>();
  auto& members = static_cast<ojson::object_t::Container&>(entries);
  const bool first = anchor.empty() || !node.contains(anchor);
  if (first) members.emplace_back(key, std::move(value));
  for (auto& [k, v] : node.get_ref<ojson::object_t&>()) {
    members.emplace_back(k, std::move(v));
    if (!first && k == anchor) members.emplace_back(key, std::move(value));
  }
  node = std::move(out);
}

// Rebuilds `node` so a new "description" sits where emit() would put it (after "type", or after
// the anyOf of a nullable wrapper); an existing description gets the text appended.
void append_description(ojson& node, const std::string& text) {
  if (text.empty() || !node.is_object()) return;
  if (const auto it = node.find("description"); it != node.end() && it->is_string()) {
    *it = joined_sentences(it->get<std::string>(), text);
    return;
  }
  std::string anchor;
  for (const char* key : {"type", "anyOf", "oneOf"}) {
    if (node.contains(key)) {
      anchor = key;
      break;
    }
  }
  place_after(node, anchor, "description", text);
}

void insert_after(ojson& node, std::initializer_list<const char*> anchors, const std::string& key,
                  ojson value) {
  std::string anchor;
  for (const char* a : anchors) {
    if (node.contains(a)) anchor = a;
  }
  if (anchor.empty()) {
    node[key] = std::move(value);
    return;
  }
  place_after(node, anchor, key, std::move(value));
}

// X -> {"anyOf":[X, {"type":"null"}], description, default, examples}: EMIT_SPEC's nullable layout.
ojson make_nullable(const ojson& node) {
  static const char* const kOuter[] = {"description", "default", "examples"};
  ojson inner = ojson::object();
  for (const auto& [k, v] : node.items()) {
    if (std::find_if(std::begin(kOuter), std::end(kOuter),
                     [&name = k](const char* o) { return name == o; }) == std::end(kOuter)) {
      inner[k] = v;
    }
  }
  ojson out = ojson::object();
  out["anyOf"] = ojson::array({inner, ojson{{"type", "null"}}});
  for (const char* k : kOuter) {
    if (node.contains(k)) out[k] = node[k];
  }
  return out;
}

// Why a oneOf's options can never both match, or nullopt when that is not provable here.
std::optional<std::string> exclusive_reason(const ojson& options) {
  if (!options.is_array() || options.empty()) return std::nullopt;
  const bool all_objects = std::all_of(options.begin(), options.end(), [](const ojson& o) {
    return o.is_object() && o.contains("properties") && o["properties"].is_object();
  });
  if (all_objects) {
    for (const auto& [tag, first] : options[0]["properties"].items()) {
      if (!first.is_object() || !first.contains("const")) continue;
      std::set<std::string> seen;
      bool distinct = true;
      for (const auto& o : options) {
        const auto& props = o["properties"];
        const auto req = o.find("required");
        const bool required = req != o.end() && req->is_array() &&
                              std::find(req->begin(), req->end(), tag) != req->end();
        if (!props.contains(tag) || !props[tag].is_object() || !props[tag].contains("const") ||
            !required || !seen.insert(props[tag]["const"].dump()).second) {
          distinct = false;
          break;
        }
      }
      if (distinct) return "distinct \"" + tag + "\" values";
    }
  }
  std::set<std::string> types;
  bool disjoint = true;
  for (const auto& o : options) {
    if (!o.is_object() || !o.contains("type") || !o["type"].is_string()) {
      disjoint = false;
      break;
    }
    std::string t = o["type"];
    if (t == "integer") t = "number";  // every integer is a number
    if (!types.insert(t).second) {
      disjoint = false;
      break;
    }
  }
  if (disjoint) return std::string("disjoint types");
  std::set<std::string> consts;
  for (const auto& o : options) {
    if (!o.is_object() || !o.contains("const") || !consts.insert(o["const"].dump()).second) {
      return std::nullopt;
    }
  }
  return std::string("distinct constant values");
}

// What a node's moved rules turn into, gathered while its keywords are walked.
struct Notes {
  std::vector<std::string> bounds;  // "greater than 0": one "Must be ..." sentence
  std::optional<ojson> min_length, max_length, min_items, max_items;
  std::vector<std::string> sentences;  // whole sentences, in keyword order

  [[nodiscard]] std::string text() const {
    std::vector<std::string> out;
    if (!bounds.empty()) out.push_back("Must be " + join_words(bounds) + ".");
    const auto sizes = [&](const std::optional<ojson>& lo, const std::optional<ojson>& hi,
                           std::string_view one, std::string_view many) {
      if (lo && hi && *lo == *hi) {
        out.push_back("Must have exactly " + counted(*lo, one, many) + ".");
        return;
      }
      std::vector<std::string> parts;
      if (lo) parts.push_back("at least " + counted(*lo, one, many));
      if (hi) parts.push_back("at most " + counted(*hi, one, many));
      if (!parts.empty()) out.push_back("Must have " + join_words(parts) + ".");
    };
    sizes(min_length, max_length, "character", "characters");
    sizes(min_items, max_items, "item", "items");
    out.insert(out.end(), sentences.begin(), sentences.end());
    std::string joined;
    for (const auto& s : out) joined += (joined.empty() ? "" : " ") + s;
    return joined;
  }
};

class Lowerer {
 public:
  Lowerer(const SchemaCapabilities& caps, std::string stage, Report& report, Lowering& lowering,
          const LoweringBound& bound, int unroll_depth)
      : caps_(caps),
        family_(caps.family),
        stage_(std::move(stage)),
        report_(report),
        lowering_(&lowering),
        bound_(bound),
        unroll_depth_(unroll_depth) {}

  // Whether a definition that recurs is unrolled (the provider takes no recursion).
  [[nodiscard]] bool unrolls_recursion() const {
    for (std::size_t i = 0; i < kept_.size(); ++i) {
      if (!kept_[i] && recurs(i)) return true;
    }
    return false;
  }

  // The input's root `$defs` (recursive and shared targets; see import_json_schema): where the
  // provider takes references, each it can take (OpenAI: all; Anthropic and Gemini: those that do
  // not recur) is lowered once under the same name, returned for the wire's root; every other
  // reference is inlined at its use (a recursive one unrolled, providers.md §4.1), within bound_.
  ojson definitions(const ojson& emitted) {
    const auto defs = emitted.find("$defs");
    if (defs == emitted.end() || !defs->is_object()) return ojson();
    definitions_ = *defs;
    for (const auto& [name, def] : definitions_.items()) {
      definition_index_[name] = definition_index_.size();
      definition_nodes_.push_back(&def);
    }
    uses_.resize(definition_nodes_.size());
    for (std::size_t i = 0; i < definition_nodes_.size(); ++i) {
      collect_references(*definition_nodes_[i], uses_[i]);
    }
    collect_references(emitted, root_uses_, /*skip_defs=*/true);
    kept_.resize(definition_nodes_.size());
    for (std::size_t i = 0; i < kept_.size(); ++i) {
      kept_[i] = caps_.recursion || (caps_.references && !recurs(i));
    }
    if (std::find(kept_.begin(), kept_.end(), true) == kept_.end()) return ojson();
    Lowering* root = lowering_;
    root->definitions.resize(definition_nodes_.size());
    ojson out = ojson::object();
    for (const auto& [name, def] : definitions_.items()) {
      const std::size_t i = definition_index_[name];
      if (!kept_[i]) continue;
      lowering_ = &root->definitions[i];
      base_ = 2;
      out[name] = node(def, Path{"$defs", name});
    }
    lowering_ = root;
    base_ = 0;
    return out;
  }

  // `path` relative to the lowering being written: a definition's paths start at its root.
  [[nodiscard]] Path local(const Path& path) const {
    const auto& segments = path.segments();
    return Path(std::vector<PathSegment>(segments.begin() + static_cast<std::ptrdiff_t>(base_),
                                         segments.end()));
  }

  ojson reference(const ojson& in, const Path& path) {
    const std::string target = in["$ref"];
    const std::string prefix = "#/$defs/";
    const std::string name = target.rfind(prefix, 0) == 0 ? target.substr(prefix.size()) : "";
    const auto found = definition_index_.find(name);
    if (found == definition_index_.end()) return in;  // the import step inlines all others
    if (kept_[found->second]) {
      lowering_->references.emplace_back(local(path), found->second);
      ojson out = ojson{{"$ref", target}};
      if (!in.contains("description")) return out;
      if (caps_.bare_references) {
        record(path, "description", "description beside $ref " + target, Fate::dropped,
               family_ +
                   " take no keyword beside $ref; the definition's own description is "
                   "sent, this one is left off");
      } else {
        out["description"] = in["description"];
      }
      return out;
    }
    int& open = unrolled_[name];
    if (open >= unroll_depth_) {
      cut_[name] = true;
      return ojson{{"type", "null"}};
    }
    charge(found->second, name, path);
    // One row, at the outermost reference, and only when the unrolling did cut something (a
    // definition that does not recur is simply inlined).
    const bool outermost = open == 0;
    if (outermost) cut_[name] = false;
    ++open;
    ojson site = *definition_nodes_[found->second];
    for (const auto& [k, v] : in.items()) {
      if (k != "$ref") site[k] = v;
    }
    ojson out = node(site, path);
    --open;
    if (outermost && cut_[name]) {
      record(path, "$ref", "$ref " + target, Fate::keyword,
             family_ + " take no recursive schemas; the definition is unrolled " +
                 std::to_string(unroll_depth_) + (unroll_depth_ == 1 ? " level" : " levels") +
                 " deep" +
                 (unroll_depth_ < kUnrollDepth ? " (the most the wire bound allows)" : "") +
                 " and sent as null below that (a deeper value cannot be sent)");
    }
    return out;
  }

  ojson node(const ojson& original, const Path& path) {
    if (original == true) return any_value(path);
    if (!original.is_object()) return original;
    if (original.contains("$ref") && original["$ref"].is_string()) return reference(original, path);
    const ojson* in = &original;
    ojson merged;
    if (auto m = merge_all_of(original, path)) {
      merged = std::move(*m);
      in = &merged;
    }
    if (auto nullable = nullable_structure(*in, path)) {
      merged = std::move(*nullable);
      in = &merged;
    } else if (auto distributed = distributed_options(*in, path)) {
      merged = std::move(*distributed);
      in = &merged;
    }
    if (is_map(*in)) return map_node(*in, path);
    if (auto shaped = structured_options(*in, path)) return std::move(*shaped);
    Notes notes;
    ojson out = body(*in, path, notes);
    give_type(*in, out, path);
    append_description(out, notes.text());
    return out;
  }

  void wrap_root(ojson& root) {
    ojson wrapped = ojson::object();
    wrapped["type"] = "object";
    wrapped["properties"] = ojson{{"value", std::move(root)}};
    wrapped["required"] = ojson::array({"value"});
    wrapped["additionalProperties"] = false;
    root = std::move(wrapped);
    lowering_->wrapped_root = true;
    if (root_branched_) {
      report_.add({Path{}, "root object split into anyOf branches by its rules", "type",
                   Fate::keyword,
                   family_ + " need an object at the root, not anyOf; sent as {\"value\": ...} "
                             "and unwrapped before validation",
                   stage_});
      return;
    }
    report_.add({Path{}, "root is not an object", "type", Fate::keyword,
                 family_ + " need an object at the root; sent as {\"value\": ...} and unwrapped "
                           "before validation",
                 stage_});
  }

 private:
  // Each `#/$defs/<name>` reference under `node` (the root's own `$defs` left out), once per use.
  void collect_references(const ojson& node, std::vector<std::size_t>& out,
                          bool skip_defs = false) const {
    if (node.is_array()) {
      for (const auto& child : node) collect_references(child, out);
      return;
    }
    if (!node.is_object()) return;
    for (const auto& [key, value] : node.items()) {
      if (key == "$ref" && value.is_string()) {
        const auto& target = value.get_ref<const std::string&>();
        const auto found = target.starts_with("#/$defs/") ? definition_index_.find(target.substr(8))
                                                          : definition_index_.end();
        if (found != definition_index_.end()) out.push_back(found->second);
      } else if (!(skip_defs && key == "$defs") && key != "enum" && key != "const") {
        collect_references(value, out);
      }
    }
  }

  // Whether definition `start` refers back to itself, directly or through others.
  [[nodiscard]] bool recurs(std::size_t start) const {
    std::vector<bool> seen(uses_.size());
    std::vector<std::size_t> todo = uses_[start];
    while (!todo.empty()) {
      const std::size_t i = todo.back();
      todo.pop_back();
      if (i == start) return true;
      if (seen[i]) continue;
      seen[i] = true;
      todo.insert(todo.end(), uses_[i].begin(), uses_[i].end());
    }
    return false;
  }

  [[nodiscard]] std::size_t definition_bytes(std::size_t i) const {
    return definition_nodes_[i]->dump().size();
  }

  // What inlining definition `i` at `path` adds, counted before it is expanded: past the bound,
  // a SchemaError naming the definition inlined most, so no schema can grow the wire (or the
  // memory it takes) without limit.
  void charge(std::size_t i, const std::string& name, const Path& path) {
    inlined_bytes_ += definition_bytes(i);
    ++inlined_count_[i];
    if (inlined_bytes_ <= bound_.max_inlined_bytes) return;
    std::size_t most = i;
    for (const auto& [j, count] : inlined_count_) {
      if (count > inlined_count_[most]) most = j;
    }
    std::string fan_out = name;
    for (const auto& [candidate, index] : definition_index_) {
      if (index == most) fan_out = candidate;
    }
    throw SchemaError({SchemaProblem{
        path, family_ + " take no " + (caps_.references ? "recursive " : "") +
                  "references, so each $ref is inlined, and the wire would pass the bound of " +
                  std::to_string(bound_.max_inlined_bytes) +
                  " inlined bytes (LoweringBound::max_inlined_bytes, --max-wire-bytes): $defs/" +
                  fan_out + " fans out most (inlined " + std::to_string(inlined_count_[most]) +
                  " times so far, " + std::to_string(definition_bytes(most)) +
                  " bytes each); the whole wire would take about " +
                  estimated_words(estimated_wire_bytes())}});
  }

  // The wire's size if every reference were inlined (a recursive one counted once per unrolled
  // level it is entered at): memoised per definition, so the estimate costs one pass however
  // large the expansion.
  [[nodiscard]] double estimated_wire_bytes() const {
    std::vector<double> memo(uses_.size(), -1.0);
    std::vector<bool> open(uses_.size());
    std::function<double(std::size_t)> expanded = [&](std::size_t i) -> double {
      if (open[i]) return 0.0;  // a cycle: counted where the unrolling entered it
      if (memo[i] >= 0) return memo[i];
      open[i] = true;
      double total = static_cast<double>(definition_bytes(i));
      for (const std::size_t j : uses_[i]) {
        if (!kept_[j]) total += expanded(j);
      }
      open[i] = false;
      return memo[i] = total;
    };
    double total = 0;
    for (const std::size_t j : root_uses_) {
      if (!kept_[j]) total += expanded(j);
    }
    return total;
  }

  static std::string estimated_words(double bytes) {
    char text[48];
    if (bytes < 1e15) {
      std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
    } else {
      std::snprintf(text, sizeof text, "%.1e bytes", bytes);
    }
    return text;
  }

  // Finds the emit entry for (path, keyword) and records the new fate; adds one when none exists.
  void record(const Path& path, std::string_view keyword, const std::string& rule_if_new, Fate fate,
              const std::string& why) {
    // Entries are only ever appended: index the new ones by path, so a schema with n optional
    // properties costs n lookups, not n scans of n entries.
    auto& entries = report_.entries();
    for (; indexed_ < entries.size(); ++indexed_) {
      by_path_[entries[indexed_].path.to_pointer()].push_back(indexed_);
    }
    if (const auto found = by_path_.find(path.to_pointer()); found != by_path_.end()) {
      for (const std::size_t i : found->second) {
        auto& e = entries[i];
        if (e.path == path && has_keyword(e.keyword, keyword)) {
          e.fate = fate;
          e.why = why;
          e.stage = stage_;
          return;
        }
      }
    }
    report_.add({path, rule_if_new, std::string(keyword), fate, why, stage_});
  }

  void moved(const Path& path, const std::string& keyword, const ojson& value,
             const std::string& why) {
    record(path, keyword, keyword + " " + value.dump(), Fate::description, why);
  }

  // The body of a node without its notes applied: a nullable wrapper's inner X shares the
  // wrapper's notes, so X's moved rules land in the one description the model reads.
  ojson body(const ojson& in, const Path& path, Notes& notes) {
    ojson out = ojson::object();
    const auto inner = nullable_inner(in);
    const bool tuple =
        in.contains("prefixItems") || (in.contains("items") && in["items"].is_array());
    for (const auto& [key, value] : in.items()) {
      if (key == "$schema" || key == kRulesKeyword) continue;  // rules: compiled below
      if (key == "properties" && value.is_object()) {
        ObjectWriter props;
        for (const auto& [name, child] : value.items()) {
          if (child == false) {
            record(path / name, "properties", "\"" + name + "\" never present", Fate::keyword,
                   "a false schema: the key must be absent, so the wire does not declare it");
            continue;
          }
          props.set(name, node(child, path / name));
        }
        out[key] = std::move(props).done();
      } else if (key == "additionalProperties") {
        out[key] = false;
        if (value.is_object() && !value.empty()) {
          record(path, "additionalProperties", "other keys hold " + value.dump(), Fate::keyword,
                 family_ +
                     " take no schema in additionalProperties beside declared properties; the "
                     "model can send only the declared keys, though the local rules allow "
                     "others whose values match");
        } else if (value != false) {
          closed_by_lowering(path);
        }
      } else if (key == "anyOf" && value.is_array()) {
        if (inner) {
          ojson options = value;
          options[*inner] = value[*inner].contains("$ref") ? node(value[*inner], path)
                                                           : body(value[*inner], path, notes);
          out[key] = std::move(options);
        } else {
          out[key] = options(value, path);
        }
      } else if (key == "oneOf" && value.is_array()) {
        out["anyOf"] = options(value, path);
        one_of(value, path, notes);
      } else if (key == "allOf" && value.is_array()) {
        all_of(value, path, notes, in.contains("pattern"), out);
      } else if (tuple && (key == "items" || key == "prefixItems" || key == "additionalItems")) {
        if (value.is_array()) out["items"] = tuple_items(in, value, path, notes);
      } else if (key == "items") {
        out[key] = node(value, path / "[]");
      } else if (key == "exclusiveMinimum" || key == "minimum" || key == "exclusiveMaximum" ||
                 key == "maximum" || key == "multipleOf") {
        if (caps_.numeric_bounds) {
          out[key] = value;
        } else {
          notes.bounds.push_back(bound_words(key, value));
          moved(path, key, value,
                family_ + " reject numeric bounds; stated in the description, enforced locally");
        }
      } else if (key == "minLength" || key == "maxLength") {
        (key == "minLength" ? notes.min_length : notes.max_length) = value;
        if (caps_.lengths == LengthSupport::enforced) {
          out[key] = value;
          (key == "minLength" ? notes.min_length : notes.max_length).reset();
        } else if (caps_.lengths == LengthSupport::not_guaranteed) {
          out[key] = value;
          moved(path, key, value,
                family_ +
                    " do not guarantee minLength/maxLength; kept as keywords and stated in the "
                    "description, enforced locally");
        } else {
          moved(path, key, value,
                family_ +
                    " reject minLength/maxLength; stated in the description, enforced "
                    "locally");
        }
      } else if ((key == "minItems" && caps_.max_min_items >= 0 &&
                  !(value.is_number() && value <= caps_.max_min_items)) ||
                 (key == "maxItems" && !caps_.max_items)) {
        if (key == "minItems" && value.is_number() && value <= 1) {
          out[key] = value;
        } else if (!tuple) {  // a tuple's count is already in its own sentence
          (key == "minItems" ? notes.min_items : notes.max_items) = value;
          moved(path, key, value,
                family_ + " accept only minItems up to " + std::to_string(caps_.max_min_items) +
                    (caps_.max_items ? "" : " and no maxItems") +
                    "; stated in the description, enforced locally");
        }
      } else if (key == "format" && value.is_string()) {
        if (caps_.formats.count(value.get<std::string>())) {
          out[key] = value;
        } else {
          notes.sentences.push_back(format_words(value));
          const bool checked = detail::check_format(value.get<std::string>(), "").has_value();
          moved(path, key, value,
                family_ + " do not support format " + value.dump() +
                    (checked ? "; stated in the description, enforced locally"
                             : "; stated in the description, not checked (accord does not know "
                               "this format)"));
        }
      } else if (key == "pattern" && value.is_string() &&
                 (!caps_.patterns ||
                  (!caps_.complex_patterns && !simple_pattern(value.get<std::string>())))) {
        notes.sentences.push_back("Must match /" + value.get<std::string>() + "/.");
        moved(path, key, value, simple_patterns_why());
      } else if (key == "default" && !caps_.defaults) {
        if (value.is_null()) {
          record(path, "default", "default null", Fate::dropped,
                 family_ + " have no defaults; null already means absent here");
        } else {
          notes.sentences.push_back("Default: " + value.dump() + ".");
          moved(path, key, value,
                family_ +
                    " have no defaults and need every property required; sent as nullable with "
                    "the default stated in the description, null means absent");
        }
      } else if (key == "examples") {
        std::vector<std::string> shown;
        if (value.is_array()) {
          for (const auto& v : value) shown.push_back(v.dump());
        }
        if (!shown.empty()) {
          notes.sentences.push_back((shown.size() == 1 ? "Example: " : "Examples: ") +
                                    join_words(shown) + ".");
        }
        moved(path, key, value, family_ + " have no examples keyword; stated in the description");
      } else if (asserts_nothing(in, key)) {
        record(path, key, key + " " + value.dump(), Fate::dropped,
               (key == "if" ? std::string("an if with neither then nor else")
                            : key + " without an if") +
                   " asserts nothing; nothing to send, state in the description or check");
      } else if (kRejected.count(key)) {
        if (key == "uniqueItems" && value == false) continue;  // says nothing
        if (const auto words = conditional_sentence(in, key); words) {
          if (!words->empty()) notes.sentences.push_back(*words);
        } else {
          notes.sentences.push_back(rejected_words(key, value));
        }
        moved(path, key, value,
              family_ + " reject " + key + "; stated in the description, enforced locally");
      } else if (key == "$comment") {
        continue;  // a note to schema readers, not a rule
      } else if (!kKnownKeywords.count(key) && !kRejected.count(key)) {
        record(path, key, key + " " + value.dump(), Fate::dropped,
               key == "nullable"
                   ? "nullable is OpenAPI's keyword, not JSON Schema's: the local rules do not "
                     "accept null for it, so the wire leaves it out too"
               : is_content_annotation(key)
                   ? key +
                         " is an annotation: it asserts nothing and accord checks "
                         "nothing by it; left off the wire"
                   : key +
                         " is not a JSON Schema keyword accord checks; left off the wire, "
                         "and the local rules ignore it too");
      } else {
        out[key] = value;
      }
    }
    if (in.contains("type") && in["type"] == "array" && !in.contains("items") &&
        !in.contains("prefixItems")) {
      insert_after(out, {"type", "description"}, "items", any_value(path / std::string("[]")));
    }
    if (is_object_schema(in) || in.contains("properties") || in.contains("required")) {
      close_object(in, out, path);
    }
    if (const auto rules = in.find(kRulesKeyword); rules != in.end()) {
      if (caps_.rule_branches) {
        out = lower_rules_as_branches(*rules, std::move(out), path, report_, stage_);
        if (path.empty() && out.contains("anyOf")) root_branched_ = true;
      } else {
        lower_rules_described(*rules, path, report_, stage_, family_);
      }
    }
    return out;
  }

  ojson options(const ojson& value, const Path& path) {
    ojson out = ojson::array();
    for (std::size_t i = 0; i < value.size(); ++i) {
      out.push_back(node(value[i], path / ("|" + std::to_string(i))));
    }
    return out;
  }

  void one_of(const ojson& value, const Path& path, Notes& notes) {
    if (const auto reason = exclusive_reason(value)) {
      record(path, "oneOf", "oneOf", Fate::keyword,
             family_ + " have no oneOf; the options exclude each other (" + *reason +
                 "), so anyOf accepts the same values");
      return;
    }
    notes.sentences.push_back("Must match exactly one of the options.");
    record(path, "oneOf", "oneOf", Fate::description,
           family_ +
               " have no oneOf and these options may overlap; sent as anyOf with \"exactly "
               "one\" stated in the description, enforced locally");
  }

  // EMIT_SPEC puts a node's second and later patterns in allOf:[{"pattern":...}].
  void all_of(const ojson& value, const Path& path, Notes& notes, bool has_pattern, ojson& out) {
    std::vector<ReportEntry*> pattern_entries;
    for (auto& e : report_.entries()) {
      if (e.path == path && (e.keyword == "pattern" || e.keyword == "allOf")) {
        pattern_entries.push_back(&e);
      }
    }
    std::size_t next = has_pattern ? 1 : 0;
    ojson kept = ojson::array();
    const bool keeps_all_of = std::none_of(value.begin(), value.end(), [](const ojson& o) {
      return o.is_object() && (o.contains("properties") || o.contains("required") ||
                               (o.contains("type") && o["type"] == "object"));
    });
    for (const auto& option : value) {
      if (!pattern_only(option)) {
        // Anthropic takes allOf, but would close each object branch alone (accepting nothing).
        if (!caps_.all_of || !keeps_all_of) {
          notes.sentences.push_back(rejected_words("allOf", ojson::array({option})));
          record(path, "allOf", "allOf", Fate::description,
                 family_ + " cannot take this allOf and its branches cannot be merged (" +
                     all_of_blocked_ + "); stated in the description, enforced locally");
        } else {
          kept.push_back(node(option, path));
        }
        continue;
      }
      const std::string pattern = option["pattern"];
      ReportEntry* entry = next < pattern_entries.size() ? pattern_entries[next] : nullptr;
      ++next;
      if (caps_.all_of && caps_.patterns && (caps_.complex_patterns || simple_pattern(pattern))) {
        kept.push_back(option);
        continue;
      }
      notes.sentences.push_back("Must also match /" + pattern + "/.");
      const std::string why =
          !caps_.all_of ? family_ +
                              " reject allOf, which held this extra pattern; stated in the "
                              "description, enforced locally"
                        : simple_patterns_why();
      if (entry) {
        entry->fate = Fate::description;
        entry->why = why;
        entry->stage = stage_;
      } else {
        report_.add({path, "pattern /" + pattern + "/", "pattern", Fate::description, why, stage_});
      }
    }
    if (!kept.empty()) out["allOf"] = std::move(kept);
  }

  // Per-position item schemas become one items schema (any position's shape) plus the order in
  // words, since neither provider accepts tuple item lists.
  ojson tuple_items(const ojson& in, const ojson& positions, const Path& path, Notes& notes) {
    ojson shapes = ojson::array();
    std::set<std::string> seen;
    std::vector<std::string> words;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      ojson lowered = node(positions[i], path / i);
      words.push_back(ordinal(i) + " " + summary(positions[i]));
      if (seen.insert(lowered.dump()).second) shapes.push_back(std::move(lowered));
    }
    const bool closed =
        (in.contains("additionalItems") && in["additionalItems"] == false) ||
        (in.contains("prefixItems") && in.contains("items") && in["items"] == false);
    const ojson count = positions.size();
    notes.sentences.push_back(std::string(closed ? "Must have exactly " : "Must start with ") +
                              counted(count, "item", "items") +
                              ", in this order: " + join_words(words) + ".");
    // The tuple's own row (emit's or the import's) gets this fate, so the rule keeps one id.
    record(path, in.contains("prefixItems") ? "prefixItems" : "items", "tuple", Fate::description,
           family_ +
               " accept no per-position item schemas; sent as an array of any position's shape "
               "with the order stated in the description, enforced locally");
    if (shapes.size() == 1) return shapes[0];
    return ojson{{"anyOf", std::move(shapes)}};
  }

  [[nodiscard]] std::string simple_patterns_why() const {
    if (!caps_.patterns) {
      return family_ + " ignore pattern; stated in the description, enforced locally";
    }
    return family_ +
           " accept only simple patterns (no lookaround, backreferences, \\b or repeats over "
           "100); stated in the description, enforced locally";
  }

  // A mergeable allOf as one schema (recorded), or nullopt with the reason kept for all_of().
  std::optional<ojson> merge_all_of(const ojson& in, const Path& path) {
    const auto all = in.find("allOf");
    if (all == in.end() || !all->is_array() ||
        std::all_of(all->begin(), all->end(), pattern_only)) {
      return std::nullopt;
    }
    std::vector<ojson> parts;
    all_of_parts(in, parts);
    all_of_blocked_.clear();
    auto merged = merged_parts(parts, all_of_blocked_);
    if (!merged) {
      // The branches' rules go to words (all_of()); an object stays an object meanwhile.
      const bool objects = std::any_of(parts.begin() + 1, parts.end(), [](const ojson& p) {
        return p.is_object() && p.contains("type") && p["type"] == "object";
      });
      if (!objects || in.contains("type")) return std::nullopt;
      ojson typed = in;
      insert_first(typed, "type", "object");
      return typed;
    }
    record(path, "allOf", "allOf of " + std::to_string(all->size()), Fate::keyword,
           family_ + " cannot take this allOf (" +
               (caps_.all_of ? "each object branch would be closed alone" : "no allOf") +
               "); its branches were merged into one schema that accepts the same values");
    return merged;
  }

  // {"type": ["object", "null"], "properties": ...} (or an array's): sent as the nullable
  // wrapper {"anyOf": [{"type": "object", ...}, {"type": "null"}]}, whose object keeps its
  // keywords under every SDK (Anthropic's transform moves the properties of a node whose type is
  // a list into its description).
  std::optional<ojson> nullable_structure(const ojson& in, const Path& path) {
    const auto type = in.find("type");
    if (type == in.end() || !type->is_array() || type->size() != 2 ||
        std::find(type->begin(), type->end(), "null") == type->end()) {
      return std::nullopt;
    }
    const ojson other = (*type)[0] == "null" ? (*type)[1] : (*type)[0];
    if (other != "object" && other != "array") return std::nullopt;
    ojson typed = in;
    typed["type"] = other;
    record(path, "type", "type " + type->dump(), Fate::keyword,
           family_ + " read a type list as one type; sent as anyOf [" + other.get<std::string>() +
               ", null], which accepts the same values");
    return make_nullable(typed);
  }

  // A union beside keywords of its own ({"type": "object", "properties": ..., "anyOf":
  // [{"required": ["a"]}, {"required": ["b"]}]}): each option merged with those keywords, so each
  // is a whole schema accepting the same values (A and (B or C) is (A and B) or (A and C)).
  // Otherwise each option is lowered alone (an object option closed on its own keys accepts
  // almost nothing) and OpenAI's SDK refuses the anyOf beside a type.
  std::optional<ojson> distributed_options(const ojson& in, const Path& path) {
    const char* key = in.contains("anyOf") ? "anyOf" : "oneOf";
    const auto options = in.find(key);
    if (options == in.end() || !options->is_array() || nullable_inner(in) ||
        in.contains(kRulesKeyword) || in.contains("allOf") ||
        (in.contains("anyOf") && in.contains("oneOf"))) {
      return std::nullopt;
    }
    ojson shared = ojson::object();
    ojson out = ojson::object();
    for (const auto& [k, v] : in.items()) {
      if (k == key) {
        out[k] = ojson::array();
      } else if (k == "description" || k == "title" || k == "default" || k == "examples" ||
                 k == "$comment") {
        out[k] = v;
      } else {
        shared[k] = v;
      }
    }
    if (shared.empty()) return std::nullopt;
    for (const auto& option : *options) {
      if (option.is_object() && option.contains("$ref")) return std::nullopt;
      std::vector<ojson> parts{shared};
      all_of_parts(option, parts);
      std::string why_not;
      auto merged = merged_parts(parts, why_not);
      if (!merged) return std::nullopt;
      out[key].push_back(std::move(*merged));
    }
    record(path, key, std::string(key) + " of " + std::to_string(options->size()), Fate::keyword,
           family_ + " need each option whole: the keywords beside the " + key +
               " were merged into every option, which accepts the same values");
    return out;
  }

  // An enum or const holding objects or arrays, for a provider that takes only scalars there:
  // each option goes out as its shape (shape_of), so every valid value can be sent, and the
  // exact options are stated in words and enforced locally.
  std::optional<ojson> structured_options(const ojson& in, const Path& path) {
    if (caps_.structured_enums) return std::nullopt;
    const std::string key = in.contains("enum") ? "enum" : in.contains("const") ? "const" : "";
    if (key.empty() || !holds_structure(in[key])) return std::nullopt;
    const ojson options = key == "enum" && in[key].is_array() ? in[key] : ojson::array({in[key]});
    ojson shapes = ojson::array();
    std::vector<std::string> shown;
    for (const auto& option : options) {
      ojson shape = shape_of(option);
      if (std::find(shapes.begin(), shapes.end(), shape) == shapes.end()) {
        shapes.push_back(std::move(shape));
      }
      shown.push_back(option.dump());
    }
    ojson out = shapes.size() == 1 ? shapes[0] : ojson{{"anyOf", std::move(shapes)}};
    const std::string words = key == "const" ? "Must be exactly " + shown[0] + "."
                                             : "Must be one of " + join_words(shown) + ".";
    const auto description = in.find("description");
    insert_first(out, "description",
                 description != in.end() && description->is_string()
                     ? joined_sentences(description->get<std::string>(), words)
                     : words);
    moved(path, key, in[key],
          family_ +
              " accept only strings, numbers, booleans and null in enum and const; each option "
              "is sent as its shape, the exact options are stated in the description and "
              "enforced locally");
    return out;
  }

  // A schema for "any value" where the provider needs a type: every scalar.
  ojson any_value(const Path& path) {
    ojson out = ojson::object();
    give_type(out, out, path);
    return out;
  }

  // A typeless node after body(): enum/const values name their type; object keywords make it an
  // object; anything else becomes any scalar.
  void give_type(const ojson& in, ojson& out, const Path& path) {
    for (const char* key : {"type", "anyOf", "oneOf", "allOf", "$ref"}) {
      if (out.contains(key)) return;
    }
    const auto values = out.contains("enum")    ? out["enum"]
                        : out.contains("const") ? ojson::array({out["const"]})
                                                : ojson();
    if (values.is_array()) {
      // The values already fix the type; naming it changes nothing and the SDKs need one.
      if (const auto t = common_type(values); !t.empty()) insert_first(out, "type", t);
      return;
    }
    if (in.contains("properties") || in.contains("required")) {
      insert_first(out, "type", "object");
      record(path, "type", "no type", Fate::keyword,
             family_ +
                 " need a type on every schema; sent as an object (a value of another "
                 "type, which the local rules allow, cannot be sent here)");
      return;
    }
    ojson typed = any_scalar();
    for (auto& [k, v] : out.items()) typed[k] = std::move(v);
    out = std::move(typed);
    record(path, "type", "any value", Fate::keyword,
           family_ +
               " need a type on every schema; sent as any string, number, boolean or null (an "
               "object or array, which the local rules allow, cannot be sent here)");
  }

  static void insert_first(ojson& node, const std::string& key, ojson value) {
    ojson out = ojson::object();
    out[key] = std::move(value);
    for (auto& [k, v] : node.items()) out[k] = std::move(v);
    node = std::move(out);
  }

  static bool is_map(const ojson& in) {
    const auto values = in.find("additionalProperties");
    if (values == in.end() || !values->is_object() || values->empty()) return false;
    const auto props = in.find("properties");
    return props == in.end() || (props->is_object() && props->empty());
  }

  // {"type": "object", "additionalProperties": V} as a list of {"key", "value": V} pairs, which
  // both decoders can enforce; unlower() turns the list back into an object.
  ojson map_node(const ojson& in, const Path& path) {
    ojson rest = in;
    for (const char* key : {"type", "properties", "additionalProperties", "required"}) {
      rest.erase(key);
    }
    Notes notes;
    ojson own = body(rest, path, notes);
    const ojson& values = in["additionalProperties"];
    ojson pair = ojson::object();
    pair["type"] = "object";
    pair["properties"] = ojson{{"key", ojson{{"type", "string"}}},
                               {"value", node(values, path / std::string("{}"))}};
    pair["required"] = ojson::array({"key", "value"});
    pair["additionalProperties"] = false;
    ojson out = ojson::object();
    out["type"] = "array";
    for (auto& [k, v] : own.items()) out[k] = std::move(v);
    out["items"] = std::move(pair);
    notes.sentences.push_back(
        "An object sent as a list of entries: each item is one key and its value, and keys must "
        "be distinct.");
    if (const auto req = in.find("required"); req != in.end() && req->is_array() && !req->empty()) {
      std::vector<std::string> names;
      for (const auto& name : *req) names.push_back(name.dump());
      notes.sentences.push_back("Must include the keys " + join_words(names) + ".");
      record(path, "required", "required " + req->dump(), Fate::description,
             family_ +
                 " cannot require keys of a list of entries; stated in the description, "
                 "enforced locally");
    }
    append_description(out, notes.text());
    lowering_->pair_lists.push_back(local(path));
    record(path, "additionalProperties", "other keys hold " + values.dump(), Fate::keyword,
           family_ +
               " take no schema in additionalProperties; the object is sent as a list of {key, "
               "value} entries, each value keeping its schema, and turned back into an object "
               "before validation");
    return out;
  }

  // `required` names a property `properties` does not declare: the local rules demand the key,
  // so the wire declares it (with the schema of other keys, or any scalar) instead of dropping it.
  void declare_required(const ojson& in, ojson& out, const Path& path) {
    const auto req = in.find("required");
    if (req == in.end() || !req->is_array()) return;
    const auto extra = in.find("additionalProperties");
    for (const auto& name_json : *req) {
      if (!name_json.is_string()) continue;
      const std::string name = name_json;
      if (out.contains("properties") && out["properties"].contains(name)) continue;
      if (extra != in.end() && *extra == false) {
        record(path / name, "required", "required \"" + name + "\"", Fate::keyword,
               "no value can satisfy this object: \"" + name +
                   "\" is required but not declared, and unknown keys are not allowed");
        continue;
      }
      const bool typed = extra != in.end() && extra->is_object() && !extra->empty();
      ojson child = typed ? node(*extra, path / name) : any_value(path / name);
      if (!out.contains("properties"))
        insert_after(out, {"type", "description"}, "properties", ojson::object());
      out["properties"][name] = std::move(child);
      if (!out.contains("required")) insert_after(out, {"properties"}, "required", ojson::array());
      if (std::find(out["required"].begin(), out["required"].end(), name) ==
          out["required"].end()) {
        out["required"].push_back(name);
      }
      record(path / name, "required", "required \"" + name + "\"", Fate::keyword,
             "\"" + name + "\" is required but not declared in properties; declared on the wire " +
                 (typed ? "with the schema of other keys" : "as any scalar") +
                 " so the model can send it");
    }
  }

  void closed_by_lowering(const Path& path) {
    report_.add({path, "passthrough", "additionalProperties", Fate::keyword,
                 family_ + " need additionalProperties false on every object; the model cannot "
                           "send unknown keys, though the local rules allow them",
                 stage_});
  }

  void close_object(const ojson& in, ojson& out, const Path& path) {
    declare_required(in, out, path);
    if (!out.contains("additionalProperties")) {
      insert_after(out, {"properties", "required"}, "additionalProperties", false);
      closed_by_lowering(path);
    }
    if (!caps_.all_required || !out.contains("properties") || !out["properties"].is_object()) {
      return;
    }
    std::set<std::string> was_required;
    if (const auto req = in.find("required"); req != in.end() && req->is_array()) {
      for (const auto& r : *req) {
        if (r.is_string()) was_required.insert(r.get<std::string>());
      }
    }
    std::unordered_map<std::string, const ojson*> originals;
    if (const auto props = in.find("properties"); props != in.end() && props->is_object()) {
      for (const auto& [name, child] : props->items()) originals.emplace(name, &child);
    }
    static const ojson kAbsent;
    ojson required = ojson::array();
    for (auto& [name, child] : out["properties"].items()) {
      required.push_back(name);
      if (was_required.count(name)) continue;
      const auto found = originals.find(name);
      const ojson& original = found != originals.end() ? *found->second : kAbsent;
      const bool has_default = original.is_object() && original.contains("default");
      if (accepts_null(child)) {
        // The model cannot leave the key out; its null keeps meaning null.
        lowering_->null_for_absent.push_back(local(path / name));
        if (!has_default) {
          record(path / name, "required", "optional", Fate::keyword,
                 family_ +
                     " need every property required; the field is already nullable, so "
                     "the model sends null instead of leaving it out");
        }
        continue;
      }
      child = make_nullable(child);
      lowering_->nulled_optionals.push_back(local(path / name));
      if (!has_default) {
        record(path / name, "required", "optional", Fate::keyword,
               family_ + " need every property required; sent as nullable, null means absent");
      }
    }
    if (out.contains("required")) {
      out["required"] = std::move(required);
    } else {
      insert_after(out, {"properties"}, "required", std::move(required));
    }
  }

  const SchemaCapabilities& caps_;
  std::string family_;
  std::string stage_;
  ReportWriter report_;
  Lowering* lowering_;  // where ref sites, nulled optionals and pair lists go: the root's or a
                        // definition's
  ojson definitions_;   // the input's $defs
  std::unordered_map<std::string, std::size_t> definition_index_;
  std::vector<const ojson*> definition_nodes_;  // into definitions_, by index
  std::vector<std::vector<std::size_t>> uses_;  // the definitions each one refers to, per use
  std::vector<std::size_t> root_uses_;          // the definitions the root refers to, per use
  std::vector<bool> kept_;                      // sent once in the wire's $defs
  const LoweringBound& bound_;
  int unroll_depth_;               // levels a recursive definition is unrolled to
  std::size_t inlined_bytes_ = 0;  // what inlining has added so far
  std::unordered_map<std::size_t, std::size_t> inlined_count_;  // times each was inlined
  std::unordered_map<std::string, int> unrolled_;  // Anthropic: definitions open on the stack
  std::unordered_map<std::string, bool> cut_;      // Anthropic: the unrolling reached its depth
  std::size_t base_ = 0;        // leading path segments ("$defs", name) a definition's paths drop
  bool root_branched_ = false;  // the root object's rules made it anyOf branches
  std::string all_of_blocked_;  // why the last allOf could not be merged
  std::unordered_map<std::string, std::vector<std::size_t>> by_path_;  // report entries by path
  std::size_t indexed_ = 0;                                            // entries indexed so far
};

// A schema sent whole to a server whose grammar converter takes only part of JSON Schema
// (SchemaCapabilities::keyword_handling and its node cases): each keyword it does not enforce is
// stated in words and left off the wire (kept when its handling is unknown), with a Report row.
class GrammarFilter {
 public:
  GrammarFilter(const SchemaCapabilities& caps, std::string stage, Report& report)
      : caps_(caps), stage_(std::move(stage)), report_(report) {}

  void walk(ojson& node, const Path& path) {
    if (!node.is_object()) return;
    children(node, path);
    if (const auto rules = node.find(kRulesKeyword);
        rules != node.end() && !takes_conditionals(caps_)) {
      lower_rules_described(*rules, path, report_, stage_, caps_.family);
      node.erase(rules);
    }
    Notes notes;
    ojson out = ojson::object();
    for (const auto& [key, value] : node.items()) {
      const auto handling = handling_at(node, key, value);
      if (handling != KeywordHandling::enforced) {
        state(node, key, value, notes);
        record(path, key, value, handling);
      }
      if (handling == KeywordHandling::enforced || handling == KeywordHandling::unknown) {
        out[key] = value;
      }
    }
    node = std::move(out);
    append_description(node, notes.text());
  }

  static bool takes_conditionals(const SchemaCapabilities& caps) {
    const auto found = caps.keyword_handling.find("if");
    return found == caps.keyword_handling.end() || found->second == KeywordHandling::enforced ||
           found->second == KeywordHandling::unknown;
  }

 private:
  void children(ojson& node, const Path& path) {
    for (auto& [key, value] : node.items()) {
      // A subschema that does not go on the wire is stated whole, not walked.
      const auto handling = handling_at(node, key, value);
      if (handling == KeywordHandling::skipped || handling == KeywordHandling::rejected) continue;
      // Subschemas that hold conditions (not, if, contains, ...) are kept or stated whole: a
      // bound inside a condition is no rule at this place.
      if (key == "properties" || key == "$defs") {
        if (!value.is_object()) continue;
        for (auto& [name, child] : value.items()) {
          walk(child, key == "$defs" ? Path{"$defs", name} : path / name);
        }
      } else if (key == "items" || key == "prefixItems") {
        if (!value.is_array()) {
          walk(value, path / std::string("[]"));
          continue;
        }
        for (std::size_t i = 0; i < value.size(); ++i) walk(value[i], path / i);
      } else if (key == "anyOf" || key == "oneOf") {
        if (!value.is_array()) continue;
        const bool nullable = nullable_inner(node).has_value();
        for (std::size_t i = 0; i < value.size(); ++i) {
          walk(value[i], nullable ? path : path / ("|" + std::to_string(i)));
        }
      } else if (key == "allOf" && value.is_array()) {
        for (auto& branch : value) walk(branch, path);
      } else if (key == "additionalProperties") {
        walk(value, path / std::string("{}"));
      }
    }
  }

  [[nodiscard]] KeywordHandling keyword(std::string_view key) const {
    const auto found =
        caps_.keyword_handling.find(key == "then" || key == "else" ? std::string_view("if") : key);
    return found == caps_.keyword_handling.end() ? KeywordHandling::enforced : found->second;
  }

  // The format is one the grammar compiles (so it, not the lengths, shapes the string).
  [[nodiscard]] bool compiled_format(const ojson& node) const {
    const auto format = node.find("format");
    return format != node.end() && format->is_string() &&
           caps_.formats.count(format->get<std::string>()) > 0;
  }

  // The node's pattern goes on the wire (and so shapes the string there).
  [[nodiscard]] bool sent_pattern(const ojson& node) const {
    const auto pattern = node.find("pattern");
    if (pattern == node.end()) return false;
    const auto handling = handling_at(node, "pattern", *pattern);
    return handling == KeywordHandling::enforced || handling == KeywordHandling::unknown;
  }

  [[nodiscard]] KeywordHandling handling_at(const ojson& node, const std::string& key,
                                            const ojson& value) const {
    if (key == "uniqueItems" && value == false) return KeywordHandling::enforced;  // says nothing
    if (asserts_nothing(node, key)) return KeywordHandling::enforced;  // the engine ignores it too
    const auto own = keyword(key);
    if (own != KeywordHandling::enforced) return own;
    if (key == "format" && value.is_string() && !caps_.formats.count(value.get<std::string>())) {
      return caps_.other_formats;
    }
    if ((key == "minimum" || key == "maximum" || key == "exclusiveMinimum" ||
         key == "exclusiveMaximum") &&
        node.value("type", ojson()) != "integer") {
      return caps_.bounds_beside_numbers;
    }
    if (key == "pattern" && value.is_string()) {
      const std::string& p = value.get_ref<const std::string&>();
      const bool anchored = p.size() >= 2 && p.front() == '^' && p.back() == '$';
      return anchored ? KeywordHandling::enforced : caps_.unanchored_patterns;
    }
    if ((key == "minLength" || key == "maxLength") &&
        (sent_pattern(node) || compiled_format(node))) {
      return caps_.lengths_beside_pattern;
    }
    return KeywordHandling::enforced;
  }

  static void state(const ojson& node, const std::string& key, const ojson& value, Notes& notes) {
    if (key == "minimum" || key == "maximum" || key == "exclusiveMinimum" ||
        key == "exclusiveMaximum" || key == "multipleOf") {
      notes.bounds.push_back(bound_words(key, value));
    } else if (key == "minLength" || key == "maxLength") {
      (key == "minLength" ? notes.min_length : notes.max_length) = value;
    } else if (key == "minItems" || key == "maxItems") {
      (key == "minItems" ? notes.min_items : notes.max_items) = value;
    } else if (key == "format" && value.is_string()) {
      notes.sentences.push_back(format_words(value.get<std::string>()));
    } else if (key == "pattern" && value.is_string()) {
      notes.sentences.push_back("Must match /" + value.get<std::string>() + "/.");
    } else if (const auto words = conditional_sentence(node, key)) {
      if (!words->empty()) notes.sentences.push_back(*words);
    } else {
      notes.sentences.push_back(rejected_words(key, value));
    }
  }

  void record(const Path& path, const std::string& key, const ojson& value,
              KeywordHandling handling) {
    const std::string why =
        handling == KeywordHandling::unknown
            ? caps_.family + ": whether the server's grammar enforces " + key +
                  " is not known; sent as written and also stated in the description, enforced "
                  "locally"
        : handling == KeywordHandling::rejected
            ? caps_.family + " reject " + key +
                  " here (the request would fail); stated in the description instead, enforced "
                  "locally"
            : caps_.family + " skip " + key +
                  " here without an error; stated in the description instead, enforced locally";
    for (auto& e : report_.entries()) {
      if (e.path == path && has_keyword(e.keyword, key)) {
        e.fate = Fate::description;
        e.why = why;
        e.stage = stage_;
        return;
      }
    }
    report_.add({path, key + " " + value.dump(), key, Fate::description, why, stage_});
  }

  const SchemaCapabilities& caps_;
  std::string stage_;
  ReportWriter report_;
};

}  // namespace

bool is_null_schema(const ojson& node) {
  return node.is_object() && node.size() == 1 && node.contains("type") && node["type"] == "null";
}

std::optional<std::size_t> nullable_inner(const ojson& node) {
  if (!node.is_object()) return std::nullopt;
  const auto it = node.find("anyOf");
  if (it == node.end() || !it->is_array() || it->size() != 2) return std::nullopt;
  if (is_null_schema((*it)[1])) return 0;
  if (is_null_schema((*it)[0])) return 1;
  return std::nullopt;
}

WireSchema lower_schema(const nlohmann::ordered_json& emitted, Report report,
                        const SchemaCapabilities& capabilities, const std::string& stage,
                        const LoweringBound& bound) {
  WireSchema wire;
  if (capabilities.full_schema) {
    wire.schema = emitted;
    if (wire.schema.is_object()) wire.schema.erase("$schema");
    // What the grammar cannot take goes to words first, rules included where it has no if/then.
    GrammarFilter(capabilities, stage, report).walk(wire.schema, Path{});
    if (GrammarFilter::takes_conditionals(capabilities)) {
      lower_rules_as_conditionals(wire.schema, report, stage);
    }
    ReportWriter{report}.add(
        {Path{}, "strict", "strict", Fate::keyword,
         capabilities.family +
             " hold the model to the schema only as far as their grammar goes (strict, where "
             "sent, is a hint); every rule is still validated locally",
         stage});
    wire.report = std::move(report);
    return wire;
  }
  // Recursion is unrolled three levels deep, or as deep as the bound allows (at least one).
  for (int depth = kUnrollDepth;; --depth) {
    WireSchema attempt;
    attempt.report = report;
    Lowerer lowerer(capabilities, stage, attempt.report, attempt.lowering, bound, depth);
    try {
      ojson root = emitted;
      ojson defs;
      if (root.is_object() && root.contains("$defs")) {
        defs = lowerer.definitions(root);
        root.erase("$defs");
      }
      attempt.schema = lowerer.node(root, Path{});
      if (!is_object_schema(attempt.schema)) lowerer.wrap_root(attempt.schema);
      if (defs.is_object()) attempt.schema["$defs"] = std::move(defs);
      return attempt;
    } catch (const SchemaError&) {
      if (depth == 1 || !lowerer.unrolls_recursion()) throw;
    }
  }
}

}  // namespace detail

namespace {

bool is_option_segment(const PathSegment& segment) {
  const auto* key = std::get_if<std::string>(&segment);
  return key && key->size() > 1 && (*key)[0] == '|';
}

// What lower_value() asks before stepping into a union option: the caller's judgement of the value
// as it was before lowering (a null filled in for one optional must not sway the next choice).
// Without `choose`, every option is stepped into: the value itself is each option's.
struct OptionFilter {
  const OptionChoice* choose = nullptr;
  const nlohmann::json* original = nullptr;
};

// Where a walk is: as the Report writes paths (`[]`, `{}`, `|i`) and at the concrete place in the
// value. Only kept while an OptionFilter judges.
struct Place {
  Path pattern;
  nlohmann::json::json_pointer concrete = nlohmann::json::json_pointer();
};

bool takes_option(const OptionFilter& filter, const Place& place, const std::string& segment) {
  if (filter.choose == nullptr || !filter.original->contains(place.concrete)) return true;
  const auto chosen = (*filter.choose)(filter.original->at(place.concrete), place.pattern);
  return !chosen || "|" + std::to_string(*chosen) == segment;
}

// Calls `fn(value, place)` on every value at `path` from `at` on: "[]" is every element of an
// array, "{}" every value of an object, and a union option is the value itself (when `filter`
// takes that option).
template <class Fn>
void for_each_at(nlohmann::json& value, const std::vector<PathSegment>& path, std::size_t at,
                 const Fn& fn, const OptionFilter& filter = {}, const Place& place = {}) {
  if (at >= path.size()) return fn(value, place);
  const auto& segment = path[at];
  const bool judged = filter.choose != nullptr;
  const auto next = [&](const PathSegment& pattern, const auto& concrete) {
    return judged ? Place{place.pattern + Path{pattern}, place.concrete / concrete} : Place{};
  };
  if (is_option_segment(segment)) {
    const auto& option = std::get<std::string>(segment);
    if (!takes_option(filter, place, option)) return;
    const Place inside = judged ? Place{place.pattern / option, place.concrete} : Place{};
    return for_each_at(value, path, at + 1, fn, filter, inside);
  }
  if (const auto* index = std::get_if<std::size_t>(&segment)) {
    if (value.is_array() && *index < value.size()) {
      for_each_at(value[*index], path, at + 1, fn, filter, next(segment, *index));
    }
    return;
  }
  const auto& key = std::get<std::string>(segment);
  if (key == "[]" && value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      for_each_at(value[i], path, at + 1, fn, filter, next(segment, i));
    }
    return;
  }
  if (key == "{}" && value.is_object()) {
    for (auto& [name, element] : value.items()) {
      for_each_at(element, path, at + 1, fn, filter, next(segment, name));
    }
    return;
  }
  if (!value.is_object()) return;
  if (const auto it = value.find(key); it != value.end()) {
    for_each_at(*it, path, at + 1, fn, filter, next(segment, key));
  }
}

// [{"key": k, "value": v}, ...] -> {k: v, ...}; anything else is left for validation to name.
void pairs_to_object(nlohmann::json& value) {
  if (!value.is_array()) return;
  nlohmann::json object = nlohmann::json::object();
  for (const auto& entry : value) {
    if (!entry.is_object() || !entry.contains("key") || !entry["key"].is_string() ||
        !entry.contains("value")) {
      return;
    }
    object[entry["key"].get<std::string>()] = entry["value"];
  }
  value = std::move(object);
}

}  // namespace

namespace {

// What one lowering (the root's or a definition's) changed, undone in `value`; references carry
// on into the definitions, as deep as the value goes.
void undo(nlohmann::json& value, const Lowering& lowering, const Lowering& root) {
  // Outer lists first: a map inside a map's values is reached through the outer object.
  std::vector<const Path*> lists;
  for (const auto& path : lowering.pair_lists) lists.push_back(&path);
  std::stable_sort(lists.begin(), lists.end(),
                   [](const Path* a, const Path* b) { return a->size() < b->size(); });
  for (const Path* path : lists) {
    for_each_at(value, path->segments(), 0,
                [](nlohmann::json& at, const Place&) { pairs_to_object(at); });
  }
  for (const auto& path : lowering.nulled_optionals) {
    auto parent = path.segments();
    if (parent.empty() || !std::holds_alternative<std::string>(parent.back())) continue;
    const std::string key = std::get<std::string>(parent.back());
    parent.pop_back();
    for_each_at(value, parent, 0, [&key](nlohmann::json& object, const Place&) {
      if (const auto it = object.find(key);
          object.is_object() && it != object.end() && it->is_null()) {
        object.erase(it);
      }
    });
  }
  // A named reference, not a structured binding: clang 14 (the fuzz build) cannot capture one.
  for (const auto& reference : lowering.references) {
    if (reference.second >= root.definitions.size()) continue;
    const auto& definition = root.definitions[reference.second];
    for_each_at(value, reference.first.segments(), 0,
                [&](nlohmann::json& at, const Place&) { undo(at, definition, root); });
  }
}

// {k: v, ...} -> [{"key": k, "value": v}, ...]: what pairs_to_object reads back.
void object_to_pairs(nlohmann::json& value) {
  if (!value.is_object()) return;
  nlohmann::json pairs = nlohmann::json::array();
  for (auto& [key, item] : value.items()) {
    pairs.push_back(nlohmann::json{{"key", key}, {"value", std::move(item)}});
  }
  value = std::move(pairs);
}

// undo() the other way round, in the reverse order: references, absent optionals, then maps
// (inner ones first, while the outer ones are still objects the paths can step through).
// `place` is where `value` sits in the whole value (a definition's lowering starts at a reference).
void redo(nlohmann::json& value, const Lowering& lowering, const Lowering& root,
          const OptionFilter& filter, const Place& place) {
  for (const auto& reference : lowering.references) {
    if (reference.second >= root.definitions.size()) continue;
    const auto& definition = root.definitions[reference.second];
    for_each_at(
        value, reference.first.segments(), 0,
        [&](nlohmann::json& at, const Place& where) { redo(at, definition, root, filter, where); },
        filter, place);
  }
  for (const auto* paths : {&lowering.nulled_optionals, &lowering.null_for_absent}) {
    for (const auto& path : *paths) {
      auto parent = path.segments();
      if (parent.empty() || !std::holds_alternative<std::string>(parent.back())) continue;
      const std::string key = std::get<std::string>(parent.back());
      parent.pop_back();
      for_each_at(
          value, parent, 0,
          [&key](nlohmann::json& object, const Place&) {
            if (object.is_object() && !object.contains(key)) object[key] = nullptr;
          },
          filter, place);
    }
  }
  std::vector<const Path*> lists;
  for (const auto& path : lowering.pair_lists) lists.push_back(&path);
  std::stable_sort(lists.begin(), lists.end(),
                   [](const Path* a, const Path* b) { return a->size() > b->size(); });
  for (const Path* path : lists) {
    for_each_at(
        value, path->segments(), 0, [](nlohmann::json& at, const Place&) { object_to_pairs(at); },
        filter, place);
  }
}

}  // namespace

nlohmann::json lower_value(nlohmann::json value, const Lowering& lowering,
                           const OptionChoice& choose) {
  const nlohmann::json original = choose ? value : nlohmann::json();
  const OptionFilter filter{choose ? &choose : nullptr, &original};
  redo(value, lowering, lowering, filter, Place{});
  if (lowering.wrapped_root) value = nlohmann::json{{"value", std::move(value)}};
  return value;
}

nlohmann::json unlower(nlohmann::json value, const Lowering& lowering) {
  if (lowering.wrapped_root) {
    if (!value.is_object() || !value.contains("value")) return value;  // validation will say why
    nlohmann::json inner = std::move(value["value"]);
    value = std::move(inner);
  }
  undo(value, lowering, lowering);
  return value;
}

WireSchema lower_within(const Provider& provider, const nlohmann::ordered_json& emitted,
                        Report report, const LoweringBound& bound) {
  return detail::lower_schema(emitted, std::move(report), provider.schema_capabilities(),
                              std::string(provider.name()), bound);
}

}  // namespace accord
