#include "schema/rule_wording.hpp"

namespace accord::detail {

std::string rule_sentence(const Rule& rule) {
  std::string formal =
      rule.condition ? "when " + to_string(*rule.condition) + ", " + to_string(rule.requirement)
                     : to_string(rule.requirement);
  // The user's words first: they say what the rule means, the formula says exactly what holds.
  if (rule.text.empty()) return "Rule: " + formal + ".";
  return "Rule: " + rule.text + " (" + formal + ").";
}

std::string rule_report_text(const Rule& rule) {
  return "rule " + to_string(rule);
}

std::string rule_why(const Rule& rule) {
  if (rule.requirement.right.is_field() || (rule.condition && rule.condition->right.is_field())) {
    return "no JSON Schema keyword compares two fields; stated in the description, enforced "
           "locally";
  }
  return "stated in the description, enforced locally; providers that can enforce it get "
         "keywords when the schema is lowered";
}

std::string operand_text(const Operand& operand) {
  return operand.is_field() ? operand.field_path() : operand.literal().dump();
}

}  // namespace accord::detail
