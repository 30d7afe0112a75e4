// `unevaluatedItems` and `unevaluatedProperties`: what the node's in-place applicators did not
// evaluate (a node with either keyword tracks that as its applicators run).

#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {

void compile_unevaluated(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at) {
  const NodeId target = k.sub(value, at);
  (key == "unevaluatedItems" ? k.node().unevaluated_items : k.node().unevaluated_properties) =
      target;
  k.node().tracks = true;
}

bool Run::unevaluated(const Node& n, const json& v, const Link* at, Seen& seen) {
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

}  // namespace accord::detail
