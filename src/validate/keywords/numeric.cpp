// Numbers: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (compared exactly,
// whatever the number's kind; draft-04's boolean form too) and `multipleOf`.

#include <algorithm>
#include <optional>

#include "core/json_number.hpp"
#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"
#include "validate/quick_bounds.hpp"

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

namespace {

// 2^53: every integer up to it in magnitude is a double exactly.
constexpr std::uint64_t kExactInDouble = std::uint64_t{1} << 53;

// The number as a double when that is exact (then comparing doubles orders it as
// compare_numbers does), else nullopt.
std::optional<double> exact_double(const NumberValue& number) {
  switch (number.kind) {
    case JsonType::number_float:
      return number.real;
    case JsonType::number_unsigned:
      if (number.bits > kExactInDouble) return std::nullopt;
      return static_cast<double>(number.bits);
    default: {
      const auto value = static_cast<std::int64_t>(number.bits);
      if (value < -static_cast<std::int64_t>(kExactInDouble)) return std::nullopt;
      if (value > static_cast<std::int64_t>(kExactInDouble)) return std::nullopt;
      return static_cast<double>(value);
    }
  }
}

}  // namespace

void mark_quick_number_bounds(Node& node) {
  const bool bounds_only = std::all_of(node.units.begin(), node.units.end(), [](Unit unit) {
    return unit == Unit::minimum || unit == Unit::maximum || unit == Unit::exclusive_minimum ||
           unit == Unit::exclusive_maximum;
  });
  if (!bounds_only) return;
  // A bound left unread (null) checks nothing: its double stays infinite. (Doubles set before a
  // bound that is not exact are never read: the node then gets no QuickBounds.)
  const auto exact = [](const json& bound, const NumberValue& number, double& quick) {
    if (bound.is_null()) return true;
    const auto value = exact_double(number);
    if (value) quick = *value;
    return value.has_value();
  };
  if (exact(node.minimum, node.minimum_number, node.quick_minimum) &&
      exact(node.maximum, node.maximum_number, node.quick_maximum) &&
      exact(node.exclusive_minimum, node.exclusive_minimum_number, node.quick_exclusive_minimum) &&
      exact(node.exclusive_maximum, node.exclusive_maximum_number, node.quick_exclusive_maximum)) {
    node.quick_bounds = QuickBounds::number;
  }
}

bool number_within_bounds(const Node& n, JsonView v) {
  const auto value = exact_double(number_of(v));
  return value && *value >= n.quick_minimum && *value <= n.quick_maximum &&
         *value > n.quick_exclusive_minimum && *value < n.quick_exclusive_maximum;
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
