// accord's declarative rules (`x-accord-rules`): cross-field conditions, parsed when the schema
// is compiled, checked on objects once the node's own keywords raised no aborting issue.

#include "schema/rule_checks.hpp"
#include "schema/rule_evaluation.hpp"
#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {

void compile_accord_rules(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                          const Path& at) {
  // Each rule's field paths and their defaults are looked up here, once.
  for (auto& rule : parse_rules(value, k.schema, k.root_document(), at, k.problems())) {
    k.node().rules.emplace_back(std::move(rule), &k.schema, k.root_document());
  }
}

bool Run::accord_rules(const Node& n, JsonView v, const Link* at,
                       const MemberValues& property_values) {
  const MemberValues* found = property_values.filled() ? &property_values : nullptr;
  bool ok = true;
  for (const auto& rule : n.rules) {
    if (rule.holds(v, found)) continue;
    ok = fail(
        IssueCode::custom, at, false, [&] { return rule.rule().message; }, &rule.issue_path());
    if (sink_ == nullptr) return false;
  }
  return ok;
}

}  // namespace accord::detail
