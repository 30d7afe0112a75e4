#include "lowering.hpp"
#include "../string_formats.hpp"

#include "../ordered_object.hpp"
#include "../rules_detail.hpp"
#include "rule_lowering.hpp"

#include <algorithm>
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

// Keywords neither OpenAI strict mode nor Anthropic accept; emit() writes none of them today, but a
// hand-written or future schema may, and each must still reach the model as words.
const std::set<std::string, std::less<>> kRejected = {
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "patternProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
};

const std::set<std::string, std::less<>> kOpenAIFormats = {
    "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"};
const std::set<std::string, std::less<>> kAnthropicFormats = {
    "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"};

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

std::string rejected_words(const std::string& key, const ojson& value) {
  if (key == "uniqueItems") return "Items must be unique.";
  if (key == "minProperties")
    return "Must have at least " + counted(value, "property", "properties") + ".";
  if (key == "maxProperties")
    return "Must have at most " + counted(value, "property", "properties") + ".";
  // Rare keywords emit() never writes: name the rule rather than lose it.
  return "Must also satisfy the JSON Schema rule " + key + " " + value.dump() + ".";
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

// Rebuilds `node` so a new "description" sits where emit() would put it (after "type", or after
// the anyOf of a nullable wrapper); an existing description gets the text appended.
void append_description(ojson& node, const std::string& text) {
  if (text.empty() || !node.is_object()) return;
  if (const auto it = node.find("description"); it != node.end() && it->is_string()) {
    const std::string existing = *it;
    *it = existing.empty() ? text : existing + " " + text;
    return;
  }
  std::string anchor;
  for (const char* key : {"type", "anyOf", "oneOf"}) {
    if (node.contains(key)) {
      anchor = key;
      break;
    }
  }
  ojson out = ojson::object();
  if (anchor.empty()) out["description"] = text;
  for (const auto& [key, value] : node.items()) {
    out[key] = value;
    if (key == anchor) out["description"] = text;
  }
  node = std::move(out);
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
  ojson out = ojson::object();
  for (const auto& [k, v] : node.items()) {
    out[k] = v;
    if (k == anchor) out[key] = value;
  }
  node = std::move(out);
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
  Lowerer(LoweringTarget target, std::string stage, Report& report, Lowering& lowering)
      : openai_(target == LoweringTarget::openai_strict),
        family_(openai_ ? "OpenAI strict schemas" : "Anthropic structured outputs"),
        stage_(std::move(stage)),
        report_(report),
        lowering_(lowering) {}

  ojson node(const ojson& in, const Path& path) {
    if (!in.is_object()) return in;
    Notes notes;
    ojson out = body(in, path, notes);
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
    lowering_.wrapped_root = true;
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
        for (const auto& [name, child] : value.items()) props.set(name, node(child, path / name));
        out[key] = std::move(props).done();
      } else if (key == "additionalProperties") {
        out[key] = false;
        if (value.is_object()) {
          // A record (map): these providers accept no schema for free keys.
          record(path, key, "record", Fate::local_only,
                 family_ +
                     " need additionalProperties false on every object, so the model can "
                     "send no key of this map; enforced locally only");
        } else if (value != false) {
          closed_by_lowering(path);
        }
      } else if (key == "anyOf" && value.is_array()) {
        if (inner) {
          ojson options = value;
          options[*inner] = body(value[*inner], path, notes);
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
        if (openai_) {
          out[key] = value;
        } else {
          notes.bounds.push_back(bound_words(key, value));
          moved(path, key, value,
                family_ + " reject numeric bounds; stated in the description, enforced locally");
        }
      } else if (key == "minLength" || key == "maxLength") {
        (key == "minLength" ? notes.min_length : notes.max_length) = value;
        if (openai_) {
          out[key] = value;
          moved(path, key, value,
                "OpenAI strict mode does not guarantee minLength/maxLength; kept as keywords and "
                "stated in the description, enforced locally");
        } else {
          moved(path, key, value,
                family_ +
                    " reject minLength/maxLength; stated in the description, enforced "
                    "locally");
        }
      } else if ((key == "minItems" || key == "maxItems") && !openai_) {
        if (key == "minItems" && value.is_number() && value <= 1) {
          out[key] = value;
        } else if (!tuple) {  // a tuple's count is already in its own sentence
          (key == "minItems" ? notes.min_items : notes.max_items) = value;
          moved(path, key, value,
                family_ +
                    " accept only minItems 0 or 1 and no maxItems; stated in the "
                    "description, enforced locally");
        }
      } else if (key == "format" && value.is_string()) {
        const auto& allowed = openai_ ? kOpenAIFormats : kAnthropicFormats;
        if (allowed.count(value.get<std::string>())) {
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
      } else if (key == "pattern" && value.is_string() && !openai_ &&
                 !simple_pattern(value.get<std::string>())) {
        notes.sentences.push_back("Must match /" + value.get<std::string>() + "/.");
        moved(path, key, value,
              "Anthropic accepts only simple patterns (no lookaround, backreferences, \\b or "
              "repeats over 100); stated in the description, enforced locally");
      } else if (key == "default" && openai_) {
        if (value.is_null()) {
          record(path, "default", "default null", Fate::dropped,
                 "OpenAI strict mode has no defaults; null already means absent here");
        } else {
          notes.sentences.push_back("Default: " + value.dump() + ".");
          moved(path, key, value,
                "OpenAI strict mode has no defaults and needs every property required; sent as "
                "nullable with the default stated in the description, null means absent");
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
      } else if (kRejected.count(key)) {
        if (key == "uniqueItems" && value == false) continue;  // says nothing
        notes.sentences.push_back(rejected_words(key, value));
        moved(path, key, value,
              family_ + " reject " + key + "; stated in the description, enforced locally");
      } else {
        out[key] = value;
      }
    }
    if (is_object_schema(in) || in.contains("properties")) close_object(in, out, path);
    if (const auto rules = in.find(kRulesKeyword); rules != in.end()) {
      if (openai_) {
        out = lower_rules_openai(*rules, std::move(out), path, report_, stage_);
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

  static std::string bound_words(const std::string& key, const ojson& value) {
    if (key == "exclusiveMinimum") return "greater than " + value.dump();
    if (key == "minimum") return "at least " + value.dump();
    if (key == "exclusiveMaximum") return "less than " + value.dump();
    if (key == "maximum") return "at most " + value.dump();
    return "a multiple of " + value.dump();
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
    for (const auto& option : value) {
      const bool pattern_only = option.is_object() && option.size() == 1 &&
                                option.contains("pattern") && option["pattern"].is_string();
      if (!pattern_only) {
        if (openai_) {
          notes.sentences.push_back(rejected_words("allOf", ojson::array({option})));
          record(path, "allOf", "allOf", Fate::description,
                 "OpenAI strict mode rejects allOf; stated in the description, enforced locally");
        } else {
          kept.push_back(node(option, path));
        }
        continue;
      }
      const std::string pattern = option["pattern"];
      ReportEntry* entry = next < pattern_entries.size() ? pattern_entries[next] : nullptr;
      ++next;
      if (!openai_ && simple_pattern(pattern)) {
        kept.push_back(option);
        continue;
      }
      notes.sentences.push_back("Must also match /" + pattern + "/.");
      const std::string why =
          openai_ ? "OpenAI strict mode rejects allOf, which held this extra pattern; stated in "
                    "the description, enforced locally"
                  : "Anthropic accepts only simple patterns (no lookaround, backreferences, \\b "
                    "or repeats over 100); stated in the description, enforced locally";
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
    report_.add({path, "tuple", in.contains("prefixItems") ? "prefixItems" : "items",
                 Fate::description,
                 family_ + " accept no per-position item schemas; sent as an array of any "
                           "position's shape with the order stated in the description, enforced "
                           "locally",
                 stage_});
    if (shapes.size() == 1) return shapes[0];
    return ojson{{"anyOf", std::move(shapes)}};
  }

  void closed_by_lowering(const Path& path) {
    report_.add({path, "passthrough", "additionalProperties", Fate::keyword,
                 family_ + " need additionalProperties false on every object; the model cannot "
                           "send unknown keys, though the local rules allow them",
                 stage_});
  }

  void close_object(const ojson& in, ojson& out, const Path& path) {
    if (!out.contains("additionalProperties")) {
      insert_after(out, {"properties", "required"}, "additionalProperties", false);
      closed_by_lowering(path);
    }
    if (!openai_ || !out.contains("properties") || !out["properties"].is_object()) return;
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
        if (!has_default) {
          record(path / name, "required", "optional", Fate::keyword,
                 "OpenAI strict mode needs every property required; the field is already "
                 "nullable, so the model sends null instead of leaving it out");
        }
        continue;
      }
      child = make_nullable(child);
      lowering_.nulled_optionals.push_back(path / name);
      if (!has_default) {
        record(path / name, "required", "optional", Fate::keyword,
               "OpenAI strict needs every property required; sent as nullable, null means absent");
      }
    }
    if (out.contains("required")) {
      out["required"] = std::move(required);
    } else {
      insert_after(out, {"properties"}, "required", std::move(required));
    }
  }

  bool openai_;
  std::string family_;
  std::string stage_;
  Report& report_;
  Lowering& lowering_;
  bool root_branched_ = false;  // the root object's rules made it anyOf branches
  std::unordered_map<std::string, std::vector<std::size_t>> by_path_;  // report entries by path
  std::size_t indexed_ = 0;                                            // entries indexed so far
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

WireSchema lower_schema(const nlohmann::ordered_json& emitted, Report report, LoweringTarget target,
                        const std::string& stage) {
  WireSchema wire;
  if (target == LoweringTarget::generic) {
    wire.schema = emitted;
    if (wire.schema.is_object()) wire.schema.erase("$schema");
    lower_rules_generic(wire.schema, report, stage);
    report.add({Path{}, "strict", "strict", Fate::keyword,
                "local servers treat strict as a hint and may ignore the schema; every rule is "
                "still validated locally",
                stage});
    wire.report = std::move(report);
    return wire;
  }
  Lowerer lowerer(target, stage, report, wire.lowering);
  wire.schema = lowerer.node(emitted, Path{});
  if (!is_object_schema(wire.schema)) lowerer.wrap_root(wire.schema);
  wire.report = std::move(report);
  return wire;
}

}  // namespace detail

namespace {

bool is_option_segment(const PathSegment& segment) {
  const auto* key = std::get_if<std::string>(&segment);
  return key && key->size() > 1 && (*key)[0] == '|';
}

// Erases the key at the end of `path` where its value is null, following "[]" into every element.
void erase_null(nlohmann::json& value, const std::vector<PathSegment>& path, std::size_t at) {
  if (at >= path.size()) return;
  const auto& segment = path[at];
  // A union option is not a place in the value: the value itself is the option.
  if (is_option_segment(segment)) return erase_null(value, path, at + 1);
  if (const auto* index = std::get_if<std::size_t>(&segment)) {
    if (value.is_array() && *index < value.size()) erase_null(value[*index], path, at + 1);
    return;
  }
  const auto& key = std::get<std::string>(segment);
  if (key == "[]") {
    if (value.is_array()) {
      for (auto& element : value) erase_null(element, path, at + 1);
    }
    return;
  }
  if (!value.is_object()) return;
  const auto it = value.find(key);
  if (it == value.end()) return;
  if (at + 1 == path.size()) {
    if (it->is_null()) value.erase(it);
    return;
  }
  erase_null(*it, path, at + 1);
}

}  // namespace

nlohmann::json unlower(nlohmann::json value, const Lowering& lowering) {
  if (lowering.wrapped_root) {
    if (!value.is_object() || !value.contains("value")) return value;  // validation will say why
    nlohmann::json inner = std::move(value["value"]);
    value = std::move(inner);
  }
  for (const auto& path : lowering.nulled_optionals) erase_null(value, path.segments(), 0);
  return value;
}

}  // namespace accord
