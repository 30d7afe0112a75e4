// accord's declarative rules (`x-accord-rules`): cross-field conditions, parsed when the schema
// is compiled, checked on objects once the node's own keywords raised no aborting issue.

#include "schema/rule_checks.hpp"
#include "schema/rule_evaluation.hpp"
#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {

void compile_accord_rules(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                          const Path& at) {
  k.node().rules = parse_rules(value, k.schema, k.root_document(), at, k.problems());
}

bool Run::accord_rules(const Node& n, JsonView v, const Link* at) {
  bool ok = true;
  for (const auto& rule : n.rules) {
    if (rule_holds(rule, v, n.source, *d_.documents.front())) continue;
    const Path tail = issue_path(rule);
    ok = fail(
        IssueCode::custom, at, false, [&] { return rule.message; }, &tail);
    if (sink_ == nullptr) return false;
  }
  return ok;
}

}  // namespace accord::detail
