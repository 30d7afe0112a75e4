#pragma once
// The words a declarative rule becomes: the sentence in the object's description, the Report's
// rule text and the reason for its fate.

#include <string>

#include "accord/rules.hpp"

namespace accord::detail {

// The sentence for the description ("Rule: refundDate >= orderDate."), the Report's rule text
// ("rule refundDate >= orderDate") and emit's reason for the fate.
[[nodiscard]] std::string rule_sentence(const Rule& rule);
[[nodiscard]] std::string rule_report_text(const Rule& rule);
[[nodiscard]] std::string rule_why(const Rule& rule);

// One side of a comparison as the rule's text writes it: the field path, or the literal as JSON.
[[nodiscard]] std::string operand_text(const Operand& operand);

}  // namespace accord::detail
