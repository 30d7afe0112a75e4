#include "accord/schema_order.hpp"

#include <set>
#include <string>
#include <vector>

#include "schema/local_ref.hpp"

namespace accord {
namespace {

using ojson = nlohmann::ordered_json;

// Branches deeper than this are not looked into: an order hint is not worth an unbounded walk.
constexpr int kMaxBranchDepth = 8;

// `schema` and the branches that may also name a value's members (allOf, anyOf, oneOf, then,
// else), each with its local `$ref`s followed; a ref that leads nowhere adds nothing.
void with_branches(const ojson& root, const ojson* schema, std::vector<const ojson*>& out,
                   int depth = 0) {
  schema = detail::resolve_local_ref(schema, root);
  if (schema == nullptr || !schema->is_object() || depth > kMaxBranchDepth) return;
  out.push_back(schema);
  for (const char* keyword : {"allOf", "anyOf", "oneOf"}) {
    const auto branches = schema->find(keyword);
    if (branches == schema->end() || !branches->is_array()) continue;
    for (const auto& branch : *branches) with_branches(root, &branch, out, depth + 1);
  }
  for (const char* keyword : {"then", "else"}) {
    if (const auto branch = schema->find(keyword); branch != schema->end())
      with_branches(root, &*branch, out, depth + 1);
  }
}

// The schema of `key` in an object judged by `schemas`, or nullptr when none names it.
const ojson* member_schema(const std::vector<const ojson*>& schemas, const std::string& key) {
  for (const auto* schema : schemas) {
    const auto properties = schema->find("properties");
    if (properties == schema->end() || !properties->is_object()) continue;
    if (const auto found = properties->find(key); found != properties->end()) return &*found;
  }
  for (const auto* schema : schemas) {
    const auto rest = schema->find("additionalProperties");
    if (rest != schema->end() && rest->is_object()) return &*rest;
  }
  return nullptr;
}

// The schema of item `index` of an array judged by `schemas`, or nullptr.
const ojson* item_schema(const std::vector<const ojson*>& schemas, std::size_t index) {
  for (const auto* schema : schemas) {
    const auto prefix = schema->find("prefixItems");
    if (prefix != schema->end() && prefix->is_array() && index < prefix->size())
      return &(*prefix)[index];
    if (const auto items = schema->find("items"); items != schema->end()) return &*items;
  }
  return nullptr;
}

ojson ordered(const nlohmann::json& value, const ojson& root, const ojson* schema) {
  std::vector<const ojson*> schemas;
  with_branches(root, schema, schemas);
  if (value.is_object()) {
    ojson out = ojson::object();
    // Appended, not set with operator[], which searches every earlier key (n^2 for a big map).
    auto& members = out.get_ref<ojson::object_t&>();
    std::set<std::string> placed;
    auto place = [&](const std::string& key) {
      if (!placed.insert(key).second) return;
      members.emplace_back(key, ordered(value.at(key), root, member_schema(schemas, key)));
    };
    for (const auto* each : schemas) {
      const auto properties = each->find("properties");
      if (properties == each->end() || !properties->is_object()) continue;
      for (const auto& [key, ignored] : properties->items()) {
        if (value.contains(key)) place(key);
      }
    }
    for (const auto& [key, ignored] : value.items()) place(key);
    return out;
  }
  if (value.is_array()) {
    ojson out = ojson::array();
    for (std::size_t i = 0; i < value.size(); ++i)
      out.push_back(ordered(value[i], root, item_schema(schemas, i)));
    return out;
  }
  return value;
}

}  // namespace

nlohmann::ordered_json in_schema_order(const nlohmann::json& value,
                                       const nlohmann::ordered_json& json_schema) {
  return ordered(value, json_schema, &json_schema);
}

}  // namespace accord
