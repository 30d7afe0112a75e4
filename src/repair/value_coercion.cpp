#include "repair/value_coercion.hpp"

#include <cmath>

#include "core/ascii.hpp"
#include "core/json_types.hpp"
#include "repair/json_slips.hpp"
#include "schema/local_ref.hpp"

namespace accord::repair {
namespace {

using namespace detail;  // the type bits (kNull ... kInteger, kAnyType)
using nlohmann::json;
using nlohmann::ordered_json;

// Schemas nest unions in unions rarely and shallowly; past this the type is taken as unknown.
constexpr int kMaxUnionDepth = 16;

// An unknown type name says nothing this walk can use.
constexpr unsigned any_if_none(unsigned bit) {
  return bit == 0 ? kAnyType : bit;
}

// Every type bit `value` matches (an integral number is a "number" and an "integer").
unsigned types_of(const ordered_json& value) {
  const json plain = value;
  unsigned out = 0;
  for (unsigned bit = kNull; bit <= kInteger; bit <<= 1)
    if (type_matches(bit, plain)) out |= bit;
  return out;
}

// "42.50", "-1e3": JSON's number grammar exactly, nothing around it.
bool json_number_text(std::string_view text) {
  std::size_t at = 0;
  const auto digits = [&] {
    const auto start = at;
    while (at < text.size() && detail::ascii_digit(text[at])) ++at;
    return at > start;
  };
  if (at < text.size() && text[at] == '-') ++at;
  if (at < text.size() && text[at] == '0') {
    ++at;
  } else if (!digits()) {
    return false;
  }
  if (at < text.size() && text[at] == '.') {
    ++at;
    if (!digits()) return false;
  }
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
    if (!digits()) return false;
  }
  return at == text.size();
}

// A double keeps 15 significant decimal digits whatever their exponent; more are not kept.
bool exact_as_parsed(std::string_view text, const json& parsed) {
  if (!parsed.is_number_float()) return true;
  int significant = 0;
  bool leading = true;
  for (const char c : text) {
    if (c == 'e' || c == 'E') break;
    if (!detail::ascii_digit(c)) continue;
    if (leading && c == '0') continue;
    leading = false;
    ++significant;
  }
  return significant <= 15;
}

// "orderId", "order_id", "Order-ID" alike.
std::string key_shape(std::string_view key) {
  std::string out = detail::ascii_lower(key);
  std::erase_if(out, [](char c) { return c == '_' || c == '-'; });
  return out;
}

class Coercer {
 public:
  Coercer(const ordered_json& root, RepairPolicy policy) : root_(root), policy_(policy) {}

  // The one schema that applies at `path` below `schema`, or nullptr.
  const ordered_json* schema_at(const ordered_json* schema, const Path& path) const {
    for (const auto& segment : path.segments()) {
      schema = resolved(schema);
      if (schema == nullptr) return nullptr;
      const bool key = std::holds_alternative<std::string>(segment);
      const auto candidates = applying(*schema, key ? kObject : kArray);
      const ordered_json* next = nullptr;
      for (const auto* applies : candidates) {
        const auto* found = key ? member_schema(*applies, std::get<std::string>(segment))
                                : item_schema(*applies, std::get<std::size_t>(segment));
        if (found == nullptr) continue;
        if (next != nullptr) return nullptr;  // two schemas apply: not one reading
        next = found;
      }
      if (next == nullptr) return nullptr;
      schema = next;
    }
    return schema;
  }

  void walk(json& value, const ordered_json* schema, const Path& path) {
    schema = resolved(schema);
    if (schema == nullptr) return;
    const unsigned allowed = types(*schema, 0);
    if (allowed != kAnyType && !type_matches(allowed, value)) coerce_type(value, allowed, path);
    if (value.is_string()) match_enum_case(value, *schema, path);
    if (value.is_object()) {
      for (const auto* applies : applying(*schema, kObject)) walk_members(value, *applies, path);
    } else if (value.is_array()) {
      for (const auto* applies : applying(*schema, kArray)) walk_items(value, *applies, path);
    }
  }

  // Where this policy may repair a value of `schema` at `path`, in schema order: the scalar and
  // enum repairs the node's types leave one reading for, then its properties' and items'.
  // `open` holds the schemas being surveyed, so a recursive $ref is surveyed once.
  void survey(const ordered_json* schema, const Path& path, std::vector<RepairAllowance>& out,
              std::vector<const ordered_json*>& open) const {
    schema = resolved(schema);
    if (schema == nullptr || std::find(open.begin(), open.end(), schema) != open.end()) return;
    open.push_back(schema);
    const unsigned allowed = types(*schema, 0);
    const auto add = [&](RepairKind kind, bool applies) {
      if (applies && allows(kind)) out.push_back({path, kind});
    };
    if (allowed != kAnyType) {
      const bool text = (allowed & kString) != 0;
      add(RepairKind::number_from_string, (allowed & (kNumber | kInteger)) != 0 && !text);
      add(RepairKind::boolean_from_string, (allowed & kBoolean) != 0 && !text);
      add(RepairKind::string_from_number, text && (allowed & kNumber) == 0);
      add(RepairKind::wrapped_in_array, (allowed & kArray) != 0);
    }
    std::vector<std::string> listed;
    collect_options(*schema, listed, 0);
    add(RepairKind::enum_letter_case, !listed.empty());
    for (const auto* applies : applying(*schema, kObject)) {
      const auto properties = applies->find("properties");
      if (properties == applies->end() || !properties->is_object()) continue;
      add(RepairKind::key_letter_case, !properties->empty());
      for (const auto& [key, member] : properties->items()) survey(&member, path / key, out, open);
    }
    for (const auto* applies : applying(*schema, kArray)) {
      const auto items = applies->find("items");
      if (items != applies->end() && items->is_object())
        survey(&*items, path / std::string("[]"), out, open);
    }
    open.pop_back();
  }

  Repairs repairs;

 private:
  const ordered_json* resolved(const ordered_json* schema) const {
    schema = detail::resolve_local_ref(schema, root_);
    return schema != nullptr && schema->is_object() ? schema : nullptr;
  }

  // The options of the schema's anyOf and oneOf, resolved.
  std::vector<const ordered_json*> options(const ordered_json& schema) const {
    std::vector<const ordered_json*> out;
    for (const char* keyword : {"anyOf", "oneOf"}) {
      const auto it = schema.find(keyword);
      if (it == schema.end() || !it->is_array()) continue;
      for (const auto& option : *it) out.push_back(resolved(&option));
    }
    return out;
  }

  unsigned types(const ordered_json& schema, int depth) const {
    if (depth > kMaxUnionDepth) return kAnyType;
    unsigned out = kAnyType;
    if (const auto it = schema.find("type"); it != schema.end()) {
      unsigned listed = 0;
      if (it->is_string()) listed = any_if_none(type_named(it->get<std::string>()));
      if (it->is_array())
        for (const auto& name : *it)
          listed |= name.is_string() ? any_if_none(type_named(name.get<std::string>())) : kAnyType;
      out &= listed;
    }
    if (const auto it = schema.find("const"); it != schema.end()) out &= types_of(*it);
    if (const auto it = schema.find("enum"); it != schema.end() && it->is_array()) {
      unsigned listed = 0;
      for (const auto& option : *it) listed |= types_of(option);
      out &= listed;
    }
    const auto union_options = options(schema);
    if (!union_options.empty()) {
      unsigned listed = 0;
      for (const auto* option : union_options)
        listed |= option == nullptr ? kAnyType : types(*option, depth + 1);
      out &= listed;
    }
    if (const auto it = schema.find("allOf"); it != schema.end() && it->is_array())
      for (const auto& part : *it)
        if (const auto* member = resolved(&part)) out &= types(*member, depth + 1);
    return out;
  }

  // The schemas whose object or array keywords apply to a value of type `kind`: the schema, its
  // allOf members, and the one union option that admits the kind (none when several do: which
  // one the model meant is not known).
  std::vector<const ordered_json*> applying(const ordered_json& schema, unsigned kind) const {
    std::vector<const ordered_json*> out{&schema};
    if (const auto it = schema.find("allOf"); it != schema.end() && it->is_array())
      for (const auto& part : *it)
        if (const auto* member = resolved(&part)) out.push_back(member);
    const ordered_json* only = nullptr;
    int admitting = 0;
    for (const auto* option : options(schema)) {
      if (option == nullptr || (types(*option, 0) & kind) == 0) continue;
      only = option;
      ++admitting;
    }
    if (admitting == 1) out.push_back(only);
    return out;
  }

  void record(RepairKind kind, const Path& path, const json& before, const json& after) {
    repairs.push_back({kind, path, shortened(before.dump()), shortened(after.dump())});
  }

  bool allows(RepairKind kind) const {
    return policy_ == RepairPolicy::lenient ||
           (policy_ == RepairPolicy::lossless && lossless(kind));
  }

  void coerce_type(json& value, unsigned allowed, const Path& path) {
    if (value.is_string()) {
      const std::string& text = value.get_ref<const std::string&>();
      const bool lenient = policy_ == RepairPolicy::lenient;
      const std::string_view reading = lenient ? detail::trim_blanks(text) : std::string_view(text);
      if ((allowed & (kNumber | kInteger)) != 0 && allows(RepairKind::number_from_string) &&
          json_number_text(reading)) {
        json number = json::parse(reading, nullptr, false);
        if (!number.is_discarded() && exact_as_parsed(reading, number) &&
            type_matches(allowed, number)) {
          record(RepairKind::number_from_string, path, value, number);
          value = std::move(number);
          return;
        }
      }
      if ((allowed & kBoolean) != 0 && allows(RepairKind::boolean_from_string) &&
          (reading == "true" || reading == "false")) {
        const json flag = reading == "true";
        record(RepairKind::boolean_from_string, path, value, flag);
        value = flag;
        return;
      }
    }
    if ((allowed & kString) != 0 && value.is_number() && allows(RepairKind::string_from_number)) {
      const json text = value.dump();
      record(RepairKind::string_from_number, path, value, text);
      value = text;
      return;
    }
    // null may mean "none" as well as "one null": no single reading.
    if ((allowed & kArray) != 0 && !value.is_null() && allows(RepairKind::wrapped_in_array)) {
      json wrapped = json::array({value});
      record(RepairKind::wrapped_in_array, path, value, wrapped);
      value = std::move(wrapped);
    }
  }

  // The string options the schema (or its union's options) lists.
  void collect_options(const ordered_json& schema, std::vector<std::string>& out, int depth) const {
    if (depth > kMaxUnionDepth) return;
    if (const auto it = schema.find("const"); it != schema.end() && it->is_string())
      out.push_back(it->get<std::string>());
    if (const auto it = schema.find("enum"); it != schema.end() && it->is_array())
      for (const auto& option : *it)
        if (option.is_string()) out.push_back(option.get<std::string>());
    for (const auto* option : options(schema))
      if (option != nullptr) collect_options(*option, out, depth + 1);
  }

  void match_enum_case(json& value, const ordered_json& schema, const Path& path) {
    if (!allows(RepairKind::enum_letter_case)) return;
    std::vector<std::string> listed;
    collect_options(schema, listed, 0);
    if (listed.empty()) return;
    const auto& text = value.get_ref<const std::string&>();
    if (std::find(listed.begin(), listed.end(), text) != listed.end()) return;
    const auto key = detail::ascii_lower(text);
    const std::string* match = nullptr;
    for (const auto& option : listed) {
      if (detail::ascii_lower(option) != key) continue;
      if (match != nullptr && *match != option) return;  // two options differ only in case
      match = &option;
    }
    if (match == nullptr) return;
    const json after = *match;
    record(RepairKind::enum_letter_case, path, value, after);
    value = after;
  }

  static const ordered_json* member_schema(const ordered_json& schema, const std::string& key) {
    const auto properties = schema.find("properties");
    if (properties != schema.end() && properties->is_object() && properties->contains(key))
      return &(*properties)[key];
    const auto additional = schema.find("additionalProperties");
    if (additional != schema.end() && additional->is_object()) return &*additional;
    return nullptr;
  }

  static const ordered_json* item_schema(const ordered_json& schema, std::size_t index) {
    std::size_t tuple = 0;
    for (const char* keyword : {"prefixItems", "items"}) {
      const auto it = schema.find(keyword);
      if (it == schema.end()) continue;
      if (it->is_array()) {
        if (index < it->size()) return &(*it)[index];
        tuple = it->size();
      } else if (std::string_view(keyword) == "items" && index >= tuple) {
        return &*it;
      }
    }
    return nullptr;
  }

  void walk_members(json& value, const ordered_json& schema, const Path& path) {
    const auto properties = schema.find("properties");
    if (properties != schema.end() && properties->is_object() &&
        allows(RepairKind::key_letter_case))
      rename_keys(value, *properties, path);
    for (auto& [key, member] : value.items())
      if (const auto* found = member_schema(schema, key)) walk(member, found, path / key);
  }

  // A key the schema does not name renamed to the one property of the same shape, when that
  // property is not also sent.
  void rename_keys(json& value, const ordered_json& properties, const Path& path) {
    std::vector<std::string> keys;
    for (const auto& [key, member] : value.items()) keys.push_back(key);
    for (const auto& key : keys) {
      if (properties.contains(key)) continue;
      const std::string* match = nullptr;
      int matches = 0;
      for (const auto& [name, property] : properties.items()) {
        if (key_shape(name) != key_shape(key)) continue;
        match = &name;
        ++matches;
      }
      if (matches != 1 || value.contains(*match)) continue;
      repairs.push_back({RepairKind::key_letter_case, path / key, key, *match});
      value[*match] = std::move(value[key]);
      value.erase(key);
    }
  }

  void walk_items(json& value, const ordered_json& schema, const Path& path) {
    for (std::size_t i = 0; i < value.size(); ++i)
      if (const auto* found = item_schema(schema, i)) walk(value[i], found, path / i);
  }

  const ordered_json& root_;
  RepairPolicy policy_;
};

}  // namespace

Repairs coerce_value(json& value, const ordered_json& json_schema, RepairPolicy policy) {
  if (policy == RepairPolicy::off) return {};
  Coercer coercer(json_schema, policy);
  coercer.walk(value, &json_schema, Path{});
  return std::move(coercer.repairs);
}

std::vector<RepairAllowance> allowed_repairs(const ordered_json& json_schema, RepairPolicy policy) {
  if (policy == RepairPolicy::off) return {};
  const Coercer coercer(json_schema, policy);
  std::vector<RepairAllowance> out;
  std::vector<const ordered_json*> open;
  coercer.survey(&json_schema, Path{}, out, open);
  return out;
}

Repairs coerce_part(json& part, const ordered_json& json_schema, const Path& path,
                    RepairPolicy policy) {
  if (policy == RepairPolicy::off) return {};
  Coercer coercer(json_schema, policy);
  if (const auto* schema = coercer.schema_at(&json_schema, path)) coercer.walk(part, schema, path);
  return std::move(coercer.repairs);
}

}  // namespace accord::repair
