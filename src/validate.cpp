#include "accord/validate.hpp"

#include <cmath>
#include <limits>

#include "explain.hpp"
#include "rules_detail.hpp"
#include "validator_impl.hpp"

namespace accord {
namespace {

using nlohmann::json;

// validate() takes values built by code too; copying or comparing a value much deeper than this
// would overflow the stack in nlohmann and valijson, so it is refused before anything else
// recurses into it.
constexpr std::size_t kMaxValueDepth = 1000;

struct Scan {
  bool too_deep = false;
  bool numbers_to_fix = false;
};

// valijson misreads numbers above INT64_MAX as negative and calls 1.0 "not an integer";
// it is handed a copy with those numbers written the way it reads correctly.
bool needs_number_fix(const json& number) {
  if (number.is_number_unsigned()) {
    return number.get<std::uint64_t>() >
           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  }
  if (number.is_number_float()) {
    const double d = number.get<double>();
    return std::trunc(d) == d && std::fabs(d) < 9.2e18;
  }
  return false;
}

// One pass for both questions. Recursion is bounded: it stops descending past the limit.
void scan(const json& value, std::size_t depth, Scan& out) {
  if (value.is_structured()) {
    if (depth >= kMaxValueDepth) {
      out.too_deep = true;
      return;
    }
    for (const auto& child : value) {
      scan(child, depth + 1, out);
      if (out.too_deep) return;
    }
  } else if (value.is_number() && needs_number_fix(value)) {
    out.numbers_to_fix = true;
  }
}

void fix_numbers(json& value) {
  if (value.is_structured()) {
    for (auto& child : value) fix_numbers(child);
  } else if (value.is_number() && needs_number_fix(value)) {
    if (value.is_number_unsigned()) {
      value = static_cast<double>(value.get<std::uint64_t>());
    } else {
      value = static_cast<std::int64_t>(value.get<double>());
    }
  }
}

Path to_path(const json& value, const std::vector<std::string>& segments) {
  Path path;
  const json* at = &value;
  for (const auto& segment : segments) {
    if (at != nullptr && at->is_array()) {
      std::size_t index = 0;
      try {
        index = std::stoul(segment);
      } catch (const std::exception&) {
        return path;
      }
      path = path / index;
      at = index < at->size() ? &(*at)[index] : nullptr;
    } else {
      path = path / segment;
      at = at != nullptr && at->is_object() && at->contains(segment) ? &(*at)[segment] : nullptr;
    }
  }
  return path;
}

}  // namespace

namespace detail {

std::shared_ptr<const Validator::Impl> make_validator_impl(const ojson& json_schema,
                                                           const Schema* dsl) {
  auto impl = std::make_shared<Validator::Impl>();
  impl->compiled = compile_schema(json_schema);
  if (dsl != nullptr) {
    impl->dsl = *dsl;
    impl->has_refinements = has_refinements(dsl->node());
  }
  // Declarative rules are checked by the explainer, like refinements, whichever way they came.
  impl->has_refinements = impl->has_refinements || has_rules(impl->compiled.document);
  impl->fast = FastCheck::compile(impl->compiled, impl->dsl ? &impl->dsl->node() : nullptr);
  return impl;
}

Issues reference_validate(const Validator::Impl& impl, const json& value) {
  Scan found_in_value;
  scan(value, 0, found_in_value);
  if (found_in_value.too_deep) {
    return {
        Issue{IssueCode::invalid_json, Path{},
              "Invalid JSON: nested deeper than " + std::to_string(kMaxValueDepth) + " levels"}};
  }
  const json* checked = &value;
  json fixed;
  if (found_in_value.numbers_to_fix) {
    fixed = value;
    fix_numbers(fixed);
    checked = &fixed;
  }

  const auto& compiled = impl.compiled;
  const bool valid = valijson_accepts(compiled, *checked, nullptr);
  if (valid && !impl.has_refinements) return {};

  std::vector<FoundIssue> found;
  const SchemaNode* root = impl.dsl ? &impl.dsl->node() : nullptr;
  try {
    explain(compiled, compiled.document, &value, Path{}, root, found);
  } catch (const std::exception&) {
    // The explainer only words valijson's verdict; if it trips, fall back to a plain issue.
    found.clear();
  }

  Issues issues;
  bool worded = false;
  for (auto& entry : found) {
    // valijson decides validity: when it accepts, only refinements and rules can add issues.
    if (valid && !entry.refinement) continue;
    worded = worded || !entry.refinement;
    issues.push_back(std::move(entry.issue));
  }
  if (!valid && !worded) {
    std::vector<std::string> deepest;
    (void)valijson_accepts(compiled, *checked, &deepest);
    issues.insert(issues.begin(),
                  Issue{IssueCode::custom, to_path(value, deepest), "Invalid input"});
  }
  return issues;
}

}  // namespace detail

Validator Validator::from_json_schema(const nlohmann::ordered_json& json_schema) {
  return Validator(detail::make_validator_impl(json_schema, nullptr));
}

Issues Validator::validate(const json& value) const {
  // A value the fast check accepts has no issues on the reference path either; every other
  // value, and every issue's wording, is the reference path's.
  if (impl_->fast && impl_->fast->accepts(value)) return {};
  return detail::reference_validate(*impl_, value);
}

ValidationResult Validator::parse_and_validate(std::string_view text, ParseLimits limits) const {
  ValidationResult result;
  auto parsed = parse_json(text, limits);
  if (!parsed.value) {
    result.issues = std::move(parsed.issues);
    return result;
  }
  result.issues = validate(*parsed.value);
  result.value = std::move(parsed.value);
  return result;
}

}  // namespace accord
