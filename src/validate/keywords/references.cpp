// References: `$ref`, `$dynamicRef` and the definitions they point into. A reference is
// resolved once everything is compiled (validate/compiler.cpp); a `$dynamicRef` whose target
// carries the same `$dynamicAnchor` is resolved again per run, through the dynamic scope.

#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {

void compile_ref(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at) {
  k.reference(value, at, key, false);
  // draft-07: keywords beside `$ref` are ignored.
  if (value.is_string()) k.node().ref_only = k.draft == Draft::draft7;
}

void compile_dynamic_ref(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at) {
  k.reference(value, at, key, true);
}

// `$defs` and `definitions`: compiled so references into them land on compiled nodes.
void compile_definitions(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at) {
  (void)k.map(value, key, at);
}

NodeId Run::dynamic_target(const Node& n) const {
  if (n.dynamic_anchor.empty()) return n.dynamic_ref;
  for (const std::uint32_t resource : scope_) {
    const auto& anchors = d_.resources[resource].dynamic_nodes;
    if (auto it = anchors.find(n.dynamic_anchor); it != anchors.end()) return it->second;
  }
  return n.dynamic_ref;
}

}  // namespace accord::detail
