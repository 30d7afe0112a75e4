// matching_union_option: which option of a union a value is, judged by the Validator on each
// option's own schema (lower_value() fills absent optionals in that option only).
#include <charconv>
#include <map>
#include <mutex>

#include "accord/validate.hpp"
#include "schema/local_ref.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

// The non-null side of a nullable wrapper {"anyOf": [X, {"type": "null"}]} (either order), which
// a Report path steps through without a segment of its own.
const ojson* nullable_side(const ojson& node) {
  const auto options = node.find("anyOf");
  if (options == node.end() || !options->is_array() || options->size() != 2) return nullptr;
  const auto is_null = [](const ojson& o) { return o == ojson{{"type", "null"}}; };
  if (is_null((*options)[1])) return &(*options)[0];
  if (is_null((*options)[0])) return &(*options)[1];
  return nullptr;
}

// The member of `node` one Report path segment names, or nullptr.
const ojson* member(const ojson& node, const PathSegment& segment) {
  const auto child = [&node](const char* key) -> const ojson* {
    const auto it = node.find(key);
    return it == node.end() ? nullptr : &*it;
  };
  if (const auto* index = std::get_if<std::size_t>(&segment)) {
    for (const char* key : {"prefixItems", "items"}) {
      const ojson* positions = child(key);
      if (positions != nullptr && positions->is_array() && *index < positions->size()) {
        return &(*positions)[*index];
      }
    }
    return nullptr;
  }
  const auto& key = std::get<std::string>(segment);
  if (key == "[]") return child("items");
  if (key == "{}") return child("additionalProperties");
  std::size_t index = 0;
  const char* const end = key.data() + key.size();
  if (key.size() > 1 && key[0] == '|' &&
      std::from_chars(key.data() + 1, end, index) == std::from_chars_result{end, std::errc()}) {
    if (nullable_side(node) != nullptr) return nullptr;  // options sit inside the wrapper
    for (const char* union_key : {"anyOf", "oneOf"}) {
      const ojson* options = child(union_key);
      if (options != nullptr && options->is_array() && index < options->size()) {
        return &(*options)[index];
      }
    }
    return nullptr;
  }
  const ojson* properties = child("properties");
  if (properties == nullptr || !properties->is_object() || !properties->contains(key)) {
    return nullptr;
  }
  return &(*properties)[key];
}

// One step down a Report path: through refs, nullable wrappers and allOf branches, as the
// lowering and the Report walk them.
const ojson* step(const ojson* node, const PathSegment& segment, const ojson& root) {
  node = detail::resolve_local_ref(node, root);
  if (node == nullptr || !node->is_object()) return nullptr;
  if (const ojson* found = member(*node, segment)) return found;
  if (const ojson* inner = nullable_side(*node)) return step(inner, segment, root);
  if (const auto all = node->find("allOf"); all != node->end() && all->is_array()) {
    for (const auto& branch : *all) {
      if (const ojson* found = step(&branch, segment, root)) return found;
    }
  }
  return nullptr;
}

// The options of the union at `site`, or nullptr.
const ojson* union_at(const ojson& root, const Path& site) {
  const ojson* at = &root;
  for (const auto& segment : site.segments()) {
    at = step(at, segment, root);
    if (at == nullptr) return nullptr;
  }
  at = detail::resolve_local_ref(at, root);
  if (at == nullptr || !at->is_object()) return nullptr;
  if (const ojson* inner = nullable_side(*at)) {
    at = detail::resolve_local_ref(inner, root);
    if (at == nullptr || !at->is_object()) return nullptr;
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    if (const auto options = at->find(key); options != at->end() && options->is_array()) {
      return &*options;
    }
  }
  return nullptr;
}

// An option as a document of its own: the root's dialect and definitions come along, so its
// local refs resolve as they did.
ojson option_document(const ojson& option, const ojson& root) {
  ojson out = option.is_boolean()
                  ? (option.get<bool>() ? ojson::object() : ojson{{"not", ojson::object()}})
                  : option;
  if (!out.is_object()) return out;
  for (const char* key : {"$schema", "$defs", "definitions"}) {
    if (root.contains(key) && !out.contains(key)) out[key] = root[key];
  }
  return out;
}

struct Judge {
  ojson root;
  ValidatorOptions options;
  std::mutex mutex;
  // Per union site: each option's Validator (nullopt for an option accord cannot compile).
  std::map<std::string, std::vector<std::optional<Validator>>> compiled;

  const std::vector<std::optional<Validator>>* validators(const Path& site) {
    const std::string key = site.to_pointer();
    if (const auto found = compiled.find(key); found != compiled.end()) return &found->second;
    const ojson* options = union_at(root, site);
    if (options == nullptr) return nullptr;
    std::vector<std::optional<Validator>> out;
    for (const auto& option : *options) {
      try {
        out.emplace_back(Validator::from_json_schema(option_document(option, root), this->options));
      } catch (const SchemaError&) {
        out.emplace_back(std::nullopt);
      }
    }
    return &compiled.emplace(key, std::move(out)).first->second;
  }
};

}  // namespace

std::function<std::optional<std::size_t>(const nlohmann::json& value, const Path& site)>
matching_union_option(const nlohmann::ordered_json& json_schema, const ValidatorOptions& options) {
  auto judge = std::make_shared<Judge>();
  judge->root = json_schema;
  judge->options = options;
  return [judge](const nlohmann::json& value, const Path& site) -> std::optional<std::size_t> {
    const std::lock_guard lock(judge->mutex);
    const auto* validators = judge->validators(site);
    if (validators == nullptr) return std::nullopt;
    for (std::size_t i = 0; i < validators->size(); ++i) {
      if ((*validators)[i] && (*validators)[i]->validate(value).empty()) return i;
    }
    return std::nullopt;
  };
}

}  // namespace accord
