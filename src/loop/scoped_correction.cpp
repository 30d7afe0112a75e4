#include "loop/scoped_correction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "accord/json_text.hpp"
#include "accord/wire_name.hpp"
#include "core/json_stream_reader.hpp"
#include "core/utf8.hpp"
#include "loop/loop.hpp"
#include "loop/lowering_path.hpp"

namespace accord::detail {
namespace {

using ojson = nlohmann::ordered_json;

// "items.3.price", or nullopt when a segment has characters a patch key cannot carry.
std::optional<std::string> dotted(const Path& path) {
  std::string key;
  for (const auto& segment : path.segments()) {
    if (!key.empty()) key += '.';
    if (const auto* name = std::get_if<std::string>(&segment)) {
      if (!is_wire_name(*name)) return std::nullopt;
      key += *name;
    } else {
      key += std::to_string(std::get<std::size_t>(segment));
    }
  }
  if (key.size() > kMaxWireNameLength) return std::nullopt;  // the joined key is a wire name too
  return key;
}

// A local `$ref` ("#/$defs/x", "#/definitions/x") resolved against the wire schema's root.
const ojson* resolved(const ojson& root, const ojson* schema) {
  for (int hops = 0; hops < 32 && schema != nullptr && schema->is_object(); ++hops) {
    const auto ref = schema->find("$ref");
    if (ref == schema->end()) return schema;
    if (!ref->is_string()) return nullptr;
    const auto pointer = ref->get<std::string>();
    if (!pointer.starts_with("#/")) return nullptr;
    try {
      schema = &root.at(ojson::json_pointer(pointer.substr(1)));
    } catch (const nlohmann::json::exception&) {
      return nullptr;
    }
  }
  return nullptr;
}

// A lowered optional field is `anyOf: [T, {"type": "null"}]`: the step goes into T.
const ojson* without_null_branch(const ojson& root, const ojson* schema) {
  schema = resolved(root, schema);
  if (schema == nullptr) return nullptr;
  const auto any_of = schema->find("anyOf");
  if (any_of == schema->end()) return schema;
  const ojson* only = nullptr;
  for (const auto& branch : *any_of) {
    if (branch.is_object() && branch.size() == 1 && branch.value("type", "") == "null") continue;
    if (only != nullptr) return nullptr;  // a real union: which branch holds the value is unknown
    only = &branch;
  }
  return resolved(root, only);
}

// The wire sub-schema at `path`, or nullptr where the schema does not lead there plainly.
const ojson* sub_schema(const ojson& root, const std::vector<PathSegment>& path) {
  const ojson* schema = &root;
  for (const auto& segment : path) {
    schema = without_null_branch(root, schema);
    if (schema == nullptr) return nullptr;
    if (const auto* name = std::get_if<std::string>(&segment)) {
      const auto properties = schema->find("properties");
      if (properties != schema->end() && properties->contains(*name)) {
        schema = &(*properties)[*name];
      } else if (const auto extra = schema->find("additionalProperties");
                 extra != schema->end() && extra->is_object()) {
        schema = &*extra;
      } else {
        return nullptr;
      }
    } else {
      const auto index = std::get<std::size_t>(segment);
      const auto prefix = schema->find("prefixItems");
      if (prefix != schema->end() && prefix->is_array() && index < prefix->size()) {
        schema = &(*prefix)[index];
      } else if (const auto items = schema->find("items");
                 items != schema->end() && items->is_object()) {
        schema = &*items;
      } else {
        return nullptr;
      }
    }
  }
  return schema;
}

// The value at `path`, or nullptr when it is absent (a missing property).
const nlohmann::json* value_at(const nlohmann::json& value, const std::vector<PathSegment>& path) {
  const nlohmann::json* at = &value;
  for (const auto& segment : path) {
    if (const auto* name = std::get_if<std::string>(&segment)) {
      if (!at->is_object() || !at->contains(*name)) return nullptr;
      at = &(*at)[*name];
    } else {
      const auto index = std::get<std::size_t>(segment);
      if (!at->is_array() || index >= at->size()) return nullptr;
      at = &(*at)[index];
    }
  }
  return at;
}

bool starts_with(const std::vector<PathSegment>& path, const std::vector<PathSegment>& prefix) {
  return prefix.size() <= path.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

// A value to ask for: a failing one, or a member a stopped stream did not write yet (which the
// patch may leave out when the wire schema lets its object do without it).
struct Wanted {
  Path path;
  bool required = true;
};

// The failing paths. A refinement's issue widens to the object holding its field: a rule across
// fields ("refundDate is before orderDate", pointed at refundDate) may need a sibling changed,
// which a scope of the one field could not allow.
std::vector<Wanted> failing(const Issues& issues) {
  std::vector<Wanted> paths;
  for (const auto& issue : issues) {
    auto segments = issue.path.segments();
    if (issue.code == IssueCode::custom && !segments.empty()) segments.pop_back();
    paths.push_back({Path(std::move(segments))});
  }
  return paths;
}

// `paths` with any path inside another one dropped: the outer value is replaced whole.
std::vector<Wanted> outermost(std::vector<Wanted> paths) {
  std::stable_sort(paths.begin(), paths.end(),
                   [](const Wanted& a, const Wanted& b) { return a.path.size() < b.path.size(); });
  std::vector<Wanted> kept;
  for (auto& wanted : paths) {
    const bool covered = std::any_of(kept.begin(), kept.end(), [&](const Wanted& outer) {
      return starts_with(wanted.path.segments(), outer.path.segments());
    });
    if (!covered) kept.push_back(std::move(wanted));
  }
  return kept;
}

// Whether the way to `path` (the value there aside) goes through a map the wire sends as a list
// of entries, where the path's keys name nothing: in `lowering`, or in the recursive definition a
// reference on the way leads into. A map or definition off the way leaves the path as it is.
bool crosses_entry_list(const Lowering& lowering, const Lowering& root,
                        std::span<const PathSegment> path, std::size_t hops) {
  for (const auto& list : lowering.pair_lists) {
    if (relate(list, path).where == PathRelation::above) return true;
  }
  for (const auto& reference : lowering.references) {
    const auto relation = relate(reference.first, path);
    if (relation.where != PathRelation::above) continue;
    // A reference to a reference at the same place could go round forever: past the bound, the
    // way is taken as not plain.
    if (hops == 0 || reference.second >= root.definitions.size()) return true;
    if (crosses_entry_list(root.definitions[reference.second], root, path.subspan(relation.matched),
                           hops - 1)) {
      return true;
    }
  }
  return false;
}

// What a stream stopped at `stop` left unwritten in `partial`, added to `wanted`: the members each
// object on the way to it lacks, or, from the first list or map on the way (whose other entries
// are unknown), that one whole. False with `why` when that is the whole value.
bool add_unwritten(const nlohmann::json& partial, const Path& stop, const WireSchema& wire,
                   std::vector<Wanted>& wanted, std::string& why) {
  const auto failing_end = static_cast<std::ptrdiff_t>(wanted.size());
  std::vector<PathSegment> at;
  for (const auto& step : stop.segments()) {
    const auto wire_at = on_the_wire(wire.lowering, at);
    const ojson* schema = without_null_branch(wire.schema, sub_schema(wire.schema, wire_at));
    const nlohmann::json* open = value_at(partial, wire_at);
    if (schema == nullptr || open == nullptr) {
      why = "the schema does not lead plainly to " + stop.to_string();
      return false;
    }
    const auto extra = schema->find("additionalProperties");
    if (open->is_array() || schema->contains("patternProperties") ||
        (extra != schema->end() && extra->is_object())) {
      if (at.empty()) {
        why =
            "the stream stopped inside the top-level list or map, whose other entries are unknown";
        return false;
      }
      // Asked for first among what was not written: it holds the failing part.
      wanted.insert(wanted.begin() + failing_end, {Path(at)});
      return true;
    }
    const auto properties = schema->find("properties");
    if (open->is_object() && properties != schema->end() && properties->is_object()) {
      const auto required = schema->find("required");
      for (auto member = properties->begin(); member != properties->end(); ++member) {
        if (open->contains(member.key())) continue;
        const bool needed =
            required != schema->end() && required->is_array() &&
            std::find(required->begin(), required->end(), member.key()) != required->end();
        wanted.push_back({Path(at) / member.key(), needed});
      }
    }
    at.push_back(step);
  }
  return true;
}

}  // namespace

std::string ScopedCorrection::keys() const {
  std::string out;
  for (const auto& target : targets) out += (out.empty() ? "" : ", ") + target.key;
  return out;
}

std::optional<ScopedCorrection> plan_scoped_correction(const nlohmann::json& wire_value,
                                                       const Issues& issues, const WireSchema& wire,
                                                       double max_share, std::string& why,
                                                       const std::optional<Path>& stopped_at) {
  const auto& lowering = wire.lowering;
  auto wanted = failing(issues);
  if (stopped_at && !add_unwritten(wire_value, *stopped_at, wire, wanted, why)) return std::nullopt;
  ScopedCorrection plan;
  ojson properties = ojson::object();
  ojson required = ojson::array();
  nlohmann::json current = nlohmann::json::object();
  std::size_t scoped_bytes = 0;
  for (const auto& [path, needed] : outermost(std::move(wanted))) {
    if (path.empty()) {
      why = "an issue is about the whole value (a refinement spans the fields beside its own)";
      return std::nullopt;
    }
    auto key = dotted(path);
    if (!key) {
      why = "the path " + path.to_string() + " cannot be named by a patch key";
      return std::nullopt;
    }
    if (crosses_entry_list(lowering, lowering, path.segments(), path.size() + 32)) {
      why = "the way to " + path.to_string() + " goes through a map sent as a list of entries";
      return std::nullopt;
    }
    auto wire_path = on_the_wire(lowering, path.segments());
    const ojson* schema = sub_schema(wire.schema, wire_path);
    if (schema == nullptr) {
      why = "the schema does not lead plainly to " + path.to_string();
      return std::nullopt;
    }
    // The value's parent must be there for the answer to have a place.
    std::vector<PathSegment> parent(wire_path.begin(), wire_path.end() - 1);
    if (value_at(wire_value, parent) == nullptr) {
      why = "the value has no place for " + path.to_string();
      return std::nullopt;
    }
    scoped_bytes += schema->dump().size();
    if (const auto* value = value_at(wire_value, wire_path)) {
      current[*key] = *value;
      scoped_bytes += value->dump().size();
    }
    properties[*key] = *schema;
    if (needed) required.push_back(*key);
    plan.targets.push_back({*key, std::move(wire_path)});
  }
  const std::size_t whole_bytes = wire.schema.dump().size() + wire_value.dump().size();
  if (static_cast<double>(scoped_bytes) > max_share * static_cast<double>(whole_bytes)) {
    why = fmt::format("the failing parts are {}% of the object and its schema",
                      scoped_bytes * 100 / std::max<std::size_t>(whole_bytes, 1));
    return std::nullopt;
  }

  ojson schema{{"type", "object"},
               {"properties", std::move(properties)},
               {"required", std::move(required)},
               {"additionalProperties", false}};
  // Sub-schemas may point into the definitions; the patch schema carries them.
  for (const char* defs : {"$defs", "definitions"}) {
    if (const auto found = wire.schema.find(defs); found != wire.schema.end())
      schema[defs] = *found;
  }
  plan.patch.schema = std::move(schema);

  // Bounded as a whole-object correction's echo is: a huge failing value is not sent back whole.
  std::string values = valid_utf8(current.dump());
  cut_with_marker(values, kEchoedReplyBytes, "the values");
  std::string keys;
  for (const auto& target : plan.targets)
    keys += (keys.empty() ? "\"" : ", \"") + target.key + "\"";
  plan.request_text = fmt::format(
      "Your JSON answer {} validation here:\n{}\nIts values there were: {}\n"
      "Reply with a JSON object holding only the corrected values{}, keyed by these paths: {}. "
      "Everything else stays as it was.",
      stopped_at ? "was stopped where it failed" : "failed", echoed_issues(issues), values,
      stopped_at ? " and the ones not written yet" : "", keys);
  return plan;
}

nlohmann::json value_read_until(std::string_view text, const Lowering& lowering,
                                const Path& stopped_at) {
  const Path stop(on_the_wire(lowering, stopped_at.segments()));
  JsonStreamReader reader(
      [&stop](const Path& path, const nlohmann::json&) { return path != stop; });
  reader.feed(text);
  return reader.value();
}

std::optional<nlohmann::json> merge_scoped_reply(const ScopedCorrection& plan,
                                                 nlohmann::json previous,
                                                 std::string_view patch_text,
                                                 std::string& problem) {
  auto parsed = parse_json(patch_text);
  if (!parsed.value || !parsed.value->is_object()) {
    problem = parsed.value ? "the reply is not a JSON object" : "the reply is not JSON";
    return std::nullopt;
  }
  const auto& patch = *parsed.value;
  for (auto entry = patch.begin(); entry != patch.end(); ++entry) {
    // A named key, not a structured binding: clang 14 (the fuzz build) refuses to capture one.
    const std::string& key = entry.key();
    const bool asked = std::any_of(plan.targets.begin(), plan.targets.end(),
                                   [&](const auto& target) { return target.key == key; });
    if (!asked) {
      problem = "the reply has the key \"" + one_line(key) + "\", which was not asked for";
      return std::nullopt;
    }
  }
  if (patch.empty()) {
    problem = "the reply holds none of the values asked for";
    return std::nullopt;
  }
  for (const auto& target : plan.targets) {
    const auto found = patch.find(target.key);
    if (found == patch.end()) continue;  // left as it was; validation says whether that holds
    nlohmann::json* at = &previous;
    for (std::size_t i = 0; i + 1 < target.wire_path.size(); ++i) {
      const auto& segment = target.wire_path[i];
      at = std::holds_alternative<std::string>(segment) ? &(*at)[std::get<std::string>(segment)]
                                                        : &(*at)[std::get<std::size_t>(segment)];
    }
    const auto& last = target.wire_path.back();
    if (const auto* name = std::get_if<std::string>(&last)) {
      (*at)[*name] = *found;
    } else {
      (*at)[std::get<std::size_t>(last)] = *found;
    }
  }
  return previous;
}

}  // namespace accord::detail
