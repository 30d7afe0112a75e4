#include "accord/validate.hpp"

#include "core/json_document.hpp"
#include "validate/validator_impl.hpp"

namespace accord {

namespace detail {

Draft draft_of(Dialect dialect) {
  switch (dialect) {
    case Dialect::draft04:
      return Draft::draft4;
    case Dialect::draft06:
      return Draft::draft6;
    case Dialect::draft07:
      return Draft::draft7;
    case Dialect::draft2019_09:
      return Draft::draft2019_09;
    case Dialect::draft2020_12:
      break;
  }
  return Draft::draft2020_12;
}

std::shared_ptr<const ValidatorImpl> make_validator_impl(const ojson& json_schema,
                                                         const Schema* dsl,
                                                         const EngineOptions& options) {
  auto impl = std::make_shared<ValidatorImpl>();
  if (dsl != nullptr) impl->dsl = *dsl;
  impl->engine = std::make_unique<const Engine>(json_schema,
                                                impl->dsl ? &impl->dsl->node() : nullptr, options);
  return impl;
}

}  // namespace detail

Validator Validator::from_json_schema(const nlohmann::ordered_json& json_schema,
                                      const ValidatorOptions& options) {
  detail::EngineOptions engine;
  engine.default_draft = detail::draft_of(options.dialect);
  engine.formats = options.formats;
  engine.registry = options.registry;
  engine.apply_ref_siblings = options.apply_ref_siblings;
  return Validator(detail::make_validator_impl(json_schema, nullptr, engine));
}

namespace {

// A value much deeper than this would overflow the stack of anything that walks it, so it is
// refused before anything recurses into it.
Issues too_deep_issues() {
  return {Issue{
      IssueCode::invalid_json, Path{},
      "Invalid JSON: nested deeper than " + std::to_string(detail::kMaxValueDepth) + " levels"}};
}

// The issues of a parsed document; false when its value is nested deeper than the engine walks.
// The parser's own depth limit already bounds the value unless the caller raised it; such a
// value is not kept either, as value() and dump() would recurse through every level of it.
bool judge_parsed(const detail::Engine& engine, const JsonDocument& document, ParseLimits limits,
                  Issues& issues) {
  const JsonView root = document.root();
  if (limits.max_depth > detail::kMaxValueDepth && detail::too_deep(root)) {
    issues = too_deep_issues();
    return false;
  }
  issues = engine.issues(root);
  return true;
}

}  // namespace

Issues Validator::validate(const nlohmann::json& value) const {
  // validate() takes values built by code too.
  if (detail::too_deep(value)) return too_deep_issues();
  const JsonDocument document = JsonDocument::from_json(value);
  return impl_->engine->issues(document.root());
}

std::optional<Issues> Validator::validate_part(const Path& path,
                                               const nlohmann::json& value) const {
  if (detail::too_deep(value)) return std::nullopt;
  const JsonDocument document = JsonDocument::from_json(value);
  return impl_->engine->issues_at(path, document.root());
}

const std::vector<Path>& Validator::keywords_beside_ref() const {
  return impl_->engine->keywords_beside_ref();
}

ValidationResult Validator::parse_and_validate(std::string_view text, ParseLimits limits) const {
  ValidationResult result;
  result.issues = detail::parse_document_into(text, limits, result.document);
  if (result.document && !judge_parsed(*impl_->engine, *result.document, limits, result.issues)) {
    result.document.reset();
  }
  return result;
}

Issues Validator::parse_and_validate(std::string_view text, JsonDocument& reuse,
                                     ParseLimits limits) const {
  Issues issues = parse_document(text, limits, reuse);
  if (!issues.empty()) return issues;
  if (!judge_parsed(*impl_->engine, reuse, limits, issues)) reuse = JsonDocument();
  return issues;
}

}  // namespace accord
