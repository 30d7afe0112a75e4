// References: `$ref`, `$dynamicRef`, `$recursiveRef` and the definitions they point into. A
// reference is resolved once everything is compiled (validate/compiler.cpp); a `$dynamicRef`
// whose target carries the same `$dynamicAnchor` (a `$recursiveRef` whose target is marked
// `$recursiveAnchor`) is resolved again per run, through the dynamic scope.

#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {

void compile_ref(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at) {
  k.reference(value, at, key, RefKind::plain);
  // Before 2019-09 the keywords beside `$ref` are ignored, unless the caller asked to apply them
  // as ajv does; either way the ones that would check something are listed for the caller to say.
  if (!value.is_string() || !before_2019(k.draft)) return;
  k.node().ref_only = !k.options().apply_ref_siblings;
  for (const auto& [name, sibling] : k.schema.items()) {
    if (name == key || !k.reads(name)) continue;
    const KeywordRow* row = keyword_row(name);
    if (row->compile == nullptr || row->compile == compile_definitions) continue;
    k.beside_ref().push_back(k.path / name);
  }
}

// `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09).
void compile_dynamic_ref(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at) {
  k.reference(value, at, key, key == "$recursiveRef" ? RefKind::recursive : RefKind::dynamic);
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
