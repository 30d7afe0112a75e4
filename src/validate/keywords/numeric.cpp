// Numbers: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (compared exactly,
// whatever the number's kind; draft-04's boolean form too) and `multipleOf`.

#include "core/json_number.hpp"
#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {

// draft-04 writes an exclusive bound as a boolean beside `minimum`/`maximum`; later drafts as a
// number of its own. Either way the node gets the same four bounds.
void compile_bound(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at) {
  const bool lower = key == "minimum" || key == "exclusiveMinimum";
  bool exclusive = key.starts_with("exclusive");
  if (k.draft == Draft::draft4) {
    if (exclusive) {
      if (!value.is_boolean()) k.problem(at, key + " must be a boolean in draft-04");
      return;  // read beside its bound
    }
    const auto flag = k.schema.find(lower ? "exclusiveMinimum" : "exclusiveMaximum");
    exclusive = flag != k.schema.end() && *flag == true;
  }
  json bound = k.number(value, at, key);
  Node& node = k.node();
  const NumberValue number = bound.is_number() ? number_of(bound) : NumberValue{};
  if (lower) {
    (exclusive ? node.exclusive_minimum : node.minimum) = std::move(bound);
    (exclusive ? node.exclusive_minimum_number : node.minimum_number) = number;
    k.add_unit(exclusive ? Unit::exclusive_minimum : Unit::minimum);
  } else {
    (exclusive ? node.exclusive_maximum : node.maximum) = std::move(bound);
    (exclusive ? node.exclusive_maximum_number : node.maximum_number) = number;
    k.add_unit(exclusive ? Unit::exclusive_maximum : Unit::maximum);
  }
}

void compile_multiple_of(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                         const Path& at) {
  if (!value.is_number() || value.get<double>() <= 0) {
    k.problem(at, "multipleOf must be a number above 0");
    return;
  }
  k.node().multiple_of = json::parse(value.dump());
  k.add_unit(Unit::multiple_of);
}

bool Run::number_unit(Unit unit, const Node& n, JsonView v, const NumberValue& value,
                      const Link* at) {
  switch (unit) {
    case Unit::exclusive_minimum:
      if (n.exclusive_minimum.is_null() || compare_numbers(value, n.exclusive_minimum_number) > 0) {
        return true;
      }
      return fail(IssueCode::too_small, at, false, [&] {
        return "Too small: expected number to be >" + js_number(n.exclusive_minimum);
      });
    case Unit::minimum:
      if (n.minimum.is_null() || compare_numbers(value, n.minimum_number) >= 0) return true;
      return fail(IssueCode::too_small, at, false,
                  [&] { return "Too small: expected number to be >=" + js_number(n.minimum); });
    case Unit::exclusive_maximum:
      if (n.exclusive_maximum.is_null() || compare_numbers(value, n.exclusive_maximum_number) < 0) {
        return true;
      }
      return fail(IssueCode::too_big, at, false, [&] {
        return "Too big: expected number to be <" + js_number(n.exclusive_maximum);
      });
    case Unit::maximum:
      if (n.maximum.is_null() || compare_numbers(value, n.maximum_number) <= 0) return true;
      return fail(IssueCode::too_big, at, false,
                  [&] { return "Too big: expected number to be <=" + js_number(n.maximum); });
    case Unit::multiple_of:
      if (n.multiple_of.is_null() || is_multiple_of(v, n.multiple_of)) return true;
      return fail(IssueCode::not_multiple_of, at, false, [&] {
        return "Invalid number: must be a multiple of " + js_number(n.multiple_of);
      });
    default:
      return true;
  }
}

}  // namespace accord::detail
