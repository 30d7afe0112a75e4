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

bool Run::unevaluated(const Node& n, JsonView v, const Link* at, Seen& seen) {
  bool ok = true;
  if (n.unevaluated_items != kNone && v.is_array()) {
    std::size_t i = 0;
    for (JsonView value : v.items()) {
      if (seen.has_item(i)) {
        ++i;
        continue;
      }
      const Link item = Link::item(at, i++);
      ok = node(n.unevaluated_items, &value, &item, nullptr, nullptr) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
    seen.all_items = true;
  }
  if (n.unevaluated_properties != kNone && v.is_object()) {
    const Node& rest = d_.nodes[n.unevaluated_properties];
    ExtraKeys extra;
    for (const JsonMember& member : v.members()) {
      if (seen.has_property(member.value)) continue;
      if (rest.boolean && !rest.allows) {
        if (sink_ == nullptr) return false;
        extra.add(member.key);
        continue;
      }
      const Link field = Link::field(at, member.key);
      ok = node(n.unevaluated_properties, &member.value, &field, nullptr, nullptr) && ok;
      if (!ok && sink_ == nullptr) return false;
    }
    if (extra.count > 0) ok = unrecognized(extra, at);
    seen.all_properties = true;
  }
  return ok;
}

}  // namespace accord::detail
