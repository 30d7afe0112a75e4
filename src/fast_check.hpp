#pragma once
// The fast check: the compiled JSON Schema turned into a small tree of plain checks that judges a
// value directly, without valijson's adapters or the explainer, for the common case of a valid
// value. It mirrors valijson's verdict keyword by keyword (numbers read as validate() hands them
// to valijson) and runs the DSL's refinements where the explainer runs them. It only ever says
// "valid" when the reference path (valijson + explainer) would find no issue; anything else, and
// every issue message, is left to the reference path. Schemas using keywords it does not cover
// ($ref, not, if/then/else, tuples, uniqueItems, numeric enums, refinements inside unions, ...)
// get no fast check at all. Declarative rules (x-accord-rules) are judged as the explainer does.

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "accord/schema.hpp"
#include "compiled_schema.hpp"

namespace accord::detail {

class FastCheck {
 public:
  enum class Verdict { valid, invalid, unsure };

  // nullptr when the schema uses something the fast check does not cover. `dsl` may be null.
  [[nodiscard]] static std::shared_ptr<const FastCheck> compile(const CompiledSchema& compiled,
                                                                const SchemaNode* dsl);

  // valid: the reference path finds no issue. invalid: valijson rejects the value (the reference
  // path words why). unsure: too deep, a refinement failed or threw, or a union it cannot decide.
  [[nodiscard]] Verdict judge(const nlohmann::json& value) const;
  [[nodiscard]] bool accepts(const nlohmann::json& value) const {
    return judge(value) == Verdict::valid;
  }

  struct Node;
  FastCheck();
  ~FastCheck();
  FastCheck(const FastCheck&) = delete;
  FastCheck& operator=(const FastCheck&) = delete;

 private:
  std::vector<Node> nodes_;  // nodes_[0] is the root
  friend class FastCheckCompiler;
  friend class FastCheckRun;
};

}  // namespace accord::detail
